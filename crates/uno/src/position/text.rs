//! The compact text form of a position: see `Display for Position`.

use std::fmt;
use std::str::FromStr;

use crate::card::{Card, Color, Direction, Seat};
use crate::event::{EndReason, Outcome};
use crate::game::Phase;

use super::{Position, PositionError, RngState};

fn cards_text(cards: &[Card]) -> String {
    if cards.is_empty() {
        "-".to_string()
    } else {
        cards.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
    }
}

fn seat_text(seat: Option<Seat>) -> String {
    seat.map_or("-".to_string(), |s| s.0.to_string())
}

fn phase_text(phase: Phase) -> String {
    match phase {
        Phase::Play => "play".into(),
        Phase::DrawnCard => "drawn_card".into(),
        Phase::ChooseColor => "choose_color".into(),
        Phase::Challenge { offender } => format!("challenge {}", offender.0),
        Phase::ChooseSwap => "choose_swap".into(),
        Phase::SameNumber => "same_number".into(),
        Phase::RoundOver => "round_over".into(),
        Phase::GameOver => "game_over".into(),
    }
}

fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Won => "won",
        EndReason::Stalemate => "stalemate",
        EndReason::TurnCap => "turn_cap",
        EndReason::MaxTurns => "max_turns",
    }
}

/// The compact text form: a first line `uno-position 1`, then one `key value` line per field,
/// in the order of the JSON fields; cards in their short notation (`R5`, `GD2`, `W`, `W4`),
/// piles bottom card first, `-` for nothing. Reading accepts the keys in any order, leaves out
/// none that has no default, and ignores blank lines and lines starting with `#`.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "uno-position 1")?;
        writeln!(f, "seed {}", self.seed)?;
        match self.rng {
            None => {}
            Some(RngState::Chacha { word_pos }) => writeln!(f, "rng chacha {word_pos}")?,
            Some(RngState::SplitMix { state }) => writeln!(f, "rng split_mix {state}")?,
        }
        if let Some(deck) = &self.deck {
            writeln!(f, "deck {}", cards_text(deck))?;
        }
        for (i, hand) in self.hands.iter().enumerate() {
            writeln!(f, "hand {i} {}", cards_text(hand))?;
        }
        writeln!(f, "draw_pile {}", cards_text(&self.draw_pile))?;
        writeln!(f, "discard {}", cards_text(&self.discard))?;
        writeln!(f, "color {}", self.color.map_or("-".to_string(), |c| c.name().to_string()))?;
        writeln!(f, "current {}", self.current.0)?;
        writeln!(f, "direction {}", self.direction)?;
        writeln!(f, "dealer {}", self.dealer.0)?;
        writeln!(f, "phase {}", phase_text(self.phase))?;
        if self.first_card_to_turn {
            writeln!(f, "first_card_to_turn true")?;
        }
        writeln!(f, "pending_draw {}", self.pending_draw)?;
        writeln!(f, "drawn_card {}", self.drawn_card.map_or("-".to_string(), |c| c.to_string()))?;
        writeln!(f, "wd4_guilty {}", self.wd4_guilty)?;
        let called: Vec<String> = self.uno_called.iter().map(|s| s.0.to_string()).collect();
        writeln!(f, "uno_called {}", if called.is_empty() { "-".to_string() } else { called.join(" ") })?;
        writeln!(f, "uno_exposed {}", seat_text(self.uno_exposed))?;
        writeln!(f, "acted {}", self.acted)?;
        writeln!(f, "dead_turns {}", self.dead_turns)?;
        writeln!(f, "turns {}", self.turns)?;
        writeln!(f, "round {}", self.round)?;
        let scores: Vec<String> = self.scores.iter().map(u32::to_string).collect();
        writeln!(f, "scores {}", if scores.is_empty() { "-".to_string() } else { scores.join(" ") })?;
        writeln!(f, "round_winner {}", seat_text(self.round_winner))?;
        match &self.outcome {
            None => writeln!(f, "outcome -"),
            Some(o) => writeln!(f, "outcome {} {}", reason_text(o.reason), seat_text(o.winner)),
        }
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Position, PositionError> {
        let mut p = Position::defaults();
        let mut seen_header = false;
        let mut seen: Vec<&str> = Vec::new();
        let mut outcome: Option<(EndReason, Option<Seat>)> = None;
        for (i, raw) in text.lines().enumerate() {
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let l = Line::new(i + 1, trimmed);
            if !seen_header {
                if l.key != "uno-position" || l.rest != "1" {
                    return Err(l.err("a position starts with the line `uno-position 1`".into()));
                }
                seen_header = true;
                continue;
            }
            if l.key != "hand" {
                if seen.contains(&l.key) {
                    return Err(l.err(format!("`{}` is given twice", l.key)));
                }
                seen.push(l.key);
            }
            if l.key == "outcome" {
                outcome = l.outcome()?;
            } else {
                read_field(&mut p, &l)?;
            }
        }
        if !seen_header {
            return Err(PositionError::Syntax { line: 0, message: "empty: no `uno-position 1` line".into() });
        }
        for required in ["draw_pile", "discard", "current", "phase"] {
            if !seen.contains(&required) {
                return Err(PositionError::Syntax { line: 0, message: format!("`{required}` is missing") });
            }
        }
        p.outcome = outcome.map(|(reason, winner)| Outcome {
            winner,
            reason,
            scores: if p.scores.is_empty() { vec![0; p.hands.len()] } else { p.scores.clone() },
        });
        Ok(p)
    }
}

