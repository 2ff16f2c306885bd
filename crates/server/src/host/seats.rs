//! A table's seats: who holds each (a person by a token, kept only as its hash, or a bot), the
//! table's settings as stored beside them, the names people sit under, and who a request is
//! at a table ([`Viewer`]).

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Seat, TableError};
use crate::limits;
use crate::messages::{Occupant, SeatKind, SeatRating};

/// Who is asking at a table: a seat (by its token) or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

/// The seats `0..n`, in order. (Seat counts are a game's, far below 256.)
pub fn all(n: usize) -> impl Iterator<Item = Seat> + Clone {
    (0..=u8::MAX).map(Seat).take(n)
}

/// A seat as stored (the token only as its SHA-256).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatMeta {
    pub kind: SeatKind,
    pub name: Option<String>,
    pub(crate) token_hash: Option<String>,
    /// A bot's canonical name.
    pub bot: Option<String>,
    pub(crate) bot_seed: u64,
    /// This bot's own pause before it acts, if it has one.
    pub delay_ms: Option<u32>,
    /// A person's seat whose holder let their turn time run out [`AWAY_AFTER`] times in a row:
    /// the game's stand-in bot ([`super::Hosted::STAND_IN`]) plays it until they act again.
    #[serde(default, skip_serializing_if = "is_false")]
    pub away: bool,
    /// The turns in a row the server played for this seat's person because their time ran out
    /// (0 again once they act themselves).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub timeouts: u8,
    /// A bot's seat that a person gave up during play (resigned): that person's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
    /// The account of the signed-in person holding (or who held) the seat; `None` for a
    /// guest's seat and a bot's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// At a rated table, that person's rating in its pool as of the current game's seating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<SeatRating>,
}

/// The turns in a row a person's time runs out before a bot plays their seat for them.
pub const AWAY_AFTER: u8 = 2;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl SeatMeta {
    /// A person's seat nobody holds yet.
    pub fn open(name: Option<String>) -> SeatMeta {
        SeatMeta {
            kind: SeatKind::Human,
            name,
            token_hash: None,
            bot: None,
            bot_seed: 0,
            delay_ms: None,
            away: false,
            timeouts: 0,
            replaced: None,
            account: None,
            rating: None,
        }
    }

    /// A bot's seat.
    pub fn bot(bot: String, bot_seed: u64, delay_ms: Option<u32>) -> SeatMeta {
        SeatMeta {
            kind: SeatKind::Bot,
            name: Some(bot.clone()),
            token_hash: None,
            bot: Some(bot),
            bot_seed,
            delay_ms,
            away: false,
            timeouts: 0,
            replaced: None,
            account: None,
            rating: None,
        }
    }

    /// Whether someone holds the seat: a bot always, a person's while its token is held.
    pub fn taken(&self) -> bool {
        self.kind == SeatKind::Bot || self.token_hash.is_some()
    }

    /// Whether a bot plays the seat now: a bot's seat, or a person's whose holder is away.
    pub fn played_by_bot(&self) -> bool {
        self.kind == SeatKind::Bot || self.away
    }

    /// The seat as every viewer sees it.
    pub fn occupant(&self, seat: Seat) -> Occupant {
        Occupant {
            seat,
            kind: self.kind,
            name: self.name.clone(),
            taken: self.taken(),
            bot: self.bot.clone(),
            away: self.away,
            timeouts: self.timeouts,
            replaced: self.replaced.clone(),
            account: self.account.clone(),
            rating: self.rating,
        }
    }
}

fn dealt() -> bool {
    true
}

/// Everything about a table besides its game, as stored (its `meta`): the host's part, and the
/// game's own settings beside it (`S`, flattened in).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Meta<S> {
    pub seats: Vec<SeatMeta>,
    pub spectators: bool,
    pub turn_seconds: Option<u32>,
    pub bot_delay_ms: Option<u32>,
    /// The version the current game started at (rematches keep versions rising).
    pub version_base: u64,
    pub generation: u32,
    /// The client that created the table (its limit, its bots' lane).
    pub creator: String,
    /// The creator's seat: its holder may close the table.
    #[serde(default)]
    pub owner_seat: Option<Seat>,
    /// Whether the current game is dealt (false while the table waits for its seats; tables
    /// stored before that stage existed were dealt when they were made).
    #[serde(default = "dealt")]
    pub dealt: bool,
    /// The generation (see `generation`) of a rated table's game that was rated before its end,
    /// when a seat left it: it is not rated again, whoever sits down after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated_early: Option<u32>,
    #[serde(flatten)]
    pub game: S,
}

