//! Leak test: in full random games, no HTTP answer and no WebSocket push holds a card its viewer
//! may not see. Each message is checked against a shadow engine game at the message's version.
#![allow(clippy::needless_range_loop)] // seats 0..4 and the spectator at 4 index the tokens

use std::collections::HashMap;
use std::time::Duration;

use axum::http::StatusCode;
use futures_util::StreamExt;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use uno::{Action, Game, Rules, Seat};

mod common;
use common::hidden::{check, snap};
use common::{call, serve_on_loopback};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_response_or_push_shows_a_hidden_card() {
    let (app, addr) = serve_on_loopback().await;

    for (game_no, preset) in ["official", "two-color", "csce322"].iter().enumerate() {
        let seed = 100 + game_no as u64;
        let create = json!({"preset": preset, "house_rules": {"match_target": 0, "seven_zero": "on"},
            "seed": seed, "name": "P0", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
        let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
        assert_eq!(s, StatusCode::CREATED, "{created}");
        let id = created["id"].as_str().expect("id").to_string();
        let mut tokens = vec![created["token"].as_str().expect("t").to_string()];
        for i in 1..4 {
            let (_, j) = call(
                &app,
                "POST",
                &format!("/api/tables/{id}/join"),
                None,
                Some(json!({"name": format!("P{i}")}).to_string()),
            )
            .await;
            tokens.push(j["token"].as_str().expect("token").to_string());
        }
        let rules = Rules::new(
            uno::rules::preset_config(preset)
                .map(|mut c| {
                    c.scoring.target = None;
                    c.play.seven_zero = uno::rules::SevenZero::On;
                    c
                })
                .expect("preset"),
        )
        .expect("rules");
        let mut shadow = Game::new(rules, 4, seed).expect("game");
        let mut snaps = HashMap::new();
        snaps.insert(0u64, snap(&shadow));
        // One socket per seat and one spectator, all collecting pushes.
        let mut sockets = Vec::new();
        for v in 0..5 {
            let token = tokens.get(v).map(String::as_str);
            let (ws, _) = tokio_tungstenite::connect_async(common::ws_request(addr, &id, token)).await.expect("ws");
            sockets.push(ws);
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut version = 0u64;
        let mut steps = 0;
        while !shadow.is_over() && steps < 20_000 {
            steps += 1;
            let seat = shadow.current().index();
            let legal = shadow.legal_actions();
            // Mostly real moves: random UNO calls would make games very long.
            let moves: Vec<Action> = legal.iter().copied().filter(|a| *a != Action::CallUno).collect();
            let pool = if moves.is_empty() || rng.gen_bool(0.05) { &legal } else { &moves };
            let action: Action = pool[rng.gen_range(0..pool.len())];
            let body = json!({"action": action, "version": version}).to_string();
            let (s, r) =
                call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[seat]), Some(body)).await;
            assert_eq!(s, StatusCode::OK, "{r}");
            shadow.apply(Seat(seat as u8), action).expect("legal");
            version += 1;
            snaps.insert(version, snap(&shadow));
            check(&r, Some(seat), &snaps);
            if steps % 7 == 0 {
                for v in 0..5 {
                    let t = (v < 4).then(|| tokens[v].as_str());
                    let (_, view) = call(&app, "GET", &format!("/api/tables/{id}"), t, None).await;
                    check(&view, (v < 4).then_some(v), &snaps);
                }
            }
        }
        assert!(shadow.is_over(), "{preset}: the game did not end");
        // Every push up to the last version, for every viewer, and the view merged from them.
        for (v, ws) in sockets.iter_mut().enumerate() {
            let mut seen = 0;
            let mut held = Value::Null;
            loop {
                let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
                    .await
                    .expect("a push")
                    .expect("open")
                    .expect("frame");
                let text = msg.into_text().expect("text");
                let m: Value = serde_json::from_str(text.as_str()).expect("json");
                check(&m, (v < 4).then_some(v), &snaps);
                common::merge(&mut held, &m);
                check(&held, (v < 4).then_some(v), &snaps);
                seen += 1;
                if m["version"].as_u64() == Some(version) {
                    break;
                }
            }
            assert!(seen > 1);
        }
    }
}
