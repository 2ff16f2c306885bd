//! Who is asking, read in one place: [`Asker`], the one extractor every route and every socket
//! that needs to know takes (not a copy of the header parsing per handler). Today an asker is
//! the holder of a seat token, or nobody (a spectator).

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use serde::Deserialize;

use crate::ApiError;

#[derive(Debug, Default, Deserialize)]
pub struct TokenQuery {
    pub token: Option<String>,
}

/// The subprotocol the server answers with when a client offers it (the pages do, beside their
/// token, `bearer.<token>`), on every socket: a table's and the queue's.
pub(crate) const PROTOCOL: &str = "tabletop";

/// The prefix of the offered WebSocket subprotocol that carries the seat token.
const TOKEN_PROTOCOL_PREFIX: &str = "bearer.";

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

/// The seat token offered as the subprotocol `bearer.<token>` in `Sec-WebSocket-Protocol`: what
/// a browser can send without putting the token in the URL (where logs and proxies keep it).
pub(crate) fn protocol_token(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    for v in headers.get_all(header::SEC_WEBSOCKET_PROTOCOL) {
        let text = v.to_str().map_err(|_| ApiError::BadToken)?;
        if let Some(t) = text.split(',').map(str::trim).find_map(|p| p.strip_prefix(TOKEN_PROTOCOL_PREFIX)) {
            return Ok(Some(t.to_string()));
        }
    }
    Ok(None)
}

/// The asker's credentials from a request's head: the subprotocol's token (a socket), else the
/// `Authorization` header's.
pub(crate) fn asker(parts: &Parts) -> Result<Asker, ApiError> {
    let query = Query::<TokenQuery>::try_from_uri(&parts.uri).map(|Query(q)| q).unwrap_or_default();
    let header = token(&parts.headers, &query)?;
    Ok(Asker { token: protocol_token(&parts.headers)?.or(header) })
}

/// Who a request is from; a malformed credential refuses the request.
#[derive(Clone, Debug, Default)]
pub struct Asker {
    token: Option<String>,
}

impl Asker {
    /// The seat token, if one was sent.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Asker {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        asker(parts)
    }
}
