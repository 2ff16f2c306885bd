//! What a viewer may see of a game, checked message by message (the leak tests: the server's own,
//! and the cluster's in `crates/cli`, which includes this file).

use std::collections::HashMap;

use serde_json::Value;
use uno::{Game, Seat};

/// What a seat may know at one version: its own hand and its pending drawn card.
#[derive(Clone)]
pub struct Snap {
    hands: Vec<Vec<String>>,
    drawn: Option<String>,
    current: usize,
}

pub fn snap(g: &Game) -> Snap {
    Snap {
        hands: (0..g.players()).map(|s| g.hand(Seat(s as u8)).iter().map(|c| c.to_string()).collect()).collect(),
        drawn: g.drawn_card().map(|c| c.to_string()),
        current: g.current().index(),
    }
}

/// Checks one message for `viewer` (None: spectator): a full view, an update (which carries the
/// hand only when it changed), or a view merged from updates.
pub fn check(msg: &Value, viewer: Option<usize>, snaps: &HashMap<u64, Snap>) {
    let version = msg["version"].as_u64().expect("version");
    let s = snaps.get(&version).expect("a known version");
    let mut own = viewer.map(|v| s.hands[v].clone()).unwrap_or_default();
    own.sort();
    match msg["view"].get("hand") {
        Some(h) => {
            let mut hand: Vec<String> =
                h.as_array().expect("hand").iter().map(|c| c.as_str().unwrap_or("").to_string()).collect();
            hand.sort();
            assert_eq!(hand, own, "viewer {viewer:?} saw a hand that is not its own at version {version}");
        }
        None => assert_eq!(msg["type"], "update", "a full view without a hand"),
    }
    if !msg["view"]["drawn_card"].is_null() {
        assert_eq!(viewer, Some(s.current), "a drawn card shown to another viewer");
        assert_eq!(msg["view"]["drawn_card"].as_str(), s.drawn.as_deref());
    }
    for e in msg["events"].as_array().expect("events") {
        let ev = &e["event"];
        if ev["type"] == "cards_drawn" {
            let cards = ev["cards"].as_array().expect("cards");
            let seat = ev["seat"].as_u64().map(|x| x as usize);
            assert!(cards.is_empty() || seat == viewer, "viewer {viewer:?} saw seat {seat:?}'s drawn cards");
        }
    }
    // Nothing else may name another hand: only `view.hand` carries a hand.
    let mut stack = vec![(String::new(), msg.clone())];
    while let Some((path, v)) = stack.pop() {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if path == ".round_result" && k == "hands" {
                        // A round's result shows every hand, once the round is over: the real ones.
                        let phase = msg["view"]["phase"]["phase"].as_str();
                        assert!(matches!(phase, Some("round_over" | "game_over")), "hands revealed in {phase:?}");
                        let shown: Vec<Vec<String>> = x
                            .as_array()
                            .expect("hands")
                            .iter()
                            .map(|h| {
                                let cards = h["cards"].as_array().expect("cards");
                                cards.iter().map(|c| c.as_str().unwrap_or("").to_string()).collect()
                            })
                            .collect();
                        assert_eq!(shown, s.hands, "the revealed hands are not the hands at version {version}");
                    } else if k == "hand" || k == "hands" {
                        assert_eq!(path, ".view", "a hand at {path}.{k}");
                    }
                    stack.push((format!("{path}.{k}"), x));
                }
            }
            Value::Array(a) => stack.extend(a.into_iter().map(|x| (path.clone(), x))),
            _ => {}
        }
    }
    for a in msg.get("legal_actions").map(|l| l.as_array().expect("legal").clone()).unwrap_or_default() {
        if let Some(c) = a["card"].as_str() {
            assert!(own.iter().any(|h| h == c), "a legal action with a card not in the viewer's hand");
        }
    }
}