/// Sets the field one line names (every key but `outcome`, which is read last).
fn read_field(p: &mut Position, l: &Line<'_>) -> Result<(), PositionError> {
    match l.key {
        "seed" => p.seed = l.number(l.single()?)?,
        "rng" => {
            p.rng = Some(match l.words.as_slice() {
                ["chacha", n] => RngState::Chacha { word_pos: l.number(n)? },
                ["split_mix", n] => RngState::SplitMix { state: l.number(n)? },
                _ => return Err(l.err("rng is `chacha WORD_POS` or `split_mix STATE`".into())),
            })
        }
        "hand" => {
            let (index, list) = l.rest.split_once(char::is_whitespace).unwrap_or((l.rest, "-"));
            if l.number(index)? != p.hands.len() as u64 {
                return Err(l.err(format!("hand {index} out of order: hands are listed from seat 0")));
            }
            let list = list.trim();
            let hand = if list == "-" {
                Vec::new()
            } else {
                list.split_whitespace().map(|w| l.parsed::<Card>(w)).collect::<Result<_, _>>()?
            };
            p.hands.push(hand);
        }
        "deck" => p.deck = Some(l.cards()?),
        "draw_pile" => p.draw_pile = l.cards()?,
        "discard" => p.discard = l.cards()?,
        "color" => p.color = l.optional(|w| l.parsed::<Color>(w))?,
        "current" => p.current = l.seat(l.single()?)?,
        "direction" => p.direction = l.parsed::<Direction>(l.single()?)?,
        "dealer" => p.dealer = l.seat(l.single()?)?,
        "phase" => p.phase = l.phase()?,
        "first_card_to_turn" => p.first_card_to_turn = l.boolean()?,
        "pending_draw" => p.pending_draw = l.small(l.single()?)?,
        "drawn_card" => p.drawn_card = l.optional(|w| l.parsed::<Card>(w))?,
        "wd4_guilty" => p.wd4_guilty = l.boolean()?,
        "uno_called" => p.uno_called = l.list(|w| l.seat(w))?,
        "uno_exposed" => p.uno_exposed = l.optional(|w| l.seat(w))?,
        "acted" => p.acted = l.boolean()?,
        "dead_turns" => {
            p.dead_turns =
                usize::try_from(l.number(l.single()?)?).map_err(|_| l.err("dead_turns is too large".into()))?
        }
        "turns" => p.turns = l.small(l.single()?)?,
        "round" => p.round = l.small(l.single()?)?,
        "scores" => p.scores = l.list(|w| l.small(w))?,
        "round_winner" => p.round_winner = l.optional(|w| l.seat(w))?,
        other => return Err(l.err(format!("unknown key `{other}`"))),
    }
    Ok(())
}

