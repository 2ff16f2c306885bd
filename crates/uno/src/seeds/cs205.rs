//! Seed 004's printed game status (the course's `cs205` format) and its transcript checks.
//!
//! A status block shows both piles top card first, whose turn it is, the direction and every
//! hand, cards written face first and colour last (`7R`, `SB` blue Skip, `RR` red Reverse,
//! `DB` blue Draw Two):
//!
//! ```text
//! Draw: [9B, 9R, DR, 6R, 5B]
//! Discard: [2B]
//! Current: Player 2
//! Direction: Right
//! Player 1: [7R, 6B, 7B, 3R, 1R, 2B, RR]
//! Player 2: [SR, 4R, 6B, RR, 8B, RB, 0B]
//! ```
//!
//! A transcript is one block after the set-up and one after every turn, separated by blank
//! lines, then one line naming the winner and the points they won (`Player 2 (53)`), or an
//! empty line when nobody won. Players are `Player 1` … `Player N` in seat order; the seed's
//! "play passes to the right" is the engine's clockwise (increasing seats), printed `Right`.
//!
//! [`Transcript::check`] replays a transcript against the rules without knowing the shuffles:
//! every card is accounted for, every play matches, every draw takes the top of the draw pile,
//! the pile is rebuilt only when it is empty, the next player and direction follow the card
//! played, and the final line names the right winner and score.

use std::fmt::{self, Write as _};

use thiserror::Error;

use crate::card::{Card, Color, Direction, Face};
use crate::game::Game;
use crate::rules::{DrawRule, Rules};

/// Why a card, a block or a transcript cannot be read or written in this format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Cs205Error {
    #[error("the cs205 format has no notation for {0} (wild cards are not in seed 004's deck)")]
    NoNotation(Card),
    #[error("unknown card '{0}' (expected e.g. 7R, 0B, SB, RR, DB)")]
    UnknownCard(String),
    #[error("line {line}: expected {expected}, found '{found}'")]
    Syntax { line: usize, expected: String, found: String },
    #[error("the transcript has no status block")]
    Empty,
}

/// A transcript that does not follow the rules: the block (0 is the set-up) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("block {block}: {reason}")]
pub struct Violation {
    pub block: usize,
    pub reason: String,
}

/// A card in the course's notation: face (`0`-`9`, `S`, `R`, `D`) then colour letter.
pub fn card_text(card: Card) -> Result<String, Cs205Error> {
    let color = card.color().ok_or(Cs205Error::NoNotation(card))?;
    let face = match card.face() {
        Face::Digit(d) => char::from(b'0' + d),
        Face::Skip => 'S',
        Face::Reverse => 'R',
        Face::DrawTwo => 'D',
        Face::Wild | Face::WildDrawFour => return Err(Cs205Error::NoNotation(card)),
    };
    Ok(format!("{face}{}", color.letter()))
}

/// Reads a card written as [`card_text`] writes it.
pub fn parse_card(text: &str) -> Result<Card, Cs205Error> {
    let bad = || Cs205Error::UnknownCard(text.to_string());
    let t = text.trim();
    let mut chars = t.chars();
    let (Some(f), Some(c), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(bad());
    };
    let face = match f {
        '0'..='9' => Face::Digit(f as u8 - b'0'),
        'S' => Face::Skip,
        'R' => Face::Reverse,
        'D' => Face::DrawTwo,
        _ => return Err(bad()),
    };
    let color = match c {
        'R' => Color::Red,
        'Y' => Color::Yellow,
        'G' => Color::Green,
        'B' => Color::Blue,
        _ => return Err(bad()),
    };
    Card::colored(color, face).ok_or_else(bad)
}

/// `Right` for the engine's clockwise (the seed's starting direction), `Left` for the other.
pub fn direction_text(direction: Direction) -> &'static str {
    match direction {
        Direction::Clockwise => "Right",
        Direction::CounterClockwise => "Left",
    }
}

/// The name of a seat (0-based) in the course's output.
pub fn player_name(seat: usize) -> String {
    format!("Player {}", seat + 1)
}

/// One status block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The draw pile, top card (the next one drawn) first.
    pub draw: Vec<Card>,
    /// The discard pile, top card first.
    pub discard: Vec<Card>,
    /// The seat (0-based) whose turn it is.
    pub current: usize,
    pub direction: Direction,
    /// Hands in seat order, each in the order the cards were received.
    pub hands: Vec<Vec<Card>>,
}

