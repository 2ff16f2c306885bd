//! Requests forged by other sites: a page elsewhere can make the browser send a request here
//! with the victim's cookie. Every state-changing request (not GET, HEAD or OPTIONS) that
//! carries the session cookie, and every request to the account routes (a forged sign-in would
//! sign the victim into the forger's account), must come from this site: `Sec-Fetch-Site`
//! `same-origin` (or `none`: typed by the person), or, from a browser that sends no
//! `Sec-Fetch-Site`, an `Origin` whose host is the request's `Host`. A request with neither
//! header is no browser's page (curl, a script): it passes. The cookie's `SameSite=Lax` keeps
//! it off other sites' requests in today's browsers as well; this holds without it.

use axum::extract::Request;
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AccountError;

/// Whether the request is one this check applies to.
fn guarded(req: &Request) -> bool {
    let reads = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    !reads && (super::session::token(req.headers()).is_some() || req.uri().path().starts_with("/api/account"))
}

/// Whether the request's browser says it came from this site (or from no page at all).
pub(crate) fn same_site(headers: &HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site") {
        return matches!(site.to_str(), Ok("same-origin" | "none"));
    }
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else { return false };
    let Some((scheme, rest)) = origin.split_once("://") else { return false };
    matches!(scheme, "http" | "https") && rest.eq_ignore_ascii_case(host)
}

/// Refuses a guarded request that another site made (403 `cross_site`).
pub(crate) async fn same_site_only(req: Request, next: Next) -> Response {
    if guarded(&req) && !same_site(req.headers()) {
        return crate::ApiError::from(AccountError::CrossSite).into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(header::HeaderName::from_bytes(k.as_bytes()).expect("name"), v.parse().expect("value"));
        }
        h
    }

    #[test]
    fn only_this_site_s_pages_pass() {
        let host = ("host", "127.0.0.1:8080");
        for (pairs, ok) in [
            (vec![host], true),
            (vec![host, ("sec-fetch-site", "same-origin")], true),
            (vec![host, ("sec-fetch-site", "none")], true),
            (vec![host, ("sec-fetch-site", "same-site")], false),
            (vec![host, ("sec-fetch-site", "cross-site")], false),
            (vec![host, ("origin", "http://127.0.0.1:8080")], true),
            (vec![host, ("origin", "https://127.0.0.1:8080")], true),
            (vec![host, ("origin", "http://evil.example")], false),
            (vec![host, ("origin", "http://127.0.0.1:8080.evil.example")], false),
            (vec![host, ("origin", "null")], false),
            (vec![("origin", "http://127.0.0.1:8080")], false),
            // Sec-Fetch-Site is the browser's own word: it is read first.
            (vec![host, ("origin", "http://127.0.0.1:8080"), ("sec-fetch-site", "cross-site")], false),
        ] {
            assert_eq!(same_site(&headers(&pairs)), ok, "{pairs:?}");
        }
    }
}
