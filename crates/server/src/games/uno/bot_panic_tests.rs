//! A bot that panics is replaced by a fresh one built from its seat's spec, and the table goes
//! on. This holds only because release builds unwind (`[profile.release]` in the workspace
//! manifest): with `panic = "abort"` the panic would end the whole server.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use uno::{Action, Observation};
use uno_bots::Bot;

use super::Uno;
use crate::host::table::Lifecycle;
use crate::host::{Config, Hosted, Seat, Tables};
use crate::messages::{CreateTable, SeatSpec, TableStatus};

struct Panicker(Arc<AtomicUsize>);

impl Bot for Panicker {
    fn name(&self) -> &str {
        "panicker"
    }
    fn choose(&mut self, _: &Observation) -> Action {
        self.0.fetch_add(1, Ordering::SeqCst);
        panic!("a bot bug");
    }
}

#[tokio::test]
async fn a_panicking_bot_is_replaced_and_the_table_plays_on() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let games =
        vec![std::sync::Arc::new(crate::host::hosting_of::<Uno>()) as std::sync::Arc<dyn crate::host::GameHost>];
    let app = Tables::open(store.into(), Config::default(), games).await.expect("state");
    let req = CreateTable {
        seats: vec![SeatSpec::Human { name: None }, SeatSpec::Bot { bot: "random".into(), seed: None, delay_ms: None }],
        // Long enough to swap the bot before its first turn comes.
        bot_delay_ms: Some(300),
        seed: Some(5),
        ..Default::default()
    };
    let (table, _) = crate::host::open::<Uno>(&app, req, "local", &crate::host::Person::Guest).await.expect("created");

    let calls = Arc::new(AtomicUsize::new(0));
    table.state.lock().await.bots[1] = Some(Box::new(Panicker(calls.clone())));

    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        assert!(Instant::now() < deadline, "the bot seat never moved after its bot panicked");
        let (bot_moved, current, version, playing) = {
            let st = table.state.lock().await;
            let Lifecycle::Playing(uno) = &st.life else { panic!("the game ended before the bot seat moved") };
            let moved = uno.record.actions.iter().any(|m| m.seat == Seat(1));
            (moved, uno.game.current(), st.version(), st.status() == TableStatus::Playing)
        };
        if bot_moved {
            break;
        }
        assert!(playing, "the game ended before the bot seat moved");
        if current == Seat(0) {
            let mut st = table.state.lock().await;
            let action = st.life.game().and_then(|g| Uno::fallback(&g.seen(Seat(0))));
            if let Some(action) = action {
                let _ = table.act_in_request(&app, &mut st, Seat(0), action, Some(version)).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the panicking bot was asked more than once");
    let st = table.state.lock().await;
    let name = st.bots[1].as_ref().map(|b| b.name().to_string());
    assert_ne!(name.as_deref(), Some("panicker"));
}

#[test]
fn release_builds_unwind_so_the_recovery_is_live() {
    let manifest = include_str!("../../../../../Cargo.toml");
    let release = manifest.split("[profile.release]").nth(1).expect("a release profile");
    let section = release.split("\n[").next().unwrap_or("");
    assert!(!section.contains("\"abort\""), "release builds abort on panic: a bot's panic would end the server");
}
