//! The writer thread: it gathers queued writes into batches (group commit) and answers reads
//! in order between them.

use std::sync::mpsc;

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::apply::apply;
use super::reads::answer;
use crate::command::{Cmd, Write};
use crate::journal::Journal;
use crate::StoreError;

/// At most this many queued commands go into one transaction, so one commit stays short.
const MAX_BATCH: usize = 4096;

/// Runs until the last handle goes: each batch is what queued while the last one committed.
pub(super) fn writer(mut conn: Connection, mut journal: Journal, rx: mpsc::Receiver<Cmd>) {
    let mut batch: Vec<(Write, oneshot::Sender<Result<(), StoreError>>)> = Vec::new();
    while let Ok(first) = rx.recv() {
        let mut next = Some(first);
        // Gather every write queued right now; reads are answered in order between batches.
        loop {
            match next.take() {
                Some(Cmd::Write(w, reply)) => batch.push((w, reply)),
                Some(Cmd::People(cmd)) => {
                    commit(&mut conn, &mut journal, &mut batch);
                    super::people::run(&mut conn, cmd);
                }
                Some(read) => {
                    commit(&mut conn, &mut journal, &mut batch);
                    answer(&conn, &mut journal, read);
                }
                None => {}
            }
            if batch.len() >= MAX_BATCH {
                break;
            }
            match rx.try_recv() {
                Ok(cmd) => next = Some(cmd),
                Err(_) => break,
            }
        }
        commit(&mut conn, &mut journal, &mut batch);
    }
}

/// Commits a batch in one transaction. A write that fails on its own (a bad sequence number) is
/// refused alone; if the commit itself fails, every write of the batch is refused (and the
/// journal, which the batch changed as it went, is read back from the database).
fn commit(
    conn: &mut Connection,
    journal: &mut Journal,
    batch: &mut Vec<(Write, oneshot::Sender<Result<(), StoreError>>)>,
) {
    if batch.is_empty() {
        return;
    }
    if let Err(e) = journal.ensure(conn) {
        refuse_all(batch, &e.to_string());
        return;
    }
    let outcome: Result<Vec<Result<(), StoreError>>, rusqlite::Error> = (|| {
        let tx = conn.transaction()?;
        let mut each = Vec::with_capacity(batch.len());
        for (w, _) in batch.iter() {
            // A reset and a change of standing (which moves the game's log) write more than one
            // statement; any other write is one, which SQLite already undoes on its own when it
            // fails. Three statements fewer per action.
            let guarded = matches!(w, Write::Reset { .. } | Write::Standing { .. });
            if guarded {
                tx.prepare_cached("SAVEPOINT one")?.execute([])?;
            }
            let r = apply(&tx, journal, w);
            if r.is_err() && tx.is_autocommit() {
                // The failure ended the whole transaction (I/O error, full disk): refuse the batch
                // rather than run the rest outside it.
                return Err(match r {
                    Err(StoreError::Sqlite(e)) => e,
                    _ => rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ABORT),
                        Some("the transaction was rolled back".into()),
                    ),
                });
            }
            if guarded {
                if r.is_err() {
                    tx.prepare_cached("ROLLBACK TO one")?.execute([])?;
                }
                tx.prepare_cached("RELEASE one")?.execute([])?;
            }
            each.push(r);
        }
        journal.maintain(&tx)?;
        tx.commit()?;
        Ok(each)
    })();
    match outcome {
        Ok(each) => {
            for ((_, reply), r) in batch.drain(..).zip(each) {
                let _ = reply.send(r);
            }
        }
        Err(e) => {
            match Journal::load(conn) {
                Ok(j) => *journal = j,
                // The database cannot be read back: refuse everything from now on rather than
                // append to a log whose state is unknown.
                Err(_) => *journal = Journal::broken(),
            }
            refuse_all(batch, &e.to_string());
        }
    }
}

/// Tells every write of the batch that it was not committed, and why.
fn refuse_all(batch: &mut Vec<(Write, oneshot::Sender<Result<(), StoreError>>)>, why: &str) {
    for (_, reply) in batch.drain(..) {
        let _ = reply.send(Err(StoreError::Commit(why.to_string())));
    }
}
