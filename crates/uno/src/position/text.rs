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
        let mut p = Position {
            seed: 0,
            rng: None,
            hands: Vec::new(),
            draw_pile: Vec::new(),
            discard: Vec::new(),
            color: None,
            current: Seat(0),
            direction: Direction::Clockwise,
            dealer: Seat(0),
            phase: Phase::Play,
            first_card_to_turn: false,
            pending_draw: 0,
            drawn_card: None,
            wd4_guilty: false,
            uno_called: Vec::new(),
            uno_exposed: None,
            acted: false,
            dead_turns: 0,
            turns: 0,
            round: 1,
            scores: Vec::new(),
            round_winner: None,
            outcome: None,
        };
        let mut seen_header = false;
        let mut seen: Vec<&str> = Vec::new();
        let mut outcome: Option<(EndReason, Option<Seat>)> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |message: String| PositionError::Syntax { line, message };
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (key, rest) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
            let rest = rest.trim();
            if !seen_header {
                if key != "uno-position" || rest != "1" {
                    return Err(err("a position starts with the line `uno-position 1`".into()));
                }
                seen_header = true;
                continue;
            }
            if key != "hand" {
                if seen.contains(&key) {
                    return Err(err(format!("`{key}` is given twice")));
                }
                seen.push(key);
            }
            let words: Vec<&str> = rest.split_whitespace().collect();
            let none = words == ["-"];
            let number = |w: &str| w.parse::<u64>().map_err(|_| err(format!("`{w}` is not a number")));
            let single = || match words.as_slice() {
                [w] => Ok(*w),
                _ => Err(err(format!("`{key}` takes one value"))),
            };
            let seat = |w: &str| -> Result<Seat, PositionError> {
                let n = number(w)?;
                u8::try_from(n).map(Seat).map_err(|_| err(format!("seat `{w}` is out of range")))
            };
            let opt_seat = || -> Result<Option<Seat>, PositionError> {
                let w = single()?;
                if w == "-" {
                    Ok(None)
                } else {
                    seat(w).map(Some)
                }
            };
            let cards = || -> Result<Vec<Card>, PositionError> {
                if none {
                    return Ok(Vec::new());
                }
                words.iter().map(|w| w.parse::<Card>().map_err(|e| err(e.to_string()))).collect()
            };
            let boolean = || match single()? {
                "true" => Ok(true),
                "false" => Ok(false),
                w => Err(err(format!("`{w}` is not true or false"))),
            };
            let small = |w: &str| -> Result<u32, PositionError> {
                u32::try_from(number(w)?).map_err(|_| err(format!("`{w}` is too large")))
            };
            match key {
                "seed" => p.seed = number(single()?)?,
                "rng" => {
                    p.rng = Some(match words.as_slice() {
                        ["chacha", n] => RngState::Chacha { word_pos: number(n)? },
                        ["split_mix", n] => RngState::SplitMix { state: number(n)? },
                        _ => return Err(err("rng is `chacha WORD_POS` or `split_mix STATE`".into())),
                    })
                }
                "hand" => {
                    let (index, list) = rest.split_once(char::is_whitespace).unwrap_or((rest, "-"));
                    if number(index)? != p.hands.len() as u64 {
                        return Err(err(format!("hand {index} out of order: hands are listed from seat 0")));
                    }
                    let list = list.trim();
                    let hand = if list == "-" {
                        Vec::new()
                    } else {
                        list.split_whitespace()
                            .map(|w| w.parse::<Card>().map_err(|e| err(e.to_string())))
                            .collect::<Result<_, _>>()?
                    };
                    p.hands.push(hand);
                }
                "draw_pile" => p.draw_pile = cards()?,
                "discard" => p.discard = cards()?,
                "color" => {
                    let w = single()?;
                    p.color = if w == "-" { None } else { Some(w.parse::<Color>().map_err(|e| err(e.to_string()))?) };
                }
                "current" => p.current = seat(single()?)?,
                "direction" => p.direction = single()?.parse::<Direction>().map_err(|e| err(e.to_string()))?,
                "dealer" => p.dealer = seat(single()?)?,
                "phase" => {
                    p.phase = match words.as_slice() {
                        ["play"] => Phase::Play,
                        ["drawn_card"] => Phase::DrawnCard,
                        ["choose_color"] => Phase::ChooseColor,
                        ["challenge", s] => Phase::Challenge { offender: seat(s)? },
                        ["choose_swap"] => Phase::ChooseSwap,
                        ["same_number"] => Phase::SameNumber,
                        ["round_over"] => Phase::RoundOver,
                        ["game_over"] => Phase::GameOver,
                        _ => return Err(err(format!("unknown phase `{rest}`"))),
                    }
                }
                "first_card_to_turn" => p.first_card_to_turn = boolean()?,
                "pending_draw" => p.pending_draw = small(single()?)?,
                "drawn_card" => {
                    let w = single()?;
                    p.drawn_card =
                        if w == "-" { None } else { Some(w.parse::<Card>().map_err(|e| err(e.to_string()))?) };
                }
                "wd4_guilty" => p.wd4_guilty = boolean()?,
                "uno_called" => {
                    p.uno_called =
                        if none { Vec::new() } else { words.iter().map(|w| seat(w)).collect::<Result<_, _>>()? }
                }
                "uno_exposed" => p.uno_exposed = opt_seat()?,
                "acted" => p.acted = boolean()?,
                "dead_turns" => {
                    p.dead_turns =
                        usize::try_from(number(single()?)?).map_err(|_| err("dead_turns is too large".into()))?
                }
                "turns" => p.turns = small(single()?)?,
                "round" => p.round = small(single()?)?,
                "scores" => {
                    p.scores =
                        if none { Vec::new() } else { words.iter().map(|w| small(w)).collect::<Result<_, _>>()? }
                }
                "round_winner" => p.round_winner = opt_seat()?,
                "outcome" => {
                    outcome = match words.as_slice() {
                        ["-"] => None,
                        [reason, winner] => {
                            let reason = match *reason {
                                "won" => EndReason::Won,
                                "stalemate" => EndReason::Stalemate,
                                "turn_cap" => EndReason::TurnCap,
                                "max_turns" => EndReason::MaxTurns,
                                r => return Err(err(format!("unknown end reason `{r}`"))),
                            };
                            let winner = if *winner == "-" { None } else { Some(seat(winner)?) };
                            Some((reason, winner))
                        }
                        _ => return Err(err("outcome is `-` or `REASON WINNER` (winner `-` for none)".into())),
                    }
                }
                other => return Err(err(format!("unknown key `{other}`"))),
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
