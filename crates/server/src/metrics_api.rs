//! `/metrics` as served: on the game port behind the operator's token, or on an operator
//! address of its own ([`serve_metrics`]); the counters are `metrics`'.

use std::time::Duration;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::host::Tables;
use crate::metrics::{self, Metrics};

/// The route on the game port: answered only as `metrics` says (404 otherwise, as for any
/// path the server does not have).
pub(crate) fn routes(metrics: Metrics, tables: Tables) -> Router {
    match metrics {
        Metrics::Off => Router::new(),
        Metrics::Token(token) => Router::new().route(
            "/metrics",
            get(move |headers: axum::http::HeaderMap| {
                let (token, tables) = (token.clone(), tables.clone());
                async move {
                    let given = headers
                        .get(header::AUTHORIZATION)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.strip_prefix("Bearer "));
                    match given {
                        Some(g) if sha2_eq(g, &token) => render(&tables).await,
                        Some(_) => crate::ApiError::BadToken.into_response(),
                        None => crate::ApiError::MissingToken.into_response(),
                    }
                }
            }),
        ),
    }
}

/// Compares two strings in time independent of where they differ.
fn sha2_eq(a: &str, b: &str) -> bool {
    use sha2::Digest;
    sha2::Sha256::digest(a.as_bytes()) == sha2::Sha256::digest(b.as_bytes())
}

/// Serves `/metrics` alone on `listener` (the operator's address, `--metrics-addr`), until the
/// process ends.
pub async fn serve_metrics(listener: tokio::net::TcpListener, tables: Tables) -> std::io::Result<()> {
    let route = get(move || {
        let tables = tables.clone();
        async move { render(&tables).await }
    });
    axum::serve(listener, Router::new().route("/metrics", route)).await
}

/// How long a scrape waits for the store to answer its probe before counting it down.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// The text, after asking the store one small read (so an idle instance and one whose database
/// is gone read apart) and counting the tables held.
async fn render(tables: &Tables) -> axum::response::Response {
    let probe = tables.store().tallies(store::Kind::UNO, 0, 1);
    metrics::store_up(matches!(tokio::time::timeout(PROBE_TIMEOUT, probe).await, Ok(Ok(_))));
    metrics::tables(tables.table_count());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], metrics::text()).into_response()
}