impl Status {
    /// The status of a game. After a winning card, the turn and the direction are shown as the
    /// card leaves them (the player after a Skip's or Draw Two's victim, the direction after a
    /// Reverse), as after any other turn: the engine itself stops moving them once the round is
    /// won.
    pub fn of(game: &Game) -> Status {
        let (current, direction) = match game.round_winner() {
            Some(winner) => after_last_card(game, winner.index()),
            None => (game.current().index(), game.direction()),
        };
        Status {
            draw: game.draw_pile().iter().rev().copied().collect(),
            discard: game.discard_pile().iter().rev().copied().collect(),
            current,
            direction,
            hands: game.hands().iter().map(|h| h.to_vec()).collect(),
        }
    }

    /// The block's lines, each ending in `\n`.
    pub fn render(&self) -> Result<String, Cs205Error> {
        let mut out = String::new();
        let _ = writeln!(out, "Draw: {}", list(&self.draw)?);
        let _ = writeln!(out, "Discard: {}", list(&self.discard)?);
        let _ = writeln!(out, "Current: {}", player_name(self.current));
        let _ = writeln!(out, "Direction: {}", direction_text(self.direction));
        for (i, hand) in self.hands.iter().enumerate() {
            let _ = writeln!(out, "{}: {}", player_name(i), list(hand)?);
        }
        Ok(out)
    }

    /// Every card in the block, sorted (compare with `Rules::deck`).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.hands.iter().flatten().chain(&self.draw).chain(&self.discard).copied().collect();
        all.sort();
        all
    }
}

fn list(cards: &[Card]) -> Result<String, Cs205Error> {
    let texts = cards.iter().map(|&c| card_text(c)).collect::<Result<Vec<_>, _>>()?;
    Ok(format!("[{}]", texts.join(", ")))
}

/// Where the turn and the direction go after the winner's last card, as they would after the
/// same card mid-game.
fn after_last_card(game: &Game, winner: usize) -> (usize, Direction) {
    let n = game.players();
    let mut direction = game.direction();
    let e = game.rules().effect(game.top(), n);
    if e.flip {
        direction = direction.flipped();
    }
    let steps = 1 + usize::from(e.skip);
    (step(winner, steps, direction, n), direction)
}

fn step(from: usize, steps: usize, direction: Direction, n: usize) -> usize {
    crate::effect::next_seat(from, direction, n, steps)
}

/// The line after the last block: `Player 2 (53)`, or empty when nobody won.
pub fn winner_line(game: &Game) -> String {
    match (game.round_winner(), game.outcome()) {
        (Some(w), _) => {
            let points: u32 = game.hands().iter().flatten().map(|&c| game.rules().points(c)).sum();
            format!("{} ({points})", player_name(w.index()))
        }
        _ => String::new(),
    }
}

/// A whole printed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub blocks: Vec<Status>,
    /// The winner's seat and the points they won; `None` for the empty last line.
    pub winner: Option<(usize, u32)>,
}

impl fmt::Display for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, block) in self.blocks.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&block.render().map_err(|_| fmt::Error)?)?;
        }
        match self.winner {
            Some((seat, points)) => writeln!(f, "{} ({points})", player_name(seat)),
            None => writeln!(f),
        }
    }
}

struct Lines<'a> {
    lines: Vec<&'a str>,
    at: usize,
}

impl<'a> Lines<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.lines.get(self.at).copied()
    }
    fn err(&self, expected: &str) -> Cs205Error {
        Cs205Error::Syntax {
            line: self.at + 1,
            expected: expected.to_string(),
            found: self.peek().unwrap_or("end of text").to_string(),
        }
    }
    fn field(&mut self, label: &str) -> Result<&'a str, Cs205Error> {
        let value = self
            .peek()
            .and_then(|l| l.strip_prefix(label))
            .and_then(|l| l.strip_prefix(": "))
            .ok_or_else(|| self.err(&format!("'{label}: ...'")))?;
        self.at += 1;
        Ok(value)
    }
    fn cards(&mut self, label: &str) -> Result<Vec<Card>, Cs205Error> {
        let at = self.at;
        let value = self.field(label)?;
        let inner = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')).ok_or_else(|| {
            self.at = at;
            self.err(&format!("'{label}: [card, ...]'"))
        })?;
        if inner.trim().is_empty() {
            return Ok(Vec::new());
        }
        inner.split(", ").map(parse_card).collect::<Result<Vec<_>, _>>().map_err(|e| {
            self.at = at;
            self.err(&e.to_string())
        })
    }
}

fn parse_player(text: &str) -> Option<usize> {
    let n: usize = text.strip_prefix("Player ")?.parse().ok()?;
    n.checked_sub(1)
}

