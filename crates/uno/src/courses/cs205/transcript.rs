//! A whole printed game: its blocks and winner line, written and read back.

use std::fmt;

use super::{parse_card, player_name, Cs205Error, Status};
use crate::card::{Card, Direction};

/// A whole printed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    /// The set-up's block, then one block after every turn.
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
    /// Reads a transcript as `tabletop uno watch --format cs205` prints it. Only the form is
    /// read here; [`Transcript::check`] judges the play.
    ///
    /// # Errors
    ///
    /// [`Cs205Error::Empty`] for empty text, [`Cs205Error::Syntax`] (with the line) for
    /// anything that does not read as blocks and a winner line.
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
}
