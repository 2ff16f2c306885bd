//! The tabletop web server: the one game host (`host`), the games it hosts (UNO and Duel), a
//! JSON API and WebSockets for every table, and the browser pages, all in one axum `Router`
//! built by [`app`].
//!
//! Games live in memory while they are played; every accepted action is in the store (any
//! [`store::GameStore`]: SQLite or PostgreSQL) before it is acknowledged, and the host rebuilds
//! every unfinished table from the store at start, so a restart loses nothing acknowledged.
//!
//! Hosting another game is one implementation of [`host::Hosted`] (its actions and refusals,
//! check and apply, the view for a viewer, whether it is over, its record and outcome, how it
//! is restored from its record), and one line: `Games::standard().with::<MyGame>()` given to
//! [`AppState::hosting`]. Its tables then have what every table has, with nothing more written:
//! `POST /api/tables {"game": "<its kind>", ...}`, every route under `/api/tables/{id}`
//! (read, join, leave, actions, rematch, close), a WebSocket per viewer, seats with tokens,
//! bots, turn timers, the store (a `store::Kind` of its own, restored at start, adopted in a
//! cluster), the idle sweep and its finished games kept as records (`host::records`). UNO
//! (`games::uno`) and Duel (`games::duel`) are written so; the test `third_game.rs` hosts a
//! third, tiny one through the real server.

pub mod accounts;
pub mod api;
mod arena;
mod bearer;
mod client;
pub mod cluster;
mod conns;
pub mod duel_api;
#[cfg(test)]
mod duel_lane_tests;
mod duel_refusal;
mod error;
pub mod games;
pub mod host;
mod instance;
pub mod limits;
mod messages;
pub mod metrics;
mod metrics_api;
mod origin;
/// The protocol types the pages are typed against, in `web/protocol.d.ts` and
/// `web/duelprotocol.d.ts` (generated: a test fails when one differs; `UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol` writes it).
/// A leaf: it names the types of every module that sends them, and nothing names it.
#[cfg(test)]
mod protocol;
pub mod proxy;
mod quick;
mod quick_api;
mod quota;
mod registry;
mod replay_api;
mod serve;
mod state;
mod stats;
mod text;
mod web;
mod ws;

use axum::extract::DefaultBodyLimit;
use axum::Router;

pub use error::{AccountError, ApiError, DuelRefusal, ErrorBody, TableError};
pub use games::uno::records::{ImportRecord, Imported, RecordExport};
pub use games::uno::replay::{Frame, Perspective, PositionExport, Step};
pub use host::{AccountLimits, Config, Person, SignedIn, Tables};
pub use instance::default_instance;
pub use messages::{
    invite_path, CreateTable, LoggedEvent, Occupant, SeatKind, SeatSpec, StartFrom, TableStatus, TableSummary,
    TableView,
};
pub use metrics_api::serve_metrics;
pub use serve::{raise_fd_limit, serve, serve_with, ServeConfig, FD_RESERVE};
pub use state::{AppState, Games};
/// The house-rule toggles of a create request, built into rules by the engine.
pub use uno::HouseRules;

/// The whole application.
pub fn app(state: AppState) -> Router {
    let metrics = metrics_api::routes(state.config().metrics.clone(), state.tables().clone());
    Router::new()
        .merge(replay_api::routes(state.clone()))
        .merge(stats::routes(state.clone()))
        .merge(duel_api::routes(state.clone()))
        .merge(accounts::routes(state.clone()))
        .merge(quick_api::routes(state.clone()))
        .merge(arena::routes(state.clone()))
        .merge(api::routes(state))
        .merge(metrics)
        .route("/api/{*rest}", axum::routing::any(api::api_not_found))
        .fallback_service(web::service())
        .layer(axum::middleware::map_response(refusal_body))
        .layer(axum::middleware::from_fn(no_token_in_url))
        .layer(axum::middleware::from_fn(accounts::csrf::same_site_only))
        .layer(axum::middleware::map_response(security_headers))
        .layer(DefaultBodyLimit::max(limits::MAX_BODY_BYTES))
}

/// What every answer tells the browser: scripts, styles and connections from this origin only,
/// no framing, no sniffing of types, no referrer (a table's URL is an invite). Also written by
/// hand on the answers given before a connection reaches the router (`serve::refuse`).
pub(crate) const SECURITY_HEADERS: [(&str, &str); 4] = [
    (
        "content-security-policy",
        "default-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
         base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
];

/// Adds [`SECURITY_HEADERS`] to every answer of the router.
async fn security_headers(mut resp: axum::response::Response) -> axum::response::Response {
    use axum::http::{HeaderName, HeaderValue};
    let h = resp.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        h.insert(HeaderName::from_static(name), HeaderValue::from_static(value));
    }
    resp
}

/// A seat token in a URL (`?token=`) is refused on every `/api` route, whether or not the
/// route reads a token: it would be left in access logs and proxies.
async fn no_token_in_url(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    use axum::response::IntoResponse;
    // The keys as written and as decoded (`%74oken` is `token` to whoever reads the query).
    let named_token = |q: &str| {
        q.split('&').any(|p| p.split('=').next() == Some("token"))
            || axum::extract::Query::<Vec<(String, String)>>::try_from_uri(req.uri())
                .is_ok_and(|axum::extract::Query(pairs)| pairs.iter().any(|(k, _)| k == "token"))
    };
    let in_url = req.uri().path().starts_with("/api/") && req.uri().query().is_some_and(named_token);
    if in_url {
        return ApiError::TokenInUrl.into_response();
    }
    next.run(req).await
}

/// Gives the router's own bodiless refusals (405: a route that exists, another method) the
/// `{code, message}` body every other refusal has; its headers (`Allow`) stay.
async fn refusal_body(resp: axum::response::Response) -> axum::response::Response {
    if resp.status() != axum::http::StatusCode::METHOD_NOT_ALLOWED
        || resp.headers().contains_key(axum::http::header::CONTENT_TYPE)
    {
        return resp;
    }
    let allow = resp.headers().get(axum::http::header::ALLOW).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let body = ApiError::MethodNotAllowed { allow }.body();
    let (mut parts, _) = resp.into_parts();
    parts.headers.insert(axum::http::header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/json"));
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    let json = serde_json::to_vec(&body).unwrap_or_default();
    axum::response::Response::from_parts(parts, axum::body::Body::from(json))
}
