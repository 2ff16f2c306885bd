//! The browser pages, built into the binary from `crates/server/web/`.
//!
//! To add a page or asset: put the file in `crates/server/web/` and add one line to [`FILES`]
//! (`("/path/in/url", include_bytes!("../web/file"), "content-type")`). Nothing else changes:
//! every entry is served at its path, `/` serves `index.html`.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// (URL path, contents, content type).
const FILES: &[(&str, &[u8], &str)] = &[
    ("/index.html", include_bytes!("../web/index.html"), "text/html; charset=utf-8"),
    ("/style.css", include_bytes!("../web/style.css"), "text/css; charset=utf-8"),
    ("/api.js", include_bytes!("../web/api.js"), "text/javascript; charset=utf-8"),
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
    ("/unocards.js", include_bytes!("../web/unocards.js"), "text/javascript; charset=utf-8"),
    ("/roundend.js", include_bytes!("../web/roundend.js"), "text/javascript; charset=utf-8"),
    ("/seats.js", include_bytes!("../web/seats.js"), "text/javascript; charset=utf-8"),
    ("/tablestate.js", include_bytes!("../web/tablestate.js"), "text/javascript; charset=utf-8"),
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
    ("/stats.js", include_bytes!("../web/stats.js"), "text/javascript; charset=utf-8"),
];

/// Serves an embedded file, or 404.
pub async fn serve(uri: Uri) -> Response {
    let path = match uri.path() {
        "/" => "/index.html",
        p => p,
    };
    match FILES.iter().find(|(p, _, _)| *p == path) {
        Some((_, body, ctype)) => {
            ([(header::CONTENT_TYPE, *ctype), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "not found\n")
            .into_response(),
    }
}
