//! The pages as a browser gets them from the real server on a socket: compressed as the
//! browser asks (Brotli, gzip, or not at all), the scripts and the style under the build's
//! version and immutable, every module a page imports found under that version, the pages
//! themselves `no-cache`, and a revalidation of an unchanged file answered `304` with no body.

use std::collections::BTreeSet;
use std::io::Read;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server on a loopback port; it stops with the test's runtime.
async fn start() -> SocketAddr {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, server::Config::default()).await.expect("state");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(server::serve_with(listener, state, server::ServeConfig::default(), std::future::pending()));
    addr
}

/// An answer: its status, its headers (names in lower case) and its body as sent.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body with its content coding undone.
    fn decoded(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self.header("content-encoding") {
            None => out.clone_from(&self.body),
            Some("br") => {
                brotli::Decompressor::new(self.body.as_slice(), 4096).read_to_end(&mut out).expect("brotli");
            }
            Some("gzip") => {
                flate2::read::GzDecoder::new(self.body.as_slice()).read_to_end(&mut out).expect("gzip");
            }
            Some(other) => panic!("content-encoding {other}"),
        }
        out
    }
}

/// `GET path` on a connection of its own, with `headers` (`Name: value` lines).
async fn get(addr: SocketAddr, path: &str, headers: &[&str]) -> Answer {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n{extra}\r\n");
    s.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut raw)).await.expect("answered").expect("read");
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a head") + 4;
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|c| c.parse().ok()).expect("status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { unchunk(&raw[split..]) } else { raw[split..].to_vec() };
    Answer { status, headers, body }
}

