//! Who made a request ([`Client`]), read in one place for every route that counts per client.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// Who made a request, for every per-client limit (tables, Duel games, analyses, imports, bots'
/// thinking): the peer address when the server runs on a socket, an IPv6 one by its /64 as the
/// connection caps count it (one IPv6 client usually holds a whole /64, and would otherwise be
/// as many clients as it has addresses); "local" otherwise (tests through the router).
pub struct Client(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ip =
            parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| crate::conns::address_key(c.0.ip()).to_string());
        Ok(Client(ip.unwrap_or_else(|| "local".into())))
    }
}