impl<S> Meta<S> {
    /// Whether every person's seat is held.
    pub fn seated(&self) -> bool {
        self.seats.iter().all(SeatMeta::taken)
    }

    /// The seat a token holds, if any.
    pub(crate) fn seat_of(&self, token: &str) -> Option<Seat> {
        let h = hash_token(token);
        all(self.seats.len())
            .zip(&self.seats)
            .find(|(_, s)| s.token_hash.as_deref() == Some(h.as_str()))
            .map(|(i, _)| i)
    }

    /// Who a token (or its absence) is at this table.
    pub(crate) fn viewer(&self, token: Option<&str>) -> Result<Viewer, TableError> {
        match token {
            Some(t) => self.seat_of(t).map(Viewer::Seat).ok_or(TableError::BadToken),
            None if self.spectators => Ok(Viewer::Spectator),
            None => Err(TableError::SpectatorsNotAllowed),
        }
    }

    /// The seat a token holds, for what only a seat may do.
    pub(crate) fn seat(&self, token: Option<&str>) -> Result<Seat, TableError> {
        self.seat_of(token.ok_or(TableError::MissingToken)?).ok_or(TableError::BadToken)
    }
}

pub(crate) fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
}

pub(crate) fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A new seat token: 128 random bits, and the hash the table keeps of it.
pub(crate) fn new_token() -> (String, String) {
    let token = random_hex(16);
    let hash = hash_token(&token);
    (token, hash)
}

/// Characters that take no space: a name of these alone looks empty.
pub(crate) const INVISIBLE: &[char] = &[
    '\u{00AD}', '\u{034F}', '\u{061C}', '\u{115F}', '\u{1160}', '\u{17B4}', '\u{17B5}', '\u{180E}', '\u{200B}',
    '\u{200C}', '\u{200D}', '\u{200E}', '\u{200F}', '\u{2060}', '\u{2061}', '\u{2062}', '\u{2063}', '\u{2064}',
    '\u{2800}', '\u{3164}', '\u{FEFF}', '\u{FFA0}',
];

/// Whether `c` shows nothing of its own: [`INVISIBLE`], the variation selectors (U+FE00–U+FE0F,
/// U+E0100–U+E01EF: they only pick a glyph of the letter before), Mongolian's free ones, the
/// musical symbols' format controls (U+1D173–U+1D17A) and the shorthand format controls
/// (U+1BCA0–U+1BCA3).
pub(crate) fn invisible(c: char) -> bool {
    INVISIBLE.contains(&c)
        || matches!(c,
            '\u{FE00}'..='\u{FE0F}'
            | '\u{E0100}'..='\u{E01EF}'
            | '\u{180B}'..='\u{180F}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{1BCA0}'..='\u{1BCA3}')
}

/// Characters no name may hold: bidirectional embeddings, overrides and isolates (they turn the
/// text after them around: "Ann\u{202E}nimda" shows as "Annadmin"), and the tag characters
/// (U+E0000–U+E007F, invisible letters).
fn forbidden_in_name(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{E0000}'..='\u{E007F}')
}

/// A name as a person typed it, checked: trimmed, visible, within `max`, with no control,
/// direction or tag characters.
pub fn check_name(name: &str, field: &'static str, max: usize) -> Result<String, TableError> {
    let name = name.trim();
    // Invisible characters alone (zero-width spaces, joiners, marks) show as an empty name.
    let visible = |c: char| !c.is_whitespace() && !c.is_control() && !invisible(c);
    if !name.chars().any(visible) {
        return Err(TableError::Invalid(format!("{field} must have a visible character")));
    }
    if name.chars().count() > max {
        return Err(TableError::TooLong { field, max });
    }
    if name.chars().any(char::is_control) {
        return Err(TableError::Invalid(format!("{field} must not contain control characters")));
    }
    if name.chars().any(forbidden_in_name) {
        return Err(TableError::Invalid(format!("{field} must not contain direction overrides or tag characters")));
    }
    Ok(name.to_string())
}

