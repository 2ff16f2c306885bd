//! `tabletop uno watch`: bots play one game and every event is printed in words, or, with
//! `--format cs205`, seed 004's status block after the set-up and after every turn.

use std::io::Write;
use std::sync::Arc;

use anyhow::{bail, Context};
use uno::courses::cs205;
use uno::event::{DrawReason, EndReason};
use uno::{Card, Event, Game, Phase, Rules, Seat};
use uno_bots::{Bot, BotSpec};

use crate::rules_arg::RulesArgs;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every event in words.
    Events,
    /// Seed 004's status blocks (piles top first, `Player 1` … `Player N`), then the winner.
    Cs205,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of players (default: 4, or the nearest count the rules allow).
    #[arg(long, value_parser = crate::sim_run::parse_players)]
    players: Option<usize>,
    /// Seed for the deal and the bots: the same seed replays the same game.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// Bot for every seat, or a comma-separated list, one per seat.
    #[arg(long, help = crate::names::bots_help("Bot for every seat, or a comma-separated list, one per seat", ""), default_value = "random", value_delimiter = ',', value_parser = crate::names::bot(), hide_possible_values = true)]
    bots: Vec<BotSpec>,
    /// How to print the game.
    #[arg(long, value_enum, default_value_t = Format::Events)]
    format: Format,
    /// Print every event as one line of JSON (`{"event": …}`) instead of words.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Also write the game's record (rules, seed, every action; JSON) to this file, for
    /// `uno replay` and `uno analyse`; `-`: the record alone on standard output, instead of
    /// the game.
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
}

/// The seat count to use: the one asked for, checked, or 4 brought into the rules' range.
pub(crate) fn player_count(rules: &Rules, asked: Option<usize>) -> anyhow::Result<usize> {
    match asked {
        Some(n) => {
            rules.check_players(n).context("--players")?;
            Ok(n)
        }
        // The count nearest 4 that the rules deal for (the deck may run out before players.max),
        // the smaller of two as near; when none deals, 4 brought into range, refused by name.
        None => {
            let dealt = (rules.min_players()..=rules.max_players())
                .filter(|&n| rules.check_players(n).is_ok())
                .min_by_key(|&n| (n.abs_diff(4), n));
            match dealt {
                Some(n) => Ok(n),
                None => {
                    let n = 4usize.clamp(rules.min_players(), rules.max_players());
                    rules.check_players(n).context("the rules deal for no number of players")?;
                    Ok(n)
                }
            }
        }
    }
}

/// Builds the bots for `seats` seats from `--bots` (one name for all, or one per seat).
pub(crate) fn make_bots(specs: &[BotSpec], seats: &[usize], seed: u64) -> anyhow::Result<Vec<Box<dyn Bot>>> {
    let specs = crate::bots_arg::per_seat(specs, seats.len())?;
    Ok(seats.iter().zip(specs).map(|(&seat, spec)| spec.build(seeding::table_bot_seed(seed, seat))).collect())
}

/// A card in words: `red 7`, `blue Skip`, `Wild Draw Four`.
pub(crate) fn card_words(card: Card) -> String {
    match card.color() {
        Some(c) => format!("{} {}", c.name(), card.face().words()),
        None => card.face().words(),
    }
}

