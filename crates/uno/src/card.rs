//! The vocabulary of the game: colours, faces, cards, seats and the direction of play.
//!
//! Every type has a short text form that round-trips through `Display` and `FromStr`:
//! `R7`, `BS` (blue Skip), `GR` (green Reverse), `YD2` (yellow Draw Two), `W`, `W4`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// One of the four suit colours. Wild cards have no colour of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Red, letter `R`.
    Red = 0,
    /// Yellow, letter `Y`.
    Yellow = 1,
    /// Green, letter `G`.
    Green = 2,
    /// Blue, letter `B`.
    Blue = 3,
}

impl Color {
    /// The four colours in index order.
    pub const ALL: [Color; 4] = [Color::Red, Color::Yellow, Color::Green, Color::Blue];

    /// 0 to 3 in the order red, yellow, green, blue: the index of per-colour tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour of [`Color::index`] `i`; `None` for 4 and above.
    pub const fn from_index(i: usize) -> Option<Color> {
        match i {
            0 => Some(Color::Red),
            1 => Some(Color::Yellow),
            2 => Some(Color::Green),
            3 => Some(Color::Blue),
            _ => None,
        }
    }

    /// The one-letter code used in card names (`R`, `Y`, `G`, `B`).
    pub const fn letter(self) -> char {
        match self {
            Color::Red => 'R',
            Color::Yellow => 'Y',
            Color::Green => 'G',
            Color::Blue => 'B',
        }
    }

