//! What the terminal says and reads, shared by the commands: cards, actions and events in
//! words (players counted from 1), and the known word nearest a typo.

use uno::courses::cs205;
use uno::event::{DrawReason, EndReason};
use uno::{Card, Event, Seat};

/// A card in words: `red 7`, `blue Skip`, `Wild Draw Four`.
pub fn card_words(card: Card) -> String {
    match card.color() {
        Some(c) => format!("{} {}", c.name(), card.face().words()),
        None => card.face().words(),
    }
}

/// An action in words, players counted from 1 as everywhere in the terminal: `play red 7`,
/// `play Wild (blue)`, `swap hands with Player 3`, `catch Player 2`.
pub fn action_words(action: uno::Action) -> String {
    use uno::Action;
    match action {
        Action::Play { card, color: Some(c) } => format!("play {} ({})", card_words(card), c.name()),
        Action::Play { card, color: None } => format!("play {}", card_words(card)),
        Action::DeclareColor { color } => format!("name {}", color.name()),
        Action::SwapHands { with } => format!("swap hands with {}", cs205::player_name(with.index())),
        Action::CatchUno { seat } => format!("catch {}", cs205::player_name(seat.index())),
        other => other.to_string(),
    }
}

fn card_list(cards: &[Card]) -> String {
    cards.iter().map(|&c| card_words(c)).collect::<Vec<_>>().join(", ")
}

/// One event as a sentence, seats named by `name`.
pub fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
    match event {
        Event::RoundStarted { round, dealer } => format!("Round {round}: {} deals.", name(*dealer)),
        Event::StartCard { card, returned: false } => format!("The first card turned up is {}.", card_words(*card)),
        Event::StartCard { card, returned: true } => {
            format!("The first card turned up is {}; it goes back into the deck.", card_words(*card))
        }
        Event::TurnStarted { seat } => format!("{}'s turn.", name(*seat)),
        Event::CardPlayed { seat, card, jump_in } => {
            let how = if *jump_in { " (jumping in)" } else { "" };
            format!("{} plays {}{how}.", name(*seat), card_words(*card))
        }
        Event::ColorDeclared { seat, color } => format!("{} names {}.", name(*seat), color.name()),
        Event::CardsDrawn { seat, count, cards, reason } => {
            let plural = if *count == 1 { "card" } else { "cards" };
            let what = if cards.is_empty() { String::new() } else { format!(" ({})", card_list(cards)) };
            let why = match reason {
                DrawReason::Turn => "",
                DrawReason::Penalty => " as a penalty",
                DrawReason::UnoPenalty => " for not calling UNO",
                DrawReason::FalseUnoCall => " for a false UNO call",
                DrawReason::ChallengeLost => " for a lost challenge",
                DrawReason::ChallengeGuilty => " for an illegal Wild Draw Four",
            };
            if *count == 0 {
                format!("{} cannot draw: no card is left.", name(*seat))
            } else {
                format!("{} draws {count} {plural}{what}{why}.", name(*seat))
            }
        }
        Event::Passed { seat } => format!("{} keeps the card and passes.", name(*seat)),
        Event::RunEnded { seat } => format!("{} plays no more cards of that number.", name(*seat)),
        Event::DirectionReversed { direction } => format!("Play now goes {}.", direction.to_string().replace('_', "-")),
        Event::PlayerSkipped { seat } => format!("{} is skipped.", name(*seat)),
        Event::UnoCalled { seat } => format!("{} calls UNO!", name(*seat)),
        Event::UnoPenalty { seat, caught_by } => {
            format!("{} catches {} without UNO called.", name(*caught_by), name(*seat))
        }
        Event::FalseUnoCall { seat } => format!("{} calls UNO with nothing to call.", name(*seat)),
        Event::ChallengeResolved { challenger, offender, guilty } => format!(
            "{} challenges {}'s Wild Draw Four: {}.",
            name(*challenger),
            name(*offender),
            if *guilty { "guilty" } else { "it was legal" }
        ),
        Event::HandsSwapped { a, b } => format!("{} and {} swap hands.", name(*a), name(*b)),
        Event::HandsRotated { direction } => {
            format!("Every hand passes on, {}.", direction.to_string().replace('_', "-"))
        }
        Event::DeckReshuffled { cards } => {
            format!("The draw pile is empty: the discard pile less its top card is shuffled into a new one of {cards} cards.")
        }
        Event::RoundScored { winner, points, totals } => {
            let totals: Vec<String> =
                Seat::all(totals.len()).zip(totals).map(|(s, t)| format!("{} {t}", name(s))).collect();
            format!("{} wins the round and scores {points} points (totals: {}).", name(*winner), totals.join(", "))
        }
        Event::GameOver { outcome } => match (outcome.winner, outcome.reason) {
            (Some(w), _) => format!("Game over: {} wins.", name(w)),
            (None, EndReason::Stalemate) => "Game over: nobody can play or draw any more (stalemate).".to_string(),
            (None, EndReason::MaxTurns) => {
                "Game over: the round reached the rules' turn limit (end.max_turns) with no winner (stalemate)."
                    .to_string()
            }
            (None, _) => "Game over: the turn limit is reached and nobody has won.".to_string(),
        },
    }
}

/// The command nearest `word` when a typo explains the difference (at most 2 edits, fewer than
/// the word has letters), as cargo and git suggest.
pub fn nearest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let len = word.chars().count();
    known
        .iter()
        .map(|k| (edits(word, k), *k))
        .filter(|&(d, _)| d > 0 && d <= 2 && d < len)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Levenshtein distance between two short words.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == cb { prev } else { 1 + prev.min(row[j]).min(row[j + 1]) };
            prev = cur;
        }
    }
    row[b.len()]
}
