//! Quick phrases: a fixed set a seat may say at its table, shown beside the seat for a moment.
//! No free text, so nothing to moderate; at most one every [`PHRASE_EVERY`] a seat, and each
//! viewer may mute a person on their page.

use std::time::Duration;

use serde::Serialize;

use super::Seat;

/// One phrase: its stable code (what a client sends) and its words (what pages show).
#[derive(Clone, Copy, Debug, Serialize, ts_rs::TS)]
pub struct Phrase {
    pub code: &'static str,
    pub text: &'static str,
}

/// Every phrase a seat may say, in the order pages offer them.
pub const PHRASES: &[Phrase] = &[
    Phrase { code: "good_game", text: "Good game" },
    Phrase { code: "well_played", text: "Well played" },
    Phrase { code: "uno", text: "UNO!" },
    Phrase { code: "oops", text: "Oops" },
    Phrase { code: "thanks", text: "Thanks" },
    Phrase { code: "hello", text: "Hello" },
    Phrase { code: "smile", text: "🙂" },
    Phrase { code: "laugh", text: "😂" },
    Phrase { code: "wow", text: "😮" },
    Phrase { code: "thumbs_up", text: "👍" },
];

/// The least time between two phrases of one seat.
pub const PHRASE_EVERY: Duration = Duration::from_secs(2);

/// The phrase of `code`, if it is one.
pub fn find(code: &str) -> Option<&'static Phrase> {
    PHRASES.iter().find(|p| p.code == code)
}

/// What every viewer's socket is sent when a seat says a phrase.
#[derive(Debug, Serialize, ts_rs::TS)]
#[ts(rename = "PhraseSaid")]
pub struct Said {
    #[serde(rename = "type")]
    #[ts(type = r#""phrase""#)]
    pub kind: &'static str,
    pub seat: Seat,
    pub phrase: &'static str,
    pub text: &'static str,
}
