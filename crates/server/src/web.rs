//! The browser pages, built into the binary from `crates/server/web/`.
//!
//! To add a page or asset: put the file in `crates/server/web/` and add one line to [`FILES`]
//! (`("/path/in/url", include_bytes!("../web/file"), "content-type")`). Nothing else changes:
//! every entry is served at its path, `/` serves `index.html`.
//!
//! **Caching.** The scripts and the style sheet are also served at `/v/{VERSION}/…`, where
//! VERSION is a hash of every file here, and the pages name them there (their `<script src>`
//! and `<link href>` are rewritten once, at start): those answers are immutable for a year. A
//! module's imports are relative (`./api.js`), so they resolve under the same prefix by
//! themselves: the modules stay plain ES modules, with no build step, no hashed name to keep in
//! step in each `import`, and no way for a browser to mix modules of two builds (a change to
//! any file is a new VERSION for all). The pages themselves are `no-cache` with an `ETag`: each
//! visit asks, and a page that has not changed is a `304` with no body. A file asked for at its
//! own path (`/uno.js`), or under another build's VERSION, is `no-cache` with its `ETag` too.
//!
//! **Compression.** Brotli or gzip, whichever the browser prefers (`tower-http`'s layer), for
//! these files only: the API's answers hold a seat's cards beside names other players choose,
//! and compressing a secret next to text someone else controls lets the length tell it
//! (BREACH); they are small besides.

use std::sync::OnceLock;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use tower_http::compression::CompressionLayer;