/// An action in words, players counted from 1 as everywhere in the terminal: `play red 7`,
/// `play Wild (blue)`, `swap hands with Player 3`, `catch Player 2`.
pub(crate) fn action_words(action: uno::Action) -> String {
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
pub(crate) fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
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
                totals.iter().enumerate().map(|(i, t)| format!("{} {t}", name(Seat(i as u8)))).collect();
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

/// A generous bound on decisions, so a rules file that never ends cannot hang the command.
const MAX_DECISIONS: usize = 1_000_000;

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = Arc::new(args.rules.load()?);
    let players = player_count(&rules, args.players)?;
    let seats: Vec<usize> = (0..players).collect();
    let mut bots = make_bots(&args.bots, &seats, args.seed)?;
    if args.format == Format::Cs205 {
        if let Some(&wild) = rules.deck().iter().find(|c| c.is_wild()) {
            bail!("--format cs205 cannot print {} (seed 004's deck has no wild card)", card_words(wild));
        }
    }
    // Opened (so checked) before the game is played.
    let mut record_file =
        args.record.as_deref().map(|path| crate::output::Target::open("--record", path)).transpose()?;
    let mut record = uno::GameRecord::new(&rules, players, args.seed);
    // With the record on standard output, the game itself is not printed.
    let quiet = record_file.as_ref().is_some_and(crate::output::Target::is_stdout);
    let out: Box<dyn Write> =
        if quiet { Box::new(std::io::sink()) } else { Box::new(std::io::BufWriter::new(crate::output::Out::new())) };
    let mut printer = Printer { out, format: args.format, json: args.json };
    let mut events = Vec::new();
    let mut game = Game::new(rules, players, args.seed)?;
    game.restart_with_events(args.seed, &mut events);
    printer.start(&game, &events)?;
    let mut decisions = 0;
    while !game.is_over() {
        if args.format == Format::Cs205 && game.is_round_over() {
            break;
        }
        decisions += 1;
        if decisions > MAX_DECISIONS {
            bail!("the game did not end within {MAX_DECISIONS} decisions");
        }
        let seat = if game.phase() == Phase::RoundOver { Seat(0) } else { game.current() };
        let action = if game.phase() == Phase::RoundOver {
            uno::Action::NextRound
        } else {
            bots[seat.index()].choose(&game.observation(Some(seat)))
        };
        let turns = game.turns();
        let events = game
            .apply(seat, action)
            .map_err(|e| anyhow::anyhow!("the bot at {} chose to {}: {e}", watch_name(seat), action_words(action)))?;
        record.push(seat, action);
        printer.after(&game, turns, &events)?;
    }
    printer.finish(&game)?;
    if let Some(target) = &mut record_file {
        target.write(&(record.to_json() + "\n"))?;
    }
    Ok(())
}

/// A seat as `watch` names it (seed 004's player names).
fn watch_name(seat: Seat) -> String {
    cs205::player_name(seat.index())
}

/// Where `watch` prints the game, in the format asked for.
struct Printer {
    out: Box<dyn Write>,
    format: Format,
    /// Events as JSON lines rather than sentences.
    json: bool,
}

impl Printer {
    fn events(&mut self, events: &[Event]) -> anyhow::Result<()> {
        for e in events {
            if self.json {
                // Serialized first, so a failed write stays an io::Error the caller recognises.
                writeln!(self.out, "{}", serde_json::to_string(e)?)?;
            } else {
                writeln!(self.out, "{}", narrate(e, &watch_name))?;
            }
        }
        Ok(())
    }

    /// The deal.
    fn start(&mut self, game: &Game, events: &[Event]) -> anyhow::Result<()> {
        match self.format {
            Format::Events => self.events(events),
            Format::Cs205 => Ok(self.out.write_all(cs205::Status::of(game).render()?.as_bytes())?),
        }
    }

    /// What a decision did; `turns` is the game's turn count before it.
    fn after(&mut self, game: &Game, turns: u32, events: &[Event]) -> anyhow::Result<()> {
        match self.format {
            Format::Events => self.events(events),
            Format::Cs205 => {
                if game.turns() != turns || game.is_round_over() {
                    writeln!(self.out)?;
                    self.out.write_all(cs205::Status::of(game).render()?.as_bytes())?;
                }
                Ok(())
            }
        }
    }

    /// The end: seed 004's winner line, and everything written out.
    fn finish(&mut self, game: &Game) -> anyhow::Result<()> {
        if self.format == Format::Cs205 {
            writeln!(self.out, "{}", cs205::winner_line(game))?;
        }
        Ok(self.out.flush()?)
    }
}
