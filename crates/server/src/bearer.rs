//! The seat token a request carries, read in one place: [`SeatToken`], the extractor every
//! handler that needs a token takes (not a copy of the header parsing per handler).

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use serde::Deserialize;

use crate::ApiError;

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

/// The request's seat token, if any (see [`token`]); a malformed one refuses the request.
pub struct SeatToken(pub Option<String>);

impl SeatToken {
    pub fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SeatToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let query = Query::<TokenQuery>::try_from_uri(&parts.uri).map(|Query(q)| q).unwrap_or_default();
        token(&parts.headers, &query).map(SeatToken)
    }
}
