//! The tabletop web server: UNO tables over a JSON API and WebSockets, the Duel routes, and the
//! browser pages, all in one axum `Router` built by [`app`].
//!
//! Games live in memory while they are played; every accepted action is in the store (SQLite)
//! before it is acknowledged, and [`AppState::new`] rebuilds every unfinished table from the
//! store, so a restart loses nothing acknowledged.
//!
//! Adding another game's routes: write a module with `pub fn routes(..) -> Router` (its own state
//! applied with `with_state`) and `.merge` it in [`app`], as `duel_api` is. Its games can be kept
//! in the same store: `Store::create(id, "duel", record_json, meta_json)`, `Store::append`, and
//! `Store::load_active("duel")` at start.

pub mod api;
pub mod duel_api;
mod error;
pub mod limits;
mod serve;
mod tables;
mod update;
mod web;
mod ws;

use axum::extract::DefaultBodyLimit;
use axum::Router;

pub use error::{ApiError, ErrorBody};
pub use serve::{raise_fd_limit, serve, serve_with, ServeConfig, FD_RESERVE};
pub use tables::{
    invite_path, AppState, Config, CreateTable, Created, HouseRules, Joined, LoggedEvent, SeatKind, SeatSpec, SeatView,
    TableStatus, TableSummary, TableView,
};

/// The whole application.
pub fn app(state: AppState) -> Router {
    let duel_games = duel_api::DuelGames::with_store(state.store().clone());
    Router::new()
        .merge(api::routes(state))
        .merge(duel_api::routes(duel_games))
        .route("/api/{*rest}", axum::routing::any(api::api_not_found))
        .fallback(web::serve)
        .layer(DefaultBodyLimit::max(limits::MAX_BODY_BYTES))
}
