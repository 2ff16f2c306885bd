//! The key a user types on a selected cell, read once at the edge (terminal, HTTP) into what it
//! means. Text that means nothing is kept as typed: the seed's messages quote it, and which
//! message a wrong key earns depends on the stage (a block key, a number or a direction was
//! expected), so the refusal is decided by the game, not the reader.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::pieces::{Dir, Rank};

/// What a typed key means: `b`, a number `1`–`6`, a direction `w`/`a`/`s`/`d`, or nothing.
///
/// Reading is exact: `B`, `W` and ` w` are [`Key::Other`]. It serializes as the text typed, so
/// `Key::parse(&k.to_string()) == k` for every key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
#[serde(from = "String", into = "String")]
pub enum Key {
    /// `b`: a block (setup round 1).
    Block,
    /// `1` to `6`: a piece of that number (setup rounds 2 and 3).
    Rank(Rank),
    /// `w`, `a`, `s`, `d`: a move (the play stage).
    Dir(Dir),
    /// Anything else, as typed.
    Other(String),
}

impl Key {
    /// Reads typed text; never fails (what means nothing is [`Key::Other`]).
    pub fn parse(text: &str) -> Key {
        if text == "b" {
            return Key::Block;
        }
        if let Some(dir) = Dir::from_key(text) {
            return Key::Dir(dir);
        }
        match text.as_bytes() {
            [d @ b'1'..=b'6'] => Rank::new(d - b'0').map_or_else(|| Key::Other(text.to_string()), Key::Rank),
            _ => Key::Other(text.to_string()),
        }
    }
}

impl From<&str> for Key {
    fn from(text: &str) -> Key {
        Key::parse(text)
    }
}

impl From<String> for Key {
    fn from(text: String) -> Key {
        match Key::parse(&text) {
            Key::Other(_) => Key::Other(text),
            key => key,
        }
    }
}

impl From<char> for Key {
    fn from(c: char) -> Key {
        Key::parse(c.encode_utf8(&mut [0; 4]))
    }
}

impl From<Dir> for Key {
    fn from(dir: Dir) -> Key {
        Key::Dir(dir)
    }
}

impl From<Key> for String {
    fn from(key: Key) -> String {
        match key {
            Key::Other(text) => text,
            key => key.to_string(),
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Block => f.write_str("b"),
            Key::Rank(r) => write!(f, "{}", r.get()),
            Key::Dir(d) => write!(f, "{}", d.key()),
            Key::Other(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_from_its_text() {
        let texts = ["b", "1", "6", "w", "a", "s", "d", "", "0", "7", "B", "W", " w", "bb", "12", "é", "x"];
        for text in texts {
            let key = Key::parse(text);
            assert_eq!(key.to_string(), text);
            assert_eq!(Key::parse(&key.to_string()), key);
            let json = serde_json::to_string(&key).expect("json");
            assert_eq!(json, serde_json::to_string(text).expect("json"));
            assert_eq!(serde_json::from_str::<Key>(&json).expect("read"), key);
        }
        assert_eq!(Key::parse("b"), Key::Block);
        assert_eq!(Key::parse("4"), Key::Rank(Rank::new(4).expect("rank")));
        assert_eq!(Key::parse("a"), Key::Dir(Dir::Left));
        assert_eq!(Key::parse("W"), Key::Other("W".into()));
        assert_eq!(Key::from('s'), Key::Dir(Dir::Down));
    }
}
