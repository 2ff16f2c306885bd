//! A request that reaches a table as it closes is told what it would be told once the table
//! left memory, never the closed table's state (which has no game: it read as version 0,
//! finished). A table whose lease moved is played on by its new owner: a retryable
//! `owner_unavailable`. The fault harness met this: a read racing the hand-over answered
//! "finished, v0", and its client left a game that went on elsewhere.

use std::sync::Arc;

use super::Uno;
use crate::host::table::Closing;
use crate::host::{Config, Hosting, TableError, Tables};
use crate::messages::{CreateTable, SeatSpec};

async fn table() -> (Tables, Arc<crate::host::table::Table<Uno>>, String) {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let games = vec![Arc::new(crate::host::hosting_of::<Uno>()) as Arc<dyn crate::host::GameHost>];
    let app = Tables::open(store.into(), Config::default(), games).await.expect("state");
    let req = CreateTable {
        seats: vec![SeatSpec::Human { name: None }, SeatSpec::Bot { bot: "random".into(), seed: None, delay_ms: None }],
        seed: Some(5),
        ..Default::default()
    };
    let (table, opened) =
        crate::host::open::<Uno>(&app, req, "local", &crate::host::Person::Guest).await.expect("created");
    (app, table, opened.token.expect("the creator's seat"))
}

#[tokio::test]
async fn a_table_that_moved_tells_a_read_and_an_action_to_ask_again() {
    let (app, table, token) = table().await;
    let text = Hosting::read(&*table, Some(&token)).await.expect("a table in play is read");
    let read: serde_json::Value = serde_json::from_slice(&text.into_bytes()).expect("json");
    assert_eq!(read["status"], "playing");
    // What `Tables::drop_lost` does first when the lease went elsewhere.
    Hosting::lost(&*table).await;
    let again =
        Hosting::read(&*table, Some(&token)).await.map(|t| String::from_utf8_lossy(&t.into_bytes()).into_owned());
    assert!(matches!(again, Err(TableError::OwnerUnavailable(_))), "{again:?}");
    let body = serde_json::json!({"action": {"type": "draw"}, "version": read["version"]}).to_string();
    let acted = table.clone().act(&app, &token, body.as_bytes(), true).await.map(|_| ());
    assert!(matches!(acted, Err(TableError::OwnerUnavailable(_))), "{acted:?}");
}

#[tokio::test]
async fn a_table_closed_for_good_is_gone_for_a_read() {
    let (_app, table, token) = table().await;
    {
        let mut st = table.state.lock().await;
        crate::host::table::Table::close(&table, &mut st, Closing::Idle);
    }
    let read = Hosting::read(&*table, Some(&token)).await.map(|t| t.into_bytes().len());
    assert!(matches!(read, Err(TableError::NoSuchTable(_))), "{read:?}");
}
