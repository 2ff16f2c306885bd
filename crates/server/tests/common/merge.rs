//! A client's view of a table, kept from WebSocket messages (shared with the cluster tests of
//! `crates/cli`, which include this file).

use serde_json::Value;

/// What a client holds after a WebSocket message: a `state` replaces it, an `update` is merged
/// in (the view's fields it carries, its legal actions when it carries them, its events). What
/// only full states carry (the discard pile, the view's copy of the legal actions) is dropped.
pub fn merge(held: &mut Value, msg: &Value) {
    match msg["type"].as_str() {
        Some("state") => *held = msg.clone(),
        Some("update") => {
            for k in ["version", "generation", "status", "events"] {
                held[k] = msg[k].clone();
            }
            if let (Some(view), Some(fields)) = (held["view"].as_object_mut(), msg["view"].as_object()) {
                for (k, v) in fields {
                    view.insert(k.clone(), v.clone());
                }
                view.remove("discard");
                view.remove("legal_actions");
            }
            if let Some(l) = msg.get("legal_actions") {
                held["legal_actions"] = l.clone();
            }
        }
        _ => {}
    }
}
