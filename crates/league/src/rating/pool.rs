//! Which ratings a game counts for: one rating per rule preset and table-size group, because
//! skill at a two-seat duel, at a table of four and at a crowd of ten are different skills,
//! and so are skills under different rules (stacking, 7–0, …).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The longest preset name accepted (the engine's names are far shorter).
pub const MAX_PRESET_NAME: usize = 64;

/// A rule preset's name, as the engine lists them (`official`, `cs410`, …): lowercase ASCII
/// letters, digits and `-`, 1 to [`MAX_PRESET_NAME`] characters.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PresetName(String);

/// Why a pool could not be named.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PoolError {
    #[error("a preset name is 1 to {MAX_PRESET_NAME} characters of a-z, 0-9 and '-'")]
    PresetName,
    #[error("rated tables seat 2 to 10 players, not {0}")]
    Seats(usize),
}

impl FromStr for PresetName {
    type Err = PoolError;
    fn from_str(s: &str) -> Result<PresetName, PoolError> {
        let ok = !s.is_empty()
            && s.len() <= MAX_PRESET_NAME
            && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if ok {
            Ok(PresetName(s.to_owned()))
        } else {
            Err(PoolError::PresetName)
        }
    }
}

impl TryFrom<String> for PresetName {
    type Error = PoolError;
    fn try_from(s: String) -> Result<PresetName, PoolError> {
        s.parse()
    }
}

impl From<PresetName> for String {
    fn from(p: PresetName) -> String {
        p.0
    }
}

impl fmt::Display for PresetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PresetName {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Table sizes rated together. Two seats is a duel (every play is against the one opponent);
/// three and four are the game's usual table, the quick-match sizes and the arena's; five and
/// more is a crowd where a seat waits long between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeGroup {
    /// 2 seats.
    Duel,
    /// 3 or 4 seats.
    Table,
    /// 5 to 10 seats.
    Crowd,
}

impl SizeGroup {
    /// The group of a table of `seats`.
    ///
    /// # Errors
    /// [`PoolError::Seats`] outside 2..=10.
    pub fn of(seats: usize) -> Result<SizeGroup, PoolError> {
        match seats {
            2 => Ok(SizeGroup::Duel),
            3 | 4 => Ok(SizeGroup::Table),
            5..=10 => Ok(SizeGroup::Crowd),
            n => Err(PoolError::Seats(n)),
        }
    }

    /// The group's name in text (`duel`, `table`, `crowd`).
    pub fn as_str(self) -> &'static str {
        match self {
            SizeGroup::Duel => "duel",
            SizeGroup::Table => "table",
            SizeGroup::Crowd => "crowd",
        }
    }
}

/// The ratings a game counts for: its preset and its table-size group.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pool {
    pub preset: PresetName,
    pub size: SizeGroup,
}

impl Pool {
    /// The pool of a game of `preset` at a table of `seats`.
    ///
    /// # Errors
    /// [`PoolError::Seats`] outside 2..=10.
    pub fn of(preset: PresetName, seats: usize) -> Result<Pool, PoolError> {
        Ok(Pool { preset, size: SizeGroup::of(seats)? })
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.preset, self.size.as_str())
    }
}