fn parse_block(lines: &mut Lines<'_>) -> Result<Status, Cs205Error> {
    let draw = lines.cards("Draw")?;
    let discard = lines.cards("Discard")?;
    let current_line = lines.at;
    let current = parse_player(lines.field("Current")?).ok_or_else(|| {
        lines.at = current_line;
        lines.err("'Current: Player N'")
    })?;
    let direction = match lines.field("Direction")? {
        "Right" => Direction::Clockwise,
        "Left" => Direction::CounterClockwise,
        _ => {
            lines.at -= 1;
            return Err(lines.err("'Direction: Right' or 'Direction: Left'"));
        }
    };
    let mut hands = Vec::new();
    loop {
        let label = player_name(hands.len());
        match lines.peek() {
            Some(l) if l.starts_with(&format!("{label}: ")) => hands.push(lines.cards(&label)?),
            _ => break,
        }
    }
    if hands.is_empty() {
        return Err(lines.err("'Player 1: [...]'"));
    }
    Ok(Status { draw, discard, current, direction, hands })
}

fn parse_winner(text: &str) -> Option<(usize, u32)> {
    let (name, rest) = text.split_once(" (")?;
    let points = rest.strip_suffix(')')?.parse().ok()?;
    Some((parse_player(name)?, points))
}

impl Transcript {
    /// Reads a transcript as `tabletop uno watch --format cs205` prints it.
    pub fn parse(text: &str) -> Result<Transcript, Cs205Error> {
        let mut lines = Lines { lines: text.lines().collect(), at: 0 };
        if lines.peek().is_none() {
            return Err(Cs205Error::Empty);
        }
        let mut blocks = vec![parse_block(&mut lines)?];
        loop {
            let next_is_block =
                lines.peek() == Some("") && lines.lines.get(lines.at + 1).is_some_and(|l| l.starts_with("Draw: "));
            if !next_is_block {
                break;
            }
            lines.at += 1;
            blocks.push(parse_block(&mut lines)?);
        }
        let winner = match lines.peek() {
            None | Some("") => None,
            Some(l) => Some(parse_winner(l).ok_or_else(|| lines.err("'Player N (points)' or an empty line"))?),
        };
        lines.at += 1;
        while let Some(l) = lines.peek() {
            if !l.is_empty() {
                return Err(lines.err("nothing after the winner line"));
            }
            lines.at += 1;
        }
        Ok(Transcript { blocks, winner })
    }

    /// Checks every block and every turn against `rules` (a rule set without wild cards in
    /// which a turn is one play or one draw, as seed 004's). Returns what the game did.
    pub fn check(&self, rules: &Rules) -> Result<Summary, Violation> {
        let fail = |block: usize, reason: String| Violation { block, reason };
        let first = self.blocks.first().ok_or_else(|| fail(0, "no status block".into()))?;
        let n = first.hands.len();
        if n < rules.min_players() || n > rules.max_players() {
            return Err(fail(
                0,
                format!("{n} players; the rules allow {}-{}", rules.min_players(), rules.max_players()),
            ));
        }
        if rules.draw_rule() != DrawRule::DrawOneEndTurn {
            return Err(fail(0, "the checker knows only rules where a draw ends the turn".into()));
        }
        let mut deck = rules.deck().to_vec();
        deck.sort();
        for (b, block) in self.blocks.iter().enumerate() {
            if block.hands.len() != n {
                return Err(fail(b, format!("{} hands, the game has {n} players", block.hands.len())));
            }
            if block.current >= n {
                return Err(fail(b, format!("current player {} does not exist", block.current + 1)));
            }
            if block.discard.is_empty() {
                return Err(fail(b, "the discard pile is empty".into()));
            }
            if block.all_cards() != deck {
                return Err(fail(b, "the cards are not exactly the deck's (one lost, added or duplicated)".into()));
            }
        }
        if let Some((i, h)) = first.hands.iter().enumerate().find(|(_, h)| h.len() != rules.hand_size()) {
            return Err(fail(0, format!("{} was dealt {} cards, not {}", player_name(i), h.len(), rules.hand_size())));
        }
        if first.discard.len() != 1 {
            return Err(fail(0, "the set-up must turn exactly one card to start the discard pile".into()));
        }
        if first.direction != rules.direction() {
            return Err(fail(0, format!("the game starts going {}", direction_text(rules.direction()))));
        }
        let mut summary = Summary::default();
        let mut dead_run = 0;
        for (b, pair) in self.blocks.windows(2).enumerate() {
            let (prev, next) = (&pair[0], &pair[1]);
            if let Some(w) = prev.hands.iter().position(Vec::is_empty) {
                return Err(fail(b + 1, format!("a turn was played after {} won", player_name(w))));
            }
            let turn = check_turn(prev, next, rules).map_err(|reason| fail(b + 1, reason))?;
            match turn {
                Turn::Play { reshuffled } => {
                    summary.plays += 1;
                    summary.reshuffles += reshuffled as usize;
                    dead_run = 0;
                }
                Turn::Draw { reshuffled } => {
                    summary.draws += 1;
                    summary.reshuffles += reshuffled as usize;
                    dead_run = 0;
                }
                Turn::Nothing => dead_run += 1,
            }
        }
        summary.turns = self.blocks.len() - 1;
        let last = &self.blocks[self.blocks.len() - 1];
        let end = self.blocks.len() - 1;
        let cap = rules.turn_cap().map(|c| c as usize);
        if cap.is_some_and(|c| summary.turns > c) {
            return Err(fail(end, format!("{} turns were played, the cap is {}", summary.turns, cap.unwrap_or(0))));
        }
        match last.hands.iter().position(Vec::is_empty) {
            Some(w) => {
                let points: u32 = last.hands.iter().flatten().map(|&c| rules.points(c)).sum();
                if self.winner != Some((w, points)) {
                    return Err(fail(end, format!("the last line must be '{} ({points})'", player_name(w))));
                }
                summary.winner = Some((w, points));
            }
            None => {
                if let Some((w, _)) = self.winner {
                    return Err(fail(end, format!("{} is named the winner but holds cards", player_name(w))));
                }
                let capped = cap == Some(summary.turns);
                let stalemate = dead_run >= n;
                if !capped && !stalemate {
                    return Err(fail(end, "the game stopped with no winner, before the turn cap".into()));
                }
            }
        }
        Ok(summary)
    }
}

