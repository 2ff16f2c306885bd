//! Who made a request ([`Client`]), read in one place for every route that counts per client.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// Who made a request, for every per-client limit (tables, Duel games, analyses, imports, bots'
/// thinking): the client's address when the server runs on a socket (the peer's, or behind a
/// trusted proxy the one it forwarded: [`ClientAddr`]), an IPv6 one by its /64 as the
/// connection caps count it (one IPv6 client usually holds a whole /64, and would otherwise be
/// as many clients as it has addresses); "local" otherwise (tests through the router).
pub struct Client(pub String);

/// The client's address as `serve` read it for a request: the peer's, or the one a trusted
/// proxy forwarded (`crate::proxy`).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub IpAddr);

/// The client's address a request came with: the one `serve` read ([`ClientAddr`]: the peer's,
/// a trusted proxy's forwarded one, or in a cluster the one the forwarding instance read), else
/// the connection's peer; `None` for a request that came through the router alone.
pub(crate) fn client_ip(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    match extensions.get::<ClientAddr>() {
        Some(c) => Some(c.0),
        None => extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()),
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ip = client_ip(&parts.extensions);
        Ok(Client(ip.map_or_else(|| "local".into(), |ip| crate::conns::address_key(ip).to_string())))
    }
}
