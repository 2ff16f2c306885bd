//! Reading the three files: each file's bytes into tokens (line breaks inside the deck and the
//! discard pile ignored, one hand a line), each token into an entry, each entry checked for
//! where it may stand, and every refusal a [`NotationError`] naming the file, line and card.

use super::*;

/// A card of a row, before it is known where it may appear.
fn parse_entry(token: &[u8]) -> Result<Entry, Problem> {
    if token.is_empty() {
        return Err(Problem::EmptyCard);
    }
    let (c, s) = match token {
        [c, b',', s] => (*c, *s),
        _ => return Err(Problem::Malformed),
    };
    let color = match c {
        b'r' => Some(Color::Red),
        b'y' => Some(Color::Yellow),
        b'g' => Some(Color::Green),
        b'b' => Some(Color::Blue),
        b'w' | b'-' => None,
        other => return Err(Problem::UnknownColour(byte_char(other))),
    };
    let face = match s {
        b'0'..=b'9' => Some(Face::Digit(s - b'0')),
        b's' => Some(Face::Skip),
        b'r' => Some(Face::Reverse),
        b'd' => Some(Face::DrawTwo),
        b'-' => None,
        other => return Err(Problem::UnknownSymbol(byte_char(other))),
    };
    match (c, color, face) {
        (b'-', _, None) => Ok(Entry::End),
        (b'-', _, Some(_)) => Err(Problem::BadEnd),
        (_, Some(col), None) => Ok(Entry::Marker(col)),
        (_, Some(col), Some(f)) => Card::new(Some(col), f).map(Entry::Card).ok_or(Problem::Malformed),
        (_, None, None) => Ok(Entry::Card(Card::WILD)),
        (_, None, Some(Face::DrawTwo)) => Ok(Entry::Card(Card::WILD_DRAW_FOUR)),
        (_, None, Some(_)) => Err(Problem::BadWild),
    }
}

/// A byte as a char for messages; bytes outside ASCII are not characters of the format.
fn byte_char(b: u8) -> char {
    if b.is_ascii() {
        b as char
    } else {
        char::REPLACEMENT_CHARACTER
    }
}

/// A card's text for a message: bounded, so a huge token gives a short message.
fn quoted(bytes: &[u8]) -> String {
    if bytes.len() <= MAX_QUOTED {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        format!("{}… ({} bytes)", String::from_utf8_lossy(&bytes[..MAX_QUOTED]), bytes.len())
    }
}

/// Spaces and tabs around a card are layout, not part of it (editors leave them at line ends).
fn trim_blanks(mut bytes: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = bytes {
        bytes = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = bytes {
        bytes = rest;
    }
    bytes
}

/// The file's content without a UTF-8 byte order mark (some editors write one), or why it is
/// refused before reading.
fn content<'a>(kind: FileKind, file: &str, bytes: &'a [u8]) -> Result<&'a [u8], NotationError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(NotationError { kind, file: file.to_string(), line: None, card: None, problem: Problem::TooLarge });
    }
    Ok(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
}

struct Token {
    line: usize,
    index: usize,
    bytes: Vec<u8>,
}

impl Token {
    fn error(&self, kind: FileKind, file: &str, problem: Problem) -> NotationError {
        NotationError {
            kind,
            file: file.to_string(),
            line: Some(self.line),
            card: Some((self.index, quoted(&self.bytes))),
            problem,
        }
    }
}

/// Splits a deck or discard file into cards, ignoring every line break; each card remembers the
/// line it starts on.
fn tokens_ignoring_breaks(bytes: &[u8]) -> Vec<Token> {
    let mut out = Vec::new();
    if bytes.iter().all(|b| matches!(b, b'\n' | b'\r' | b' ' | b'\t')) {
        return out;
    }
    let mut line = 1;
    let mut cur = Token { line: 1, index: 1, bytes: Vec::new() };
    let mut started = false;
    for &b in bytes {
        match b {
            b'\n' => line += 1,
            b'\r' => {}
            b';' => {
                if !started {
                    cur.line = line;
                }
                let index = cur.index + 1;
                out.push(std::mem::replace(&mut cur, Token { line, index, bytes: Vec::new() }));
                started = false;
            }
            other => {
                if !started {
                    cur.line = line;
                    started = true;
                }
                cur.bytes.push(other);
            }
        }
    }
    if !started {
        cur.line = line;
    }
    out.push(cur);
    for t in &mut out {
        let trimmed = trim_blanks(&t.bytes);
        if trimmed.len() != t.bytes.len() {
            t.bytes = trimmed.to_vec();
        }
    }
    out
}