/// What a checked transcript shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub turns: usize,
    pub plays: usize,
    pub draws: usize,
    pub reshuffles: usize,
    pub winner: Option<(usize, u32)>,
}

enum Turn {
    Play {
        reshuffled: bool,
    },
    Draw {
        reshuffled: bool,
    },
    /// Nothing to play and nothing to draw.
    Nothing,
}

fn counts(cards: &[Card]) -> [u16; Card::KINDS] {
    let mut out = [0u16; Card::KINDS];
    for c in cards {
        out[c.index()] += 1;
    }
    out
}

fn fmt_cards(cards: &[Card]) -> String {
    cards.iter().map(|&c| card_text(c).unwrap_or_else(|_| c.to_string())).collect::<Vec<_>>().join(", ")
}

/// Draws `want` cards as the rules do, starting from `draw` and `discard` (top first), and
/// compares with the cards that arrived (`got`) and the piles after (`draw_after`,
/// `discard_after`). Returns whether the draw pile was rebuilt.
fn check_draws(
    want: usize,
    draw: &[Card],
    discard: &[Card],
    got: &[Card],
    draw_after: &[Card],
    discard_after: &[Card],
) -> Result<bool, String> {
    let direct = want.min(draw.len());
    if got.len() < direct || got[..direct] != draw[..direct] {
        return Err(format!(
            "drew [{}], but the top of the draw pile was [{}]",
            fmt_cards(got),
            fmt_cards(&draw[..direct])
        ));
    }
    if direct == want || discard.len() < 2 {
        // No rebuild: the pile was not used up, or there was nothing to rebuild it from.
        if got.len() != direct {
            return Err(format!("drew {} cards, expected {direct}", got.len()));
        }
        if draw_after != &draw[direct..] {
            return Err("the draw pile changed other than by the cards drawn".into());
        }
        if discard_after != discard {
            return Err("the discard pile changed other than by the card played".into());
        }
        return Ok(false);
    }
    // The pile ran out: everything under the top discard was shuffled into a new pile and the
    // rest of the cards came from it.
    let rest = (want - direct).min(discard.len() - 1);
    if got.len() != direct + rest {
        return Err(format!("drew {} cards after rebuilding the pile, expected {}", got.len(), direct + rest));
    }
    if discard_after != &discard[..1] {
        return Err("after rebuilding the draw pile the discard pile must hold only its top card".into());
    }
    let mut from_new: Vec<Card> = got[direct..].to_vec();
    from_new.extend_from_slice(draw_after);
    if counts(&from_new) != counts(&discard[1..]) {
        return Err("the rebuilt draw pile is not the old discard pile less its top card".into());
    }
    Ok(true)
}