/// (URL path, contents, content type).
const FILES: &[(&str, &[u8], &str)] = &[
    ("/index.html", include_bytes!("../web/index.html"), "text/html; charset=utf-8"),
    ("/style.css", include_bytes!("../web/style.css"), "text/css; charset=utf-8"),
    ("/api.js", include_bytes!("../web/api.js"), "text/javascript; charset=utf-8"),
    ("/i18n.js", include_bytes!("../web/i18n.js"), "text/javascript; charset=utf-8"),
    ("/i18n-en.js", include_bytes!("../web/i18n-en.js"), "text/javascript; charset=utf-8"),
    ("/i18n-es.js", include_bytes!("../web/i18n-es.js"), "text/javascript; charset=utf-8"),
    ("/i18n-fr.js", include_bytes!("../web/i18n-fr.js"), "text/javascript; charset=utf-8"),
    ("/i18n-de.js", include_bytes!("../web/i18n-de.js"), "text/javascript; charset=utf-8"),
    ("/i18n-pt-BR.js", include_bytes!("../web/i18n-pt-BR.js"), "text/javascript; charset=utf-8"),
    ("/i18n-ja.js", include_bytes!("../web/i18n-ja.js"), "text/javascript; charset=utf-8"),
    ("/duel.html", include_bytes!("../web/duel.html"), "text/html; charset=utf-8"),
    ("/duel.js", include_bytes!("../web/duel.js"), "text/javascript; charset=utf-8"),
    ("/duelgrid.js", include_bytes!("../web/duelgrid.js"), "text/javascript; charset=utf-8"),
    ("/duel-replay.html", include_bytes!("../web/duel-replay.html"), "text/html; charset=utf-8"),
    ("/duel-replay.js", include_bytes!("../web/duel-replay.js"), "text/javascript; charset=utf-8"),
    ("/replaystep.js", include_bytes!("../web/replaystep.js"), "text/javascript; charset=utf-8"),
    ("/analysisgraph.js", include_bytes!("../web/analysisgraph.js"), "text/javascript; charset=utf-8"),
    ("/replayanalysis.js", include_bytes!("../web/replayanalysis.js"), "text/javascript; charset=utf-8"),
    ("/replayfiles.js", include_bytes!("../web/replayfiles.js"), "text/javascript; charset=utf-8"),
    ("/tableview.js", include_bytes!("../web/tableview.js"), "text/javascript; charset=utf-8"),
    ("/duelwords.js", include_bytes!("../web/duelwords.js"), "text/javascript; charset=utf-8"),
    ("/duelview.js", include_bytes!("../web/duelview.js"), "text/javascript; charset=utf-8"),
    ("/uno.html", include_bytes!("../web/uno.html"), "text/html; charset=utf-8"),
    ("/uno.js", include_bytes!("../web/uno.js"), "text/javascript; charset=utf-8"),
    ("/sound.js", include_bytes!("../web/sound.js"), "text/javascript; charset=utf-8"),
    ("/clock.js", include_bytes!("../web/clock.js"), "text/javascript; charset=utf-8"),
    ("/quick.js", include_bytes!("../web/quick.js"), "text/javascript; charset=utf-8"),
    ("/phrases.js", include_bytes!("../web/phrases.js"), "text/javascript; charset=utf-8"),
    ("/unocards.js", include_bytes!("../web/unocards.js"), "text/javascript; charset=utf-8"),
    ("/roundend.js", include_bytes!("../web/roundend.js"), "text/javascript; charset=utf-8"),
    ("/seats.js", include_bytes!("../web/seats.js"), "text/javascript; charset=utf-8"),
    ("/tablefacts.js", include_bytes!("../web/tablefacts.js"), "text/javascript; charset=utf-8"),
    ("/lobby.js", include_bytes!("../web/lobby.js"), "text/javascript; charset=utf-8"),
    ("/seatstore.js", include_bytes!("../web/seatstore.js"), "text/javascript; charset=utf-8"),
    ("/motion.js", include_bytes!("../web/motion.js"), "text/javascript; charset=utf-8"),
    ("/handview.js", include_bytes!("../web/handview.js"), "text/javascript; charset=utf-8"),
    ("/scoreview.js", include_bytes!("../web/scoreview.js"), "text/javascript; charset=utf-8"),
    ("/tablelog.js", include_bytes!("../web/tablelog.js"), "text/javascript; charset=utf-8"),
    ("/refusals.js", include_bytes!("../web/refusals.js"), "text/javascript; charset=utf-8"),
    ("/replay.html", include_bytes!("../web/replay.html"), "text/html; charset=utf-8"),
    ("/replay.js", include_bytes!("../web/replay.js"), "text/javascript; charset=utf-8"),
    ("/stats.html", include_bytes!("../web/stats.html"), "text/html; charset=utf-8"),
    ("/arena.html", include_bytes!("../web/arena.html"), "text/html; charset=utf-8"),
    ("/arena.js", include_bytes!("../web/arena.js"), "text/javascript; charset=utf-8"),
    ("/stats.js", include_bytes!("../web/stats.js"), "text/javascript; charset=utf-8"),
    ("/account.html", include_bytes!("../web/account.html"), "text/html; charset=utf-8"),
    ("/account.js", include_bytes!("../web/account.js"), "text/javascript; charset=utf-8"),
    ("/player.html", include_bytes!("../web/player.html"), "text/html; charset=utf-8"),
    ("/player.js", include_bytes!("../web/player.js"), "text/javascript; charset=utf-8"),
    ("/leaderboard.html", include_bytes!("../web/leaderboard.html"), "text/html; charset=utf-8"),
    ("/leaderboard.js", include_bytes!("../web/leaderboard.js"), "text/javascript; charset=utf-8"),
    ("/rating.js", include_bytes!("../web/rating.js"), "text/javascript; charset=utf-8"),
];

/// What a browser may keep of an asset named by its VERSION: it never changes.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// What it may keep of anything else: a copy it asks about before each use.
const REVALIDATE: &str = "no-cache";

/// One file as it is served.
struct Asset {
    path: &'static str,
    body: Vec<u8>,
    content_type: &'static str,
    etag: HeaderValue,
    page: bool,
}