/// A chunked body's bytes.
fn unchunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = raw.windows(2).position(|w| w == b"\r\n").expect("a chunk size");
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..end]).trim(), 16).expect("hex size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

/// A file of the pages' folder, as it is in the repository.
fn source(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/web/{name}", env!("CARGO_MANIFEST_DIR"))).expect("a page's file")
}

/// The value of each `attribute="…"` in a page.
fn attributes(page: &str, attribute: &str) -> Vec<String> {
    let marker = format!("{attribute}=\"");
    page.split(&marker).skip(1).filter_map(|rest| rest.split('"').next()).map(str::to_string).collect()
}

/// The files a module imports (`from './x.js'`, `import './x.js'`).
fn imports(module: &str) -> Vec<String> {
    module
        .lines()
        .filter(|l| l.starts_with("import ") || l.starts_with("} from "))
        .filter_map(|l| l.split("'./").nth(1).and_then(|rest| rest.split('\'').next()))
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn each_encoding_the_browser_asks_for_is_honoured() {
    let addr = start().await;
    for path in ["/uno.html", "/style.css", "/uno.js"] {
        let plain = get(addr, path, &[]).await;
        assert_eq!(plain.status, 200, "{path}");
        assert_eq!(plain.header("content-encoding"), None, "{path}: nothing asked, nothing applied");
        for (asked, expected) in [
            ("br", Some("br")),
            ("gzip", Some("gzip")),
            ("gzip, deflate, br", Some("br")),
            ("br;q=0, gzip", Some("gzip")),
            ("identity", None),
            ("zstd;q=0, br;q=0, gzip;q=0", None),
        ] {
            let answer = get(addr, path, &[&format!("accept-encoding: {asked}")]).await;
            assert_eq!(answer.status, 200, "{path} {asked}");
            assert_eq!(answer.header("content-encoding"), expected, "{path}, accept-encoding: {asked}");
            assert_eq!(answer.decoded(), plain.body, "{path} {asked}: the same file");
            if expected.is_some() {
                assert!(
                    answer.body.len() * 2 < plain.body.len(),
                    "{path} {asked}: {} of {}",
                    answer.body.len(),
                    plain.body.len()
                );
                assert!(answer.header("vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
            }
        }
    }
    // The API's answers are not compressed (they hold secrets beside others' text).
    let api = get(addr, "/api/uno/options", &["accept-encoding: br, gzip"]).await;
    assert_eq!(api.status, 200);
    assert_eq!(api.header("content-encoding"), None);
}

#[tokio::test]
async fn scripts_and_styles_are_immutable_under_the_version_and_every_import_is_found_there() {
    let addr = start().await;
    let mut versions = BTreeSet::new();
    let mut modules: Vec<String> = Vec::new();
    for page in ["/", "/index.html", "/uno.html", "/duel.html", "/replay.html", "/duel-replay.html", "/stats.html"] {
        let answer = get(addr, page, &[]).await;
        assert_eq!(answer.status, 200, "{page}");
        let text = String::from_utf8_lossy(&answer.body).into_owned();
        let named: Vec<String> = attributes(&text, "src")
            .into_iter()
            .chain(attributes(&text, "href").into_iter().filter(|h| h.ends_with(".css")))
            .collect();
        assert!(!named.is_empty(), "{page} names no script or style");
        for value in named {
            let rest = value.strip_prefix("/v/").unwrap_or_else(|| panic!("{page}: {value} is not under the version"));
            let (version, file) = rest.split_once('/').expect("version/file");
            versions.insert(version.to_string());
            if file.ends_with(".js") {
                modules.push(file.to_string());
            }
        }
    }
    assert_eq!(versions.len(), 1, "one version for one build: {versions:?}");
    let version = versions.pop_first().expect("a version");
    // Every module the pages start from, and every module those import, under the version.
    let mut seen = BTreeSet::new();
    while let Some(file) = modules.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        let answer = get(addr, &format!("/v/{version}/{file}"), &[]).await;
        assert_eq!(answer.status, 200, "/v/{version}/{file}");
        assert_eq!(answer.body, source(&file), "{file}: the file as written");
        let cache = answer.header("cache-control").expect("cache-control");
        assert!(cache.contains("immutable") && cache.contains("max-age=31536000"), "{file}: {cache}");
        modules.extend(imports(&String::from_utf8_lossy(&answer.body)));
    }
    assert!(seen.len() >= 20, "{seen:?}");
    let style = get(addr, &format!("/v/{version}/style.css"), &[]).await;
    assert!(style.header("cache-control").is_some_and(|c| c.contains("immutable")));
    // Another build's version, or the file's own path: the same file, asked about each time.
    for path in ["/v/0123456789abcdef/uno.js".to_string(), "/uno.js".to_string()] {
        let answer = get(addr, &path, &[]).await;
        assert_eq!((answer.status, answer.body.clone()), (200, source("uno.js")), "{path}");
        assert_eq!(answer.header("cache-control"), Some("no-cache"), "{path}");
    }
    // Pages are never under a version; nothing unknown is.
    assert_eq!(get(addr, &format!("/v/{version}/uno.html"), &[]).await.status, 404);
    assert_eq!(get(addr, &format!("/v/{version}/nothing.js"), &[]).await.status, 404);
}

#[tokio::test]
async fn pages_are_not_cached_and_a_revalidation_is_answered_304() {
    let addr = start().await;
    for path in ["/uno.html", "/", "/uno.js", "/style.css"] {
        let first = get(addr, path, &["accept-encoding: br"]).await;
        assert_eq!(first.status, 200, "{path}");
        assert_eq!(first.header("cache-control"), Some("no-cache"), "{path}");
        let etag = first.header("etag").expect("an etag").to_string();
        for asked in
            [etag.clone(), format!("\"x\", {etag}"), "*".to_string(), etag.trim_start_matches("W/").to_string()]
        {
            let again = get(addr, path, &[&format!("if-none-match: {asked}"), "accept-encoding: br"]).await;
            assert_eq!(again.status, 304, "{path}, if-none-match: {asked}");
            assert!(again.body.is_empty(), "{path}: a 304 has no body");
            assert_eq!(again.header("etag"), Some(etag.as_str()));
            assert_eq!(again.header("cache-control"), Some("no-cache"));
        }
        let changed = get(addr, path, &["if-none-match: W/\"another\""]).await;
        assert_eq!(changed.status, 200, "{path}: another version is sent whole");
        assert_eq!(changed.header("etag"), Some(etag.as_str()));
    }
    // The HTML names the scripts of this build, so its tag is not the file's.
    let page = get(addr, "/uno.html", &[]).await;
    assert_ne!(page.body, source("uno.html"));
    assert_eq!(get(addr, "/nothing.html", &[]).await.status, 404);
}