    /// The lower-case English name (`red`), the `Display` and serde form.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Yellow => "yellow",
            Color::Green => "green",
            Color::Blue => "blue",
        }
    }

    fn from_letter(c: char) -> Option<Color> {
        match c.to_ascii_uppercase() {
            'R' => Some(Color::Red),
            'Y' => Some(Color::Yellow),
            'G' => Some(Color::Green),
            'B' => Some(Color::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        for c in Color::ALL {
            if lower == c.name() {
                return Ok(c);
            }
        }
        let mut chars = t.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            if let Some(col) = Color::from_letter(c) {
                return Ok(col);
            }
        }
        Err(ParseError::UnknownColor(s.to_string()))
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Color {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What is printed on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// A number card, 0 to 9 (a [`Card`] never holds a larger digit).
    Digit(u8),
    /// Skip: what it does is the rules' (by default the next player loses their turn).
    Skip,
    /// Reverse: by default flips the direction of play (a Skip with two players).
    Reverse,
    /// Draw Two: by default the next player draws two and loses their turn.
    DrawTwo,
    /// Wild: matches anything; its player names the colour in play.
    Wild,
    /// Wild Draw Four: a Wild whose next player draws four (and may challenge, under rules
    /// that allow it).
    WildDrawFour,
}

impl Face {
    /// Every face, digits first, in the order of `Face::index`.
    pub const ALL: [Face; 15] = [
        Face::Digit(0),
        Face::Digit(1),
        Face::Digit(2),
        Face::Digit(3),
        Face::Digit(4),
        Face::Digit(5),
        Face::Digit(6),
        Face::Digit(7),
        Face::Digit(8),
        Face::Digit(9),
        Face::Skip,
        Face::Reverse,
        Face::DrawTwo,
        Face::Wild,
        Face::WildDrawFour,
    ];

    /// 0–9 for digits, then Skip 10, Reverse 11, Draw Two 12, Wild 13, Wild Draw Four 14.
    pub const fn index(self) -> usize {
        match self {
            Face::Digit(d) => d as usize,
            Face::Skip => 10,
            Face::Reverse => 11,
            Face::DrawTwo => 12,
            Face::Wild => 13,
            Face::WildDrawFour => 14,
        }
    }

    /// Whether the face is Wild or Wild Draw Four, the colourless cards.
    pub const fn is_wild(self) -> bool {
        matches!(self, Face::Wild | Face::WildDrawFour)
    }

    /// The name used in rules files: `"0"`…`"9"`, `skip`, `reverse`, `draw_two`, `wild`,
    /// `wild_draw_four`.
    pub fn key(self) -> &'static str {
        const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
        match self {
            Face::Digit(d) => DIGITS[d as usize % 10],
            Face::Skip => "skip",
            Face::Reverse => "reverse",
            Face::DrawTwo => "draw_two",
            Face::Wild => "wild",
            Face::WildDrawFour => "wild_draw_four",
        }
    }

    /// The face named by [`Face::key`]'s text; `None` for any other text.
    pub fn from_key(key: &str) -> Option<Face> {
        Face::ALL.into_iter().find(|f| f.key() == key)
    }

    /// Human words, for narration.
    pub fn words(self) -> String {
        match self {
            Face::Digit(d) => d.to_string(),
            Face::Skip => "Skip".into(),
            Face::Reverse => "Reverse".into(),
            Face::DrawTwo => "Draw Two".into(),
            Face::Wild => "Wild".into(),
            Face::WildDrawFour => "Wild Draw Four".into(),
        }
    }

    fn code(self) -> &'static str {
        const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
        match self {
            Face::Digit(d) => DIGITS[d as usize % 10],
            Face::Skip => "S",
            Face::Reverse => "R",
            Face::DrawTwo => "D2",
            Face::Wild => "",
            Face::WildDrawFour => "4",
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A physical card, packed in one byte: `color * 13 + face` for coloured cards (faces 0–12),
/// 52 for Wild and 53 for Wild Draw Four. `Card::index()` is dense in `0..Card::KINDS`, so a
/// hand can be a table of counts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The number of distinct cards (52 coloured, Wild, Wild Draw Four).
    pub const KINDS: usize = 54;
    /// The Wild card (index 52).
    pub const WILD: Card = Card(52);
    /// The Wild Draw Four card (index 53).
    pub const WILD_DRAW_FOUR: Card = Card(53);

    /// A coloured card. Returns `None` for a wild face (wilds have no colour) or a digit > 9.
    pub const fn colored(color: Color, face: Face) -> Option<Card> {
        match face {
            Face::Wild | Face::WildDrawFour => None,
            Face::Digit(d) if d > 9 => None,
            f => Some(Card((color as u8) * 13 + f.index() as u8)),
        }
    }

    /// Builds any card; the colour is ignored for wild faces and required for others.
    pub const fn new(color: Option<Color>, face: Face) -> Option<Card> {
        match (face, color) {
            (Face::Wild, _) => Some(Card::WILD),
            (Face::WildDrawFour, _) => Some(Card::WILD_DRAW_FOUR),
            (f, Some(c)) => Card::colored(c, f),
            (_, None) => None,
        }
    }

    /// The card of [`Card::index`] `i`; `None` from [`Card::KINDS`] on.
    pub const fn from_index(i: usize) -> Option<Card> {
        if i < Card::KINDS {
            Some(Card(i as u8))
        } else {
            None
        }
    }

    /// The card's place in `0..Card::KINDS`: `color * 13 + face` for coloured cards, 52 and
    /// 53 for the wilds. Equal cards (the deck has copies) have equal indices.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card whose index is `byte`, for a byte read from a card's index (a hand's words):
    /// `byte` must be below [`Card::KINDS`], which the hand's code keeps by construction.
    #[inline]
    pub(crate) const fn from_byte(byte: u8) -> Card {
        Card(byte)
    }

    /// The printed colour, `None` for wilds.
    pub const fn color(self) -> Option<Color> {
        if self.0 >= 52 {
            None
        } else {
            Color::from_index(self.0 as usize / 13)
        }
    }

    /// What is printed on the card.
    #[inline]
    pub const fn face(self) -> Face {
        // A table: `play` asks every card its face, and a load beats a division and a match.
        const FACES: [Face; Card::KINDS] = {
            let mut t = [Face::Wild; Card::KINDS];
            let mut i = 0;
            while i < 52 {
                t[i] = match i % 13 {
                    10 => Face::Skip,
                    11 => Face::Reverse,
                    12 => Face::DrawTwo,
                    d => Face::Digit(d as u8),
                };
                i += 1;
            }
            t[53] = Face::WildDrawFour;
            t
        };
        FACES[self.0 as usize % Card::KINDS]
    }

    /// Whether the card is Wild or Wild Draw Four.
    pub const fn is_wild(self) -> bool {
        self.0 >= 52
    }

    /// The per-colour face slot (0–12) of a coloured card; 13/14 for the wilds.
    pub const fn face_index(self) -> usize {
        match self.0 {
            52 => 13,
            53 => 14,
            n => (n % 13) as usize,
        }
    }

    /// Every card, in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..Card::KINDS as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.color() {
            Some(c) => write!(f, "{}{}", c.letter(), self.face().code()),
            None => write!(f, "W{}", self.face().code()),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_uppercase();
        let mut chars = t.chars();
        let first = chars.next().ok_or_else(|| ParseError::UnknownCard(s.to_string()))?;
        let rest: String = chars.collect();
        if first == 'W' {
            return match rest.as_str() {
                "" => Ok(Card::WILD),
                "4" | "D4" => Ok(Card::WILD_DRAW_FOUR),
                _ => Err(ParseError::UnknownCard(s.to_string())),
            };
        }
        let color = Color::from_letter(first).ok_or_else(|| ParseError::UnknownColor(first.to_string()))?;
        let face = match rest.as_str() {
            "S" => Face::Skip,
            "R" => Face::Reverse,
            "D2" | "D" => Face::DrawTwo,
            d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => Face::Digit(d.as_bytes()[0] - b'0'),
            _ => return Err(ParseError::UnknownCard(s.to_string())),
        };
        Card::colored(color, face).ok_or_else(|| ParseError::UnknownCard(s.to_string()))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A place at the table, numbered from 0 in seat order. Any number 0 to 255 makes a `Seat`;
/// whether it is at a given table is that game's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

/// In TypeScript a colour is its lower-case name, as serde writes it.
#[cfg(feature = "ts")]
impl ts_rs::TS for Color {
    type WithoutGenerics = Color;
    type OptionInnerType = Color;
    fn name(_: &ts_rs::Config) -> String {
        "Color".to_string()
    }
    fn inline(_: &ts_rs::Config) -> String {
        r#""red" | "yellow" | "green" | "blue""#.to_string()
    }
    fn decl(cfg: &ts_rs::Config) -> String {
        format!("type Color = {};", Self::inline(cfg))
    }
    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        Self::decl(cfg)
    }
}

/// In TypeScript a seat is its number, as serde writes it.
#[cfg(feature = "ts")]
impl ts_rs::TS for Seat {
    type WithoutGenerics = Seat;
    type OptionInnerType = Seat;
    fn name(_: &ts_rs::Config) -> String {
        "number".to_string()
    }
    fn inline(_: &ts_rs::Config) -> String {
        "number".to_string()
    }
}

/// In TypeScript a card is its text form, a string (`"R7"`, `"W4"`), as serde writes it.
#[cfg(feature = "ts")]
impl ts_rs::TS for Card {
    type WithoutGenerics = Card;
    type OptionInnerType = Card;
    fn name(_: &ts_rs::Config) -> String {
        "string".to_string()
    }
    fn inline(_: &ts_rs::Config) -> String {
        "string".to_string()
    }
}

impl Seat {
    /// The seat number as an index into per-seat tables (hands, scores).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat at `index` of per-seat tables; `None` past the numbers a seat can have (no
    /// table has that many seats).
    pub const fn from_index(index: usize) -> Option<Seat> {
        if index <= u8::MAX as usize {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    /// The seats of a table of `players`, in seat order (as many as a seat number reaches).
    pub fn all(players: usize) -> impl Iterator<Item = Seat> {
        (0..players.min(u8::MAX as usize + 1)).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Seat {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim().parse::<u8>().map(Seat).map_err(|_| ParseError::BadSeat(s.to_string()))
    }
}

/// The direction of play. `Clockwise` means increasing seat numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Seat numbers increase, wrapping from the last seat to 0.
    Clockwise,
    /// Seat numbers decrease, wrapping from 0 to the last seat.
    CounterClockwise,
}

impl Direction {
    /// The other direction (what a Reverse does).
    pub const fn flipped(self) -> Direction {
        match self {
            Direction::Clockwise => Direction::CounterClockwise,
            Direction::CounterClockwise => Direction::Clockwise,
        }
    }

    /// The other direction when `flip`, else this one: a select, not a branch (whether a
    /// random card reverses play is a coin toss to the predictor).
    #[inline]
    pub const fn flipped_if(self, flip: bool) -> Direction {
        let other = self.flipped();
        if flip {
            other
        } else {
            self
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Clockwise => "clockwise",
            Direction::CounterClockwise => "counter_clockwise",
        })
    }
}

impl FromStr for Direction {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "clockwise" | "cw" => Ok(Direction::Clockwise),
            "counter_clockwise" | "counterclockwise" | "ccw" => Ok(Direction::CounterClockwise),
            _ => Err(ParseError::BadDirection(s.to_string())),
        }
    }
}

/// Why a text form did not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Not a colour name or letter (also a card whose first letter is no colour); holds the
    /// text.
    #[error("unknown colour '{0}' (expected red, yellow, green or blue)")]
    UnknownColor(String),
    /// Not a card's short form; holds the text.
    #[error("unknown card '{0}' (expected e.g. R7, BS, GR, YD2, W, W4)")]
    UnknownCard(String),
    /// Not a seat number 0 to 255; holds the text.
    #[error("bad seat '{0}' (expected a number from 0)")]
    BadSeat(String),
    /// Not `clockwise`, `counter_clockwise` or an accepted short form; holds the text.
    #[error("bad direction '{0}' (expected clockwise or counter_clockwise)")]
    BadDirection(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_text() {
        for c in Card::all() {
            let text = c.to_string();
            assert_eq!(text.parse::<Card>(), Ok(c), "{text}");
            assert_eq!(Card::new(c.color(), c.face()), Some(c));
        }
        assert_eq!(Card::all().count(), 54);
    }

    #[test]
    fn text_forms_are_the_documented_ones() {
        let names: Vec<String> = ["R7", "BS", "GR", "YD2", "W", "W4"]
            .iter()
            .map(|s| s.parse::<Card>().map(|c| c.to_string()).unwrap_or_default())
            .collect();
        assert_eq!(names, ["R7", "BS", "GR", "YD2", "W", "W4"]);
        assert_eq!("x7".parse::<Card>(), Err(ParseError::UnknownColor("X".into())));
        assert!("R10".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
    }

    #[test]
    fn colours_seats_directions_round_trip() {
        for c in Color::ALL {
            assert_eq!(c.to_string().parse::<Color>(), Ok(c));
        }
        assert_eq!("7".parse::<Seat>(), Ok(Seat(7)));
        for d in [Direction::Clockwise, Direction::CounterClockwise] {
            assert_eq!(d.to_string().parse::<Direction>(), Ok(d));
        }
    }

    #[test]
    fn matching_follows_colour_face_and_wilds() {
        let r7: Card = "R7".parse().unwrap_or(Card::WILD);
        let b7: Card = "B7".parse().unwrap_or(Card::WILD);
        let b3: Card = "B3".parse().unwrap_or(Card::WILD);
        assert!(b7.matches(r7, Color::Red));
        assert!(!b3.matches(r7, Color::Red));
        assert!(Card::WILD.matches(r7, Color::Red));
        // A wild goes on anything, a wild included.
        assert!(Card::WILD.matches(Card::WILD, Color::Blue));
        assert!(Card::WILD_DRAW_FOUR.matches(Card::WILD, Color::Red));
        // On a wild only the declared colour counts, not the wild face.
        assert!(b3.matches(Card::WILD, Color::Blue));
        assert!(!r7.matches(Card::WILD, Color::Blue));
    }
}
