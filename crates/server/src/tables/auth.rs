//! Who is asking: seat tokens (made, hashed, read from a request) and the viewer a token is at
//! a table.

use rand::RngCore;
use sha2::{Digest, Sha256};

use super::{TableError, TableState, Tables};

/// Who is asking: a seat (by token) or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Viewer {
    Seat(usize),
    Spectator,
}

pub(super) fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
}

pub(super) fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

impl TableState {
    /// The seat a token holds, if any.
    pub(super) fn seat_of(&self, token: &str) -> Option<usize> {
        let h = hash_token(token);
        self.meta.seats.iter().position(|s| s.token_hash.as_deref() == Some(h.as_str()))
    }
}

impl Tables {
    /// Who a token (or its absence) is at this table.
    pub(crate) fn resolve(&self, st: &TableState, token: Option<&str>) -> Result<Viewer, TableError> {
        match token {
            Some(t) => st.seat_of(t).map(Viewer::Seat).ok_or(TableError::BadToken),
            None if st.meta.spectators => Ok(Viewer::Spectator),
            None => Err(TableError::SpectatorsNotAllowed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_and_stored_hashed() {
        let t = random_hex(16);
        assert_eq!(t.len(), 32);
        assert_ne!(t, random_hex(16));
        assert_eq!(hash_token(&t).len(), 64);
        assert_ne!(hash_token(&t), t);
    }
}