fn check_turn(prev: &Status, next: &Status, rules: &Rules) -> Result<Turn, String> {
    let n = prev.hands.len();
    let p = prev.current;
    let top = prev.discard[0];
    let color = top.color().unwrap_or(Color::Red);
    let old = &prev.hands[p];
    let new = &next.hands[p];
    let playable = old.iter().any(|c| c.matches(top, color));
    let mut victim = None;
    let (turn, expected_current, expected_direction) = if new.len() + 1 == old.len() {
        let card = next.discard[0];
        let removed_ok = (0..old.len())
            .any(|i| old[i] == card && old[..i].iter().chain(&old[i + 1..]).copied().eq(new.iter().copied()));
        if !removed_ok {
            return Err(format!("{} played {}, which left the hand wrong", player_name(p), fmt_cards(&[card])));
        }
        if !card.matches(top, color) {
            return Err(format!(
                "{} played {} on {}: it matches neither colour nor face",
                player_name(p),
                fmt_cards(&[card]),
                fmt_cards(&[top])
            ));
        }
        let mut direction = prev.direction;
        let e = rules.effect(card, n);
        if e.penalty > 0 {
            victim = Some(step(p, 1, direction, n));
        }
        if e.flip {
            direction = direction.flipped();
        }
        let steps = 1 + usize::from(e.skip);
        let mut discard: Vec<Card> = vec![card];
        discard.extend_from_slice(&prev.discard);
        let reshuffled = match victim {
            Some(v) => {
                let before = &prev.hands[v];
                let after = &next.hands[v];
                if after.len() < before.len() || after[..before.len()] != before[..] {
                    return Err(format!("{} lost cards to a Draw Two", player_name(v)));
                }
                check_draws(e.penalty.into(), &prev.draw, &discard, &after[before.len()..], &next.draw, &next.discard)
                    .map_err(|e| format!("{} after a Draw Two: {e}", player_name(v)))?
            }
            None => {
                if next.draw != prev.draw {
                    return Err("the draw pile changed, but nobody drew".into());
                }
                if next.discard != discard {
                    return Err("the discard pile must be the card played on the old pile".into());
                }
                false
            }
        };
        (Turn::Play { reshuffled }, step(p, steps, direction, n), direction)
    } else {
        if playable && rules.forced_play() == crate::rules::ForcedPlay::Required {
            return Err(format!("{} did not play although they held a playable card", player_name(p)));
        }
        if new.len() < old.len() || new[..old.len()] != old[..] {
            return Err(format!("{}'s hand changed in a way no play or draw explains", player_name(p)));
        }
        let got = &new[old.len()..];
        if got.len() > 1 {
            return Err(format!("{} drew {} cards on their turn", player_name(p), got.len()));
        }
        let reshuffled = check_draws(1, &prev.draw, &prev.discard, got, &next.draw, &next.discard)
            .map_err(|e| format!("{}: {e}", player_name(p)))?;
        let turn = if got.is_empty() { Turn::Nothing } else { Turn::Draw { reshuffled } };
        (turn, step(p, 1, prev.direction, n), prev.direction)
    };
    for (i, (a, b)) in prev.hands.iter().zip(&next.hands).enumerate() {
        if i != p && Some(i) != victim && a != b {
            return Err(format!("{}'s hand changed on {}'s turn", player_name(i), player_name(p)));
        }
    }
    if next.direction != expected_direction {
        return Err(format!("the direction should be {}", direction_text(expected_direction)));
    }
    if next.current != expected_current {
        return Err(format!("the next player should be {}", player_name(expected_current)));
    }
    Ok(turn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_round_trip_in_the_course_notation() {
        for card in Card::all().filter(|c| !c.is_wild()) {
            let text = card_text(card).expect("coloured");
            assert_eq!(parse_card(&text), Ok(card), "{text}");
        }
        assert_eq!(card_text(Card::WILD), Err(Cs205Error::NoNotation(Card::WILD)));
        assert!(parse_card("1X").is_err());
        assert!(parse_card("10B").is_err());
        assert_eq!(parse_card("DB").map(|c| c.face()), Ok(Face::DrawTwo));
    }

    #[test]
    fn steps_go_round_both_ways() {
        assert_eq!(step(0, 1, Direction::Clockwise, 4), 1);
        assert_eq!(step(3, 2, Direction::Clockwise, 4), 1);
        assert_eq!(step(0, 1, Direction::CounterClockwise, 4), 3);
        assert_eq!(step(1, 2, Direction::CounterClockwise, 4), 3);
        assert_eq!(step(0, 2, Direction::CounterClockwise, 2), 0);
    }
}
