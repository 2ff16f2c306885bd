//! The `.uno` notation (seed 000): deck, discard and hands files, read into a [`Layout`].
//!
//! A position is three text files, as the CSCE322 course's reader parses them:
//!
//! * the deck: cards separated by `;`, the left-most card is drawn first;
//! * the discard pile: entries separated by `;`, the left-most entry is the most recent one;
//! * the hands: one hand per line, cards separated by `;`; an empty line is an empty hand.
//!
//! A card is `colour,symbol`: colours `r g b y` and `w` (wild), symbols `0`–`9`, `s` (Skip),
//! `r` (Reverse), `d` (Draw Two; `w,d` is Wild Draw Four) and `-` (`w,-` is a Wild). The discard
//! pile also holds two entries that are not cards: `c,-` records the colour declared after a wild
//! (a repeated marker records a served penalty) and `-,-` records a hand emptied by a wild.
//!
//! Line breaks inside the deck and discard files are ignored (the seed's figure wraps in the middle
//! of a card); CRLF line endings and a missing final newline are accepted. Writing produces the
//! course's own layout: one line per file (one line per hand), each ending in `\n`.

use std::fmt;

use thiserror::Error;

use crate::card::{Card, Color, Face};

/// One entry of the discard pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// A played card (`w,-` here is a Wild that was played, not a marker).
    Card(Card),
    /// `c,-`: the colour declared after a wild, or the copy put down after a served penalty.
    Marker(Color),
    /// `-,-`: a hand was emptied by a wild.
    End,
}

impl Entry {
    /// The two characters of the notation, e.g. `*b"b7"`, `*b"b-"`, `*b"--"`.
    ///
    /// The course's reference compares these characters directly when it matches colour and
    /// symbol, markers included, so the rules in `csce322` work on this form.
    pub fn code(self) -> [u8; 2] {
        match self {
            Entry::Card(c) => card_code(c),
            Entry::Marker(c) => [color_code(c), b'-'],
            Entry::End => *b"--",
        }
    }

    /// The card, `None` for a marker or the end marker.
    pub fn card(self) -> Option<Card> {
        match self {
            Entry::Card(c) => Some(c),
            _ => None,
        }
    }

    /// Whether the entry is a colour marker `c,-`.
    pub fn is_marker(self) -> bool {
        matches!(self, Entry::Marker(_))
    }
}

impl From<Card> for Entry {
    fn from(c: Card) -> Self {
        Entry::Card(c)
    }
}

impl fmt::Display for Entry {
    /// The file form, `c,s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [c, s] = self.code();
        write!(f, "{},{}", c as char, s as char)
    }
}

/// The notation's letter for a colour.
pub const fn color_code(c: Color) -> u8 {
    match c {
        Color::Red => b'r',
        Color::Yellow => b'y',
        Color::Green => b'g',
        Color::Blue => b'b',
    }
}

/// The notation's two characters for a card: colour (`w` for wilds) and symbol.
pub fn card_code(card: Card) -> [u8; 2] {
    let colour = card.color().map_or(b'w', color_code);
    let symbol = match card.face() {
        Face::Digit(d) => b'0' + (d % 10),
        Face::Skip => b's',
        Face::Reverse => b'r',
        Face::DrawTwo | Face::WildDrawFour => b'd',
        Face::Wild => b'-',
    };
    [colour, symbol]
}

/// A card in the file form `c,s`.
pub fn card_text(card: Card) -> String {
    Entry::Card(card).to_string()
}

/// The largest `.uno` file read: a whole 108-card deck takes about 430 bytes, so this leaves
/// room for any real position while bounding the memory a mistaken file can take.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// The most bytes of a bad card quoted in a message.
const MAX_QUOTED: usize = 24;

/// Which of the three files a problem was found in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// The deck file.
    Deck,
    /// The discard pile file.
    Discard,
    /// The hands file.
    Hands,
}

impl FileKind {
    /// The name used when the caller gives none.
    pub const fn default_name(self) -> &'static str {
        match self {
            FileKind::Deck => "deck.uno",
            FileKind::Discard => "discard.uno",
            FileKind::Hands => "hands.uno",
        }
    }
}

