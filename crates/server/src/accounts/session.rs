//! The session cookie: made at a sign-in or sign-up, read on every request that asks who the
//! person is ([`Person`] as an extractor), cleared at a sign-out. The store keeps only the
//! token's SHA-256, so a copy of the database signs nobody in.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};

use crate::host::person::now_ms;
use crate::host::seats::{hash_token, random_hex};
use crate::host::{Person, SignedIn};
use crate::{AccountError, ApiError, AppState};

/// The cookie's name.
pub const COOKIE: &str = "tabletop_session";

/// A new session token (256 random bits, hex) and the hash the store keeps of it.
pub(crate) fn new_token() -> (String, String) {
    let token = random_hex(32);
    let hash = hash_token(&token);
    (token, hash)
}

/// The session token a request's `Cookie` headers carry, if any.
pub(crate) fn token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|t| !t.is_empty() && t.len() <= 128)
}

/// Whether the request reached the server by a loopback name (`localhost`, `127.0.0.1`,
/// `[::1]`): a browser treats those as secure contexts without HTTPS. Everywhere else the
/// cookie is `Secure` (sent over HTTPS only).
fn loopback(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else { return false };
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(n, _)| n),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.to_ascii_lowercase().ends_with(".localhost")
        || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn cookie(value: &str, max_age: u64, headers: &HeaderMap) -> HeaderValue {
    let secure = if loopback(headers) { "" } else { "; Secure" };
    let text = format!("{COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("tabletop_session=; Max-Age=0"))
}

/// The `Set-Cookie` of a new session: HttpOnly (no script reads it), SameSite=Lax (no other
/// site's form or script sends it), Secure unless the server is reached on loopback.
pub(crate) fn set_cookie(token: &str, max_age: u64, headers: &HeaderMap) -> (header::HeaderName, HeaderValue) {
    (header::SET_COOKIE, cookie(token, max_age, headers))
}

/// The `Set-Cookie` that makes the browser forget its session.
pub(crate) fn clear_cookie(headers: &HeaderMap) -> (header::HeaderName, HeaderValue) {
    (header::SET_COOKIE, cookie("", 0, headers))
}

/// The live session a request's cookie names: its token's hash and its person. `None` for no
/// cookie, an unknown or ended session, or a store that keeps no people.
pub(crate) async fn session(app: &AppState, headers: &HeaderMap) -> Result<Option<(String, SignedIn)>, ApiError> {
    let Some(token) = token(headers) else { return Ok(None) };
    let Some(people) = app.store().people() else { return Ok(None) };
    let hash = hash_token(&token);
    let found = crate::host::store_read(people.session(&hash, now_ms())).await?;
    Ok(found.map(|s| (hash, SignedIn { id: s.account.id, name: s.account.name })))
}

/// The signed-in person a request is from, or a guest. A request without the cookie costs
/// nothing; one with it, a read of the store (so a session ended anywhere ends here at once).
impl FromRequestParts<AppState> for Person {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Self::Rejection> {
        Ok(match session(app, &parts.headers).await? {
            Some((_, who)) => Person::Account(who),
            None => Person::Guest,
        })
    }
}

/// A route that needs a signed-in person: the session's hash and the person.
pub(crate) struct Signed {
    pub(crate) hash: String,
    pub(crate) who: SignedIn,
}

impl FromRequestParts<AppState> for Signed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Self::Rejection> {
        match session(app, &parts.headers).await? {
            Some((hash, who)) => Ok(Signed { hash, who }),
            None => Err(AccountError::NotSignedIn.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(header::HeaderName::from_bytes(k.as_bytes()).expect("name"), v.parse().expect("value"));
        }
        h
    }

    #[test]
    fn the_token_is_read_from_any_cookie_header() {
        let h = headers(&[("cookie", "a=1; tabletop_session=abc ; b=2")]);
        assert_eq!(token(&h).as_deref(), Some("abc"));
        let h = headers(&[("cookie", "a=1"), ("cookie", "tabletop_session=xyz")]);
        assert_eq!(token(&h).as_deref(), Some("xyz"));
        assert_eq!(token(&headers(&[("cookie", "tabletop_sessionx=1")])), None);
        assert_eq!(token(&headers(&[("cookie", "tabletop_session=")])), None);
    }

    #[test]
    fn the_cookie_is_secure_except_on_loopback() {
        for (host, secure) in [
            ("127.0.0.1:8080", false),
            ("localhost:8080", false),
            ("[::1]:8080", false),
            ("localhost", false),
            ("example.org", true),
            ("192.168.1.5:8080", true),
            ("localhost.example.org", true),
        ] {
            let (_, v) = set_cookie("t", 60, &headers(&[("host", host)]));
            let v = v.to_str().expect("text");
            assert!(v.contains("HttpOnly") && v.contains("SameSite=Lax"), "{v}");
            assert_eq!(v.contains("; Secure"), secure, "{host}: {v}");
        }
        let (_, v) = set_cookie("t", 60, &HeaderMap::new());
        assert!(v.to_str().expect("text").contains("; Secure"));
    }

    #[test]
    fn tokens_are_256_bits() {
        let (t, h) = new_token();
        assert_eq!(t.len(), 64);
        assert_eq!(h, hash_token(&t));
    }
}