/// Every file, the pages rewritten to name the assets under the build's VERSION.
struct Assets {
    version: String,
    files: Vec<Asset>,
}

fn is_page(content_type: &str) -> bool {
    content_type.starts_with("text/html")
}

/// A hash of `parts`, as 16 hex digits.
fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hex::encode(&hash.finalize()[..8])
}

/// A page with each `src="ASSET"` and `href="ASSET"` naming an asset of [`FILES`] by its path
/// under `/v/{version}`.
fn versioned(page: &[u8], version: &str) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(page).into_owned();
    for (path, _, _) in FILES.iter().filter(|(_, _, t)| !is_page(t)) {
        let name = path.trim_start_matches('/');
        for attribute in ["src", "href"] {
            text = text.replace(&format!("{attribute}=\"{name}\""), &format!("{attribute}=\"/v/{version}{path}\""));
        }
    }
    text.into_bytes()
}

fn assets() -> &'static Assets {
    static ASSETS: OnceLock<Assets> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let version = digest(FILES.iter().flat_map(|(path, body, _)| [path.as_bytes(), *body]));
        let files = FILES
            .iter()
            .map(|&(path, body, content_type)| {
                let page = is_page(content_type);
                let body = if page { versioned(body, &version) } else { body.to_vec() };
                // Weak: the same file is sent compressed or not, byte for byte different.
                let etag = HeaderValue::from_str(&format!("W/\"{}\"", digest([body.as_slice()])))
                    .unwrap_or_else(|_| HeaderValue::from_static("W/\"0\""));
                Asset { path, body, content_type, etag, page }
            })
            .collect();
        Assets { version, files }
    })
}

/// Whether `If-None-Match` names `etag` (or `*`), compared weakly as RFC 9110 says for it.
fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let ours = etag.to_str().unwrap_or("").trim_start_matches("W/");
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|list| list.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == ours))
}

/// The pages' router: [`serve`] behind the compression layer.
pub fn service() -> axum::routing::MethodRouter {
    axum::routing::any(serve).layer(CompressionLayer::new().br(true).gzip(true))
}

/// Serves an embedded file, or 404.
async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let assets = assets();
    let (path, current) = match uri.path().strip_prefix("/v/").and_then(|rest| rest.split_once('/')) {
        Some((version, file)) => (&uri.path()[uri.path().len() - file.len() - 1..], version == assets.version),
        None => (uri.path(), false),
    };
    let path = if path == "/" && !uri.path().starts_with("/v/") { "/index.html" } else { path };
    let Some(asset) = assets.files.iter().find(|a| a.path == path && !(a.page && uri.path().starts_with("/v/"))) else {
        return (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "not found\n")
            .into_response();
    };
    let cache = if current { IMMUTABLE } else { REVALIDATE };
    let etag = (header::ETAG, asset.etag.clone());
    if not_modified(&headers, &asset.etag) {
        return (StatusCode::NOT_MODIFIED, [etag, (header::CACHE_CONTROL, HeaderValue::from_static(cache))])
            .into_response();
    }
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(asset.content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
            etag,
        ],
        asset.body.clone(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_names_its_assets_under_the_version() {
        let assets = assets();
        for page in assets.files.iter().filter(|a| a.page) {
            let text = String::from_utf8_lossy(&page.body);
            for attribute in ["src=\"", "href=\""] {
                for value in text.split(attribute).skip(1).filter_map(|rest| rest.split('"').next()) {
                    let local = !value.contains(':') && !value.starts_with('#') && !value.contains(".html");
                    if local && !value.starts_with("/api/") && value != "./" {
                        let prefix = format!("/v/{}/", assets.version);
                        assert!(value.starts_with(&prefix), "{}: {attribute}{value}", page.path);
                        let name = &value[prefix.len() - 1..];
                        assert!(assets.files.iter().any(|a| a.path == name && !a.page), "{}: {value}", page.path);
                    }
                }
            }
        }
    }
}
