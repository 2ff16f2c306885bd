//! The writer task: it gathers queued writes into batches (group commit) and answers reads in
//! order between them.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use deadpool_postgres::Pool;
use tokio::sync::mpsc;

use super::batch::run_batch;
use super::held::Held;
use super::lease::{adopt, take_back};
use super::reads::answer;
use crate::command::{Answer, Cmd, Write};
use crate::StoreError;

/// At most this many queued writes go into one transaction, so one commit stays short.
const MAX_BATCH: usize = 4096;

/// Runs until the last handle goes: each batch is what queued while the last one committed.
pub(super) async fn writer(pool: Pool, held: Arc<Held>, mut rx: mpsc::UnboundedReceiver<Cmd>) {
    // The number the next append of each game must carry, as far as this writer knows: read
    // from the database on a game's first append, then kept, so an append is one INSERT.
    let mut next: HashMap<String, i64> = HashMap::new();
    // Games where another writer got in first: whatever this writer appends to them after that
    // was made on top of the refused action, so it is refused too (until a reset here).
    let mut lost: HashSet<String> = HashSet::new();
    let mut batch: Vec<(Write, Answer<()>)> = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut cmd = Some(first);
        // Gather every write queued right now; reads are answered in order between batches.
        loop {
            match cmd.take() {
                Some(Cmd::Write(w, reply)) => batch.push((w, reply)),
                Some(Cmd::Adopt(kind, all, reply)) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
                    let r = adopt(&pool, &held, kind, all).await.map(|(games, adopted)| {
                        // Written by another owner meanwhile: what this writer knew is stale.
                        for id in &adopted {
                            next.remove(id);
                            lost.remove(id);
                        }
                        games
                    });
                    let _ = reply.send(r);
                }
                Some(Cmd::Release(id)) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
                    held.release(&id);
                    next.remove(&id);
                }
                Some(Cmd::HandOver(reply)) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
                    let _ = reply.send(super::lease::hand_over(&pool, &held).await);
                    next.clear();
                }
                Some(Cmd::People(cmd)) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
                    super::people::run(&pool, cmd).await;
                }
                Some(read) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
                    answer(&pool, read).await;
                }
                None => {}
            }
            if batch.len() >= MAX_BATCH {
                break;
            }
            match rx.try_recv() {
                Ok(c) => cmd = Some(c),
                Err(_) => break,
            }
        }
        commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
    }
}

/// Commits a batch in one transaction: each write gets its own answer, or, if the transaction
/// fails, all of them the same refusal.
async fn commit(
    pool: &Pool,
    held: &Held,
    next: &mut HashMap<String, i64>,
    lost: &mut HashSet<String>,
    batch: &mut Vec<(Write, Answer<()>)>,
) {
    if batch.is_empty() {
        return;
    }
    take_back(pool, held, batch).await;
    let mut seen = HashMap::new();
    let mut now_lost = lost.clone();
    match run_batch(pool, held, next, &mut seen, &mut now_lost, batch).await {
        Ok(each) => {
            next.extend(seen);
            *lost = now_lost;
            for ((_, reply), r) in batch.drain(..).zip(each) {
                let _ = reply.send(r);
            }
        }
        Err(e) => {
            // What the database holds is unknown now: read each game's next number again.
            next.clear();
            let why = e.to_string();
            for (w, _) in batch.iter() {
                // Not created after all: no lease to hold (the renewer leaves a lease it cannot
                // find alone, since a creation may be committing while it looks).
                if let Write::Create(g) = w {
                    held.forget(&g.id);
                }
            }
            for (_, reply) in batch.drain(..) {
                let _ = reply.send(Err(StoreError::Commit(why.clone())));
            }
        }
    }
}