/// One `key value…` line of the text, and how its values read.
struct Line<'a> {
    line: usize,
    key: &'a str,
    rest: &'a str,
    words: Vec<&'a str>,
}

impl<'a> Line<'a> {
    fn new(line: usize, trimmed: &'a str) -> Line<'a> {
        let (key, rest) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
        let rest = rest.trim();
        Line { line, key, rest, words: rest.split_whitespace().collect() }
    }

    fn err(&self, message: String) -> PositionError {
        PositionError::Syntax { line: self.line, message }
    }

    fn none(&self) -> bool {
        self.words == ["-"]
    }

    fn number(&self, w: &str) -> Result<u64, PositionError> {
        w.parse::<u64>().map_err(|_| self.err(format!("`{w}` is not a number")))
    }

    fn small(&self, w: &str) -> Result<u32, PositionError> {
        u32::try_from(self.number(w)?).map_err(|_| self.err(format!("`{w}` is too large")))
    }

    fn parsed<T: FromStr>(&self, w: &str) -> Result<T, PositionError>
    where
        T::Err: fmt::Display,
    {
        w.parse::<T>().map_err(|e| self.err(e.to_string()))
    }

    fn single(&self) -> Result<&'a str, PositionError> {
        match self.words.as_slice() {
            [w] => Ok(*w),
            _ => Err(self.err(format!("`{}` takes one value", self.key))),
        }
    }

    fn seat(&self, w: &str) -> Result<Seat, PositionError> {
        let n = self.number(w)?;
        u8::try_from(n).map(Seat).map_err(|_| self.err(format!("seat `{w}` is out of range")))
    }

    /// One value, or `-` for none.
    fn optional<T>(&self, read: impl Fn(&str) -> Result<T, PositionError>) -> Result<Option<T>, PositionError> {
        match self.single()? {
            "-" => Ok(None),
            w => read(w).map(Some),
        }
    }

    /// Any number of values, or `-` for none.
    fn list<T>(&self, read: impl Fn(&str) -> Result<T, PositionError>) -> Result<Vec<T>, PositionError> {
        if self.none() {
            return Ok(Vec::new());
        }
        self.words.iter().map(|w| read(w)).collect()
    }

    fn cards(&self) -> Result<Vec<Card>, PositionError> {
        self.list(|w| self.parsed::<Card>(w))
    }

    fn boolean(&self) -> Result<bool, PositionError> {
        match self.single()? {
            "true" => Ok(true),
            "false" => Ok(false),
            w => Err(self.err(format!("`{w}` is not true or false"))),
        }
    }

    fn phase(&self) -> Result<Phase, PositionError> {
        Ok(match self.words.as_slice() {
            ["play"] => Phase::Play,
            ["drawn_card"] => Phase::DrawnCard,
            ["choose_color"] => Phase::ChooseColor,
            ["challenge", s] => Phase::Challenge { offender: self.seat(s)? },
            ["choose_swap"] => Phase::ChooseSwap,
            ["same_number"] => Phase::SameNumber,
            ["round_over"] => Phase::RoundOver,
            ["game_over"] => Phase::GameOver,
            _ => return Err(self.err(format!("unknown phase `{}`", self.rest))),
        })
    }

    fn outcome(&self) -> Result<Option<(EndReason, Option<Seat>)>, PositionError> {
        match self.words.as_slice() {
            ["-"] => Ok(None),
            [reason, winner] => {
                let reason = match *reason {
                    "won" => EndReason::Won,
                    "stalemate" => EndReason::Stalemate,
                    "turn_cap" => EndReason::TurnCap,
                    "max_turns" => EndReason::MaxTurns,
                    r => return Err(self.err(format!("unknown end reason `{r}`"))),
                };
                let winner = if *winner == "-" { None } else { Some(self.seat(winner)?) };
                Ok(Some((reason, winner)))
            }
            _ => Err(self.err("outcome is `-` or `REASON WINNER` (winner `-` for none)".into())),
        }
    }
}
