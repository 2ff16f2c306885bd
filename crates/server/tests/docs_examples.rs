//! The `json` examples of docs/api.md are real: each parses, and the create example is accepted
//! by the server as written.

use axum::http::StatusCode;
use serde_json::Value;

mod common;
use common::call;

fn json_blocks(doc: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```json") => current = Some(String::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[tokio::test]
async fn the_api_docs_json_examples_are_valid_and_accepted() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md");
    let doc = std::fs::read_to_string(path).expect("docs/api.md");
    let blocks = json_blocks(&doc);
    assert!(!blocks.is_empty(), "no json example found");
    let parsed: Vec<Value> =
        blocks.iter().map(|b| serde_json::from_str(b).unwrap_or_else(|e| panic!("{e}:\n{b}"))).collect();
    let create = parsed.iter().find(|v| v.get("seats").is_some()).expect("the create example");
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, server::Config::default()).await.expect("state");
    let app = server::app(state);
    let (s, v) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}