/// What is wrong, without the location.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Problem {
    /// Nothing between two separators.
    #[error("empty card (two `;` in a row, or a `;` at an end)")]
    EmptyCard,
    /// Not two characters around one comma.
    #[error("expected colour,symbol such as r,7")]
    Malformed,
    /// A colour character outside `r g b y w -`; holds it.
    #[error("unknown colour {0:?} (expected r, g, b, y or w)")]
    UnknownColour(char),
    /// A symbol character outside `0-9 s r d -`; holds it.
    #[error("unknown symbol {0:?} (expected 0-9, s, r, d or -)")]
    UnknownSymbol(char),
    /// A `w` card other than `w,-` and `w,d`.
    #[error("a wild card is w,- (Wild) or w,d (Wild Draw Four)")]
    BadWild,
    /// A colour marker in the deck or a hand.
    #[error("a colour marker appears only in the discard pile")]
    MarkerOutsideDiscard,
    /// `-,-` anywhere but on top of the discard pile.
    #[error("the end marker -,- appears only on top of the discard pile")]
    EndMarkerMisplaced,
    /// A `-` colour with a symbol other than `-`.
    #[error("-,- is the only entry with colour '-'")]
    BadEnd,
    /// An empty hands file.
    #[error("the hands file holds no hand")]
    NoHands,
    /// A hands file of empty lines only.
    #[error("every line of the hands file is empty: write each player's cards on a line of their own")]
    AllHandsEmpty,
    /// A file over [`MAX_FILE_BYTES`].
    #[error("the file is larger than {max} bytes, the most a .uno file may hold", max = MAX_FILE_BYTES)]
    TooLarge,
    /// A discard file with no entry.
    #[error("the discard pile is empty: the first player has nothing to match")]
    EmptyDiscard,
}

/// A file that does not hold a valid part of a position: which file, where, and why.
///
/// Displays as `hands.uno:2: card 4 "x,7": unknown colour 'x'`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct NotationError {
    /// Which of the three files.
    pub kind: FileKind,
    /// The file's name as the user gave it.
    pub file: String,
    /// 1-based line, when the problem has one.
    pub line: Option<usize>,
    /// 1-based card number (within the line for hands, within the file otherwise) and its text.
    pub card: Option<(usize, String)>,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        f.write_str(": ")?;
        if let Some((n, text)) = &self.card {
            write!(f, "card {n} {text:?}: ")?;
        }
        write!(f, "{}", self.problem)
    }
}

/// A file's name and content, as handed to [`Layout::parse_files`].
#[derive(Clone, Copy, Debug)]
pub struct UnoFile<'a> {
    /// The name messages give the file (as the user named it).
    pub name: &'a str,
    /// The file's content.
    pub bytes: &'a [u8],
}

/// Where every card of a `.uno` position lies: deck, discard pile and hands, validated.
///
/// Invariants: the discard pile is not empty; `-,-` appears only on its top; there is at least
/// one hand; decks and hands hold only cards (markers are discard-only by construction).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub(crate) deck: Vec<Card>,
    pub(crate) discard: Vec<Entry>,
    pub(crate) hands: Vec<Vec<Card>>,
}

/// Why [`Layout::new`] refused parts that each parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LayoutError {
    /// No entry in the discard pile.
    #[error("the discard pile is empty")]
    EmptyDiscard,
    /// `-,-` below the top; holds its place, 1 being the top.
    #[error("the end marker -,- is at position {0} of the discard pile, not on top")]
    EndMarkerMisplaced(usize),
    /// No hand.
    #[error("there is no hand")]
    NoHands,
}

impl Layout {
    /// Builds a position from its parts, refusing the impossible ones. `deck` lists the card
    /// drawn next first, `discard` the most recent entry first, `hands` Player 1 first.
    ///
    /// # Errors
    ///
    /// The [`LayoutError`] naming the broken invariant.
    pub fn new(deck: Vec<Card>, discard: Vec<Entry>, hands: Vec<Vec<Card>>) -> Result<Layout, LayoutError> {
        if discard.is_empty() {
            return Err(LayoutError::EmptyDiscard);
        }
        if let Some(i) = discard.iter().skip(1).position(|e| *e == Entry::End) {
            return Err(LayoutError::EndMarkerMisplaced(i + 2));
        }
        if hands.is_empty() {
            return Err(LayoutError::NoHands);
        }
        Ok(Layout { deck, discard, hands })
    }

    /// Parses the three files with their default names (`deck.uno`, …) in messages.
    ///
    /// # Errors
    ///
    /// As [`Layout::parse_files`].
    pub fn parse(deck: &[u8], discard: &[u8], hands: &[u8]) -> Result<Layout, NotationError> {
        Layout::parse_files(
            UnoFile { name: FileKind::Deck.default_name(), bytes: deck },
            UnoFile { name: FileKind::Discard.default_name(), bytes: discard },
            UnoFile { name: FileKind::Hands.default_name(), bytes: hands },
        )
    }

    /// Parses the three files; errors name the file as given.
    ///
    /// # Errors
    ///
    /// The first [`NotationError`] met, deck file first: which file, the line and card where
    /// known, and the [`Problem`].
    pub fn parse_files(deck: UnoFile<'_>, discard: UnoFile<'_>, hands: UnoFile<'_>) -> Result<Layout, NotationError> {
        let deck = parse_deck(deck.name, deck.bytes)?;
        let discard = parse_discard(discard.name, discard.bytes)?;
        let hands = parse_hands(hands.name, hands.bytes)?;
        Ok(Layout { deck, discard, hands })
    }

