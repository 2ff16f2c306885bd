//! Who is asking: seat tokens (made, hashed, read from a request) and the viewer a token is at
//! a table.

use axum::http::{header, HeaderMap};
use rand::RngCore;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::TableState;
use crate::{ApiError, AppState};

#[derive(Debug, Default, Deserialize)]
pub struct TokenQuery {
    pub token: Option<String>,
}

/// The seat token: `Authorization: Bearer <token>`. A `?token=` in the URL is refused (even
/// beside a header), so that a client which puts it there learns at once rather than leaving
/// the token in access logs and proxies on every request.
pub fn token(headers: &HeaderMap, query: &TokenQuery) -> Result<Option<String>, ApiError> {
    if query.token.is_some() {
        return Err(ApiError::TokenInUrl);
    }
    match headers.get(header::AUTHORIZATION) {
        Some(v) => {
            let text = v.to_str().map_err(|_| ApiError::BadToken)?;
            // The scheme's name is case-insensitive (RFC 9110 §11.1): `bearer` is `Bearer`.
            let (scheme, t) = text.trim_start().split_once(' ').ok_or(ApiError::BadToken)?;
            if !scheme.eq_ignore_ascii_case("bearer") {
                return Err(ApiError::BadToken);
            }
            Ok(Some(t.trim().to_string()))
        }
        None => Ok(None),
    }
}

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

impl AppState {
    /// Who a token (or its absence) is at this table.
    pub(crate) fn resolve(&self, st: &TableState, token: Option<&str>) -> Result<Viewer, ApiError> {
        match token {
            Some(t) => st.seat_of(t).map(Viewer::Seat).ok_or(ApiError::BadToken),
            None if st.meta.spectators => Ok(Viewer::Spectator),
            None => Err(ApiError::SpectatorsNotAllowed),
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