/// Whether two names read as one: what they show is compared, not their code points. Characters
/// that show nothing are dropped (`Bob` with a zero-width space, a blank Braille cell or a
/// variation selector is `Bob`), the rest is folded by NFKC (fullwidth `Ｂｏｂ`, superscripts),
/// case and Unicode's confusables skeleton (UTS #39: Cyrillic `Воb`, `B0b` beside `Bob`).
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    shown(a) == shown(b)
}

/// A name folded as names are compared (what it shows: [`same_name`]): the key an account holds
/// its name under, so that no one else sits under it or under a look-alike.
pub fn name_key(name: &str) -> String {
    shown(name)
}

/// A name as [`same_name`] compares it.
fn shown(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let skeleton = |s: &str| -> String { unicode_security::skeleton(s).filter(|&c| !invisible(c)).collect() };
    let folded: String = name.chars().filter(|&c| !invisible(c)).nfkc().collect();
    // Skeleton, case, skeleton again: Cyrillic `В` is Latin `B` before case folds it (its
    // lowercase `в` is no `b`), and a lowercase letter may have a look-alike of its own.
    let once = skeleton(&folded).nfkc().collect::<String>().to_lowercase();
    skeleton(&once).nfkc().collect::<String>().to_lowercase()
}

/// People are told apart by name: a person's is no other seat's (bots of a kind share theirs).
pub(crate) fn check_names_apart(seats: &[SeatMeta]) -> Result<(), TableError> {
    for (i, s) in seats.iter().enumerate().filter(|(_, s)| s.kind == SeatKind::Human) {
        let Some(name) = &s.name else { continue };
        if seats.iter().enumerate().any(|(j, o)| j != i && o.name.as_deref().is_some_and(|m| same_name(m, name))) {
            return Err(TableError::NameTaken);
        }
    }
    Ok(())
}

/// A bot's pause within the cap.
pub(crate) fn check_delay(d: Option<u32>) -> Result<(), TableError> {
    match d {
        Some(ms) if ms > limits::MAX_BOT_DELAY_MS => {
            Err(TableError::Invalid(format!("a bot delay is at most {} ms", limits::MAX_BOT_DELAY_MS)))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_and_stored_hashed() {
        let (t, h) = new_token();
        assert_eq!(t.len(), 32);
        assert_ne!(t, random_hex(16));
        assert_eq!(h.len(), 64);
        assert_eq!(h, hash_token(&t));
        assert_ne!(h, t);
    }

    /// Names that show alike are one: each of these beside `Ann` (issue 42's list: variation
    /// selectors, musical and shorthand format controls, fullwidth, Cyrillic, superscript).
    #[test]
    fn names_that_show_alike_are_one_name() {
        for alike in [
            "Ann\u{FE0F}",
            "Ann\u{E0100}",
            "Ann\u{1D173}",
            "Ann\u{1BCA0}",
            "A\u{200B}nn",
            "ann",
            "ＡＮＮ",
            "Ａｎｎ",
            "\u{0410}nn",
            "Aⁿⁿ",
        ] {
            assert!(same_name("Ann", alike), "{alike:?} shows as Ann");
        }
        for apart in ["Anne", "Ana", "Bob", "An", "Änn"] {
            assert!(!same_name("Ann", apart), "{apart:?} is another name");
        }
        assert!(same_name("B0b", "Bob"), "the skeleton folds digits that look like letters");
        assert!(same_name("\u{0412}\u{043E}b", "Bob"), "Cyrillic Ve and o are Latin B and o");
        for blank in ["\u{FE0F}", "\u{E0100}\u{1D173}", "\u{1BCA0}"] {
            assert!(check_name(blank, "name", 32).is_err(), "{blank:?} shows nothing");
        }
    }

    #[test]
    fn the_seats_are_numbered_in_order() {
        assert_eq!(all(3).collect::<Vec<_>>(), [Seat(0), Seat(1), Seat(2)]);
        assert_eq!(all(0).count(), 0);
    }
}