    /// The deck, the card drawn next first.
    pub fn deck(&self) -> &[Card] {
        &self.deck
    }

    /// The discard pile, the most recent entry first.
    pub fn discard(&self) -> &[Entry] {
        &self.discard
    }

    /// The hands in file order (Player 1 first).
    pub fn hands(&self) -> &[Vec<Card>] {
        &self.hands
    }

    /// The top of the discard pile (never absent in a valid position).
    pub fn top(&self) -> Option<Entry> {
        self.discard.first().copied()
    }

    /// The deck file, byte-exact in the course's layout.
    pub fn write_deck(&self) -> String {
        let mut s = join(self.deck.iter().map(|c| Entry::Card(*c)));
        s.push('\n');
        s
    }

    /// The discard file, byte-exact in the course's layout.
    pub fn write_discard(&self) -> String {
        let mut s = join(self.discard.iter().copied());
        s.push('\n');
        s
    }

    /// The hands file: one line per hand, an empty hand as an empty line.
    pub fn write_hands(&self) -> String {
        let mut s = String::new();
        for hand in &self.hands {
            s.push_str(&join(hand.iter().map(|c| Entry::Card(*c))));
            s.push('\n');
        }
        s
    }
}

fn join(entries: impl Iterator<Item = Entry>) -> String {
    let mut s = String::new();
    for (i, e) in entries.enumerate() {
        if i > 0 {
            s.push(';');
        }
        s.push_str(&e.to_string());
    }
    s
}

/// The course driver's print form of a row: `[b7][b-][--]`, nothing for an empty row.
pub fn bracketed(entries: impl IntoIterator<Item = Entry>) -> String {
    let mut s = String::new();
    for e in entries {
        let [c, sym] = e.code();
        s.push('[');
        s.push(c as char);
        s.push(sym as char);
        s.push(']');
    }
    s
}

mod read;
pub use read::{parse_deck, parse_discard, parse_hands};

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(deck: &str, discard: &str, hands: &str) -> String {
        match Layout::parse(deck.as_bytes(), discard.as_bytes(), hands.as_bytes()) {
            Ok(_) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn error_messages_name_file_line_and_card() {
        assert_eq!(
            msg("r,1\n", "b,3\n", "r,1\ng,2;b,3;y,4;x,7\n"),
            "hands.uno:2: card 4 \"x,7\": unknown colour 'x' (expected r, g, b, y or w)"
        );
        assert_eq!(
            msg("r,1;g,\n2;b,q", "b,3", "r,1"),
            "deck.uno:2: card 3 \"b,q\": unknown symbol 'q' (expected 0-9, s, r, d or -)"
        );
        assert_eq!(
            msg("r,1", "b,3;-,-", "r,1"),
            "discard.uno:1: card 2 \"-,-\": the end marker -,- appears only on top of the \
             discard pile"
        );
        assert_eq!(msg("", "", "r,1"), "discard.uno: the discard pile is empty: the first player has nothing to match");
        assert_eq!(msg("", "b,1", ""), "hands.uno: the hands file holds no hand");
        assert!(msg("r,-", "b,1", "r,1").contains("card 1 \"r,-\": a colour marker"));
        assert!(msg("w,7", "b,1", "r,1").contains("a wild card is"));
        assert!(msg("r,1;;g,2", "b,1", "r,1").contains("card 2 \"\": empty card"));
        assert!(msg("r,12", "b,1", "r,1").contains("expected colour,symbol"));
    }

    #[test]
    fn breaks_crlf_and_missing_newline_are_accepted() {
        let a = Layout::parse(b"r,6;r,r;g\r\n,5", b"g,3;g,-\r\n", b"r,9;w,-\r\n\r\ny,1");
        let b = Layout::parse(b"r,6;r,r;g,5\n", b"g,3;g,-\n", b"r,9;w,-\n\ny,1\n");
        assert!(a.is_ok());
        assert_eq!(a, b);
        let p = b.ok().unwrap_or_else(|| unreachable!());
        assert_eq!(p.hands().len(), 3);
        assert!(p.hands()[1].is_empty());
        assert_eq!(p.write_deck(), "r,6;r,r;g,5\n");
        assert_eq!(p.write_discard(), "g,3;g,-\n");
        assert_eq!(p.write_hands(), "r,9;w,-\n\ny,1\n");
        assert_eq!(bracketed(p.discard().iter().copied()), "[g3][g-]");
    }
}