/// Splits one line of a hands file into cards.
fn tokens_of_line(line_no: usize, line: &[u8]) -> Vec<Token> {
    if line.is_empty() {
        return Vec::new();
    }
    line.split(|b| *b == b';')
        .enumerate()
        .map(|(i, t)| Token { line: line_no, index: i + 1, bytes: trim_blanks(t).to_vec() })
        .collect()
}

fn card_only(kind: FileKind, file: &str, t: &Token) -> Result<Card, NotationError> {
    match parse_entry(&t.bytes) {
        Ok(Entry::Card(c)) => Ok(c),
        Ok(Entry::Marker(_)) => Err(t.error(kind, file, Problem::MarkerOutsideDiscard)),
        Ok(Entry::End) => Err(t.error(kind, file, Problem::EndMarkerMisplaced)),
        Err(p) => Err(t.error(kind, file, p)),
    }
}

/// Parses a deck file (`file` names it in errors).
///
/// # Errors
///
/// A [`NotationError`] for a file over [`MAX_FILE_BYTES`], a card that does not parse, or
/// a marker in the deck.
pub fn parse_deck(file: &str, bytes: &[u8]) -> Result<Vec<Card>, NotationError> {
    let bytes = content(FileKind::Deck, file, bytes)?;
    tokens_ignoring_breaks(bytes).iter().map(|t| card_only(FileKind::Deck, file, t)).collect()
}

/// Parses a discard file: at least one entry, `-,-` only on top.
///
/// # Errors
///
/// A [`NotationError`] for a file over [`MAX_FILE_BYTES`], an empty pile, an entry that
/// does not parse, or `-,-` below the top.
pub fn parse_discard(file: &str, bytes: &[u8]) -> Result<Vec<Entry>, NotationError> {
    let kind = FileKind::Discard;
    let tokens = tokens_ignoring_breaks(content(kind, file, bytes)?);
    if tokens.is_empty() {
        return Err(NotationError {
            kind,
            file: file.to_string(),
            line: None,
            card: None,
            problem: Problem::EmptyDiscard,
        });
    }
    let mut out = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let e = parse_entry(&t.bytes).map_err(|p| t.error(kind, file, p))?;
        if e == Entry::End && i > 0 {
            return Err(t.error(kind, file, Problem::EndMarkerMisplaced));
        }
        out.push(e);
    }
    Ok(out)
}

/// Parses a hands file: one hand per line (an empty line is a player without cards); empty
/// lines at the end are not players, so a hands file cannot show an empty last hand.
///
/// # Errors
///
/// A [`NotationError`] for a file over [`MAX_FILE_BYTES`], no hand or only empty ones, a
/// card that does not parse, or a marker in a hand.
pub fn parse_hands(file: &str, bytes: &[u8]) -> Result<Vec<Vec<Card>>, NotationError> {
    let kind = FileKind::Hands;
    let bytes = content(kind, file, bytes)?;
    if bytes.is_empty() {
        return Err(NotationError { kind, file: file.to_string(), line: None, card: None, problem: Problem::NoHands });
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let mut lines: Vec<&[u8]> =
        body.split(|b| *b == b'\n').map(|raw| trim_blanks(raw.strip_suffix(b"\r").unwrap_or(raw))).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return Err(NotationError {
            kind,
            file: file.to_string(),
            line: None,
            card: None,
            problem: Problem::AllHandsEmpty,
        });
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| tokens_of_line(i + 1, line).iter().map(|t| card_only(kind, file, t)).collect())
        .collect()
}
