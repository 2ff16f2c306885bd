//! Leases: renewing those a store holds, adopting the games whose lease ran out, and taking
//! back a restarted owner's games.

use std::collections::{HashMap, HashSet};
use std::sync::Weak;
use std::time::Instant;

use deadpool_postgres::Pool;

use super::held::Held;
use super::reads::load_where;
use crate::command::{Answer, Write};
use crate::{Kind, StoreError, StoredGame};

/// Lease renewals of every store in this process: those that reached the database, those that
/// failed (for an operator's `/metrics`).
static RENEWALS: [std::sync::atomic::AtomicU64; 2] =
    [std::sync::atomic::AtomicU64::new(0), std::sync::atomic::AtomicU64::new(0)];

/// (renewals done, renewals failed) so far in this process.
pub fn lease_renewals() -> (u64, u64) {
    use std::sync::atomic::Ordering::Relaxed;
    (RENEWALS[0].load(Relaxed), RENEWALS[1].load(Relaxed))
}

/// Renews every lease the store holds, a third of the lease time apart; a game whose lease has
/// moved to another owner (or epoch) is forgotten, so `holds` says no and writes are refused
/// without asking the database.
pub(super) async fn renewer(pool: Pool, held: Weak<Held>) {
    let Some(every) = held.upgrade().map(|h| h.lease.duration / 3) else { return };
    loop {
        tokio::time::sleep(every).await;
        let Some(held) = held.upgrade() else { return };
        let games = held.snapshot();
        if !games.is_empty() {
            renew(&pool, &held, games).await;
        }
    }
}

/// One renewal of `games` (what `held` held when it began: a hand-over may have ended some
/// since, and those stay ended).
pub(super) async fn renew(pool: &Pool, held: &Held, games: Vec<(String, i64)>) {
    let (ids, epochs): (Vec<String>, Vec<i64>) = games.iter().cloned().unzip();
    let sent = Instant::now();
    let renewed = async {
        let mut client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
        let tx = client.transaction().await?;
        // The rows are locked in id order first, as every write batch locks them (see
        // `lock_in_order`): two transactions that lock in one order never wait on each other
        // in a circle, which PostgreSQL would break by failing one (a renewal that fails
        // again and again lets every lease run out under load).
        let rows = tx
            .query(
                "SELECT game_id, owner, epoch FROM leases WHERE game_id = ANY ($1::text[])
                 ORDER BY game_id FOR UPDATE",
                &[&ids],
            )
            .await?;
        // A lease ended by `hand_over` ('-infinity', at this owner and epoch still) is not
        // renewed: a renewal that began before the hand-over and reached the database after it
        // would otherwise give the table back to a stopping instance for a whole lease.
        tx.execute(
            "UPDATE leases l SET expires_at = clock_timestamp() + $3::float8 * interval '1 millisecond'
             FROM unnest($1::text[], $2::bigint[]) AS h (id, epoch)
             WHERE l.game_id = h.id AND l.epoch = h.epoch AND l.owner = $4
               AND l.expires_at <> '-infinity'",
            &[&ids, &epochs, &held.millis(), &held.lease.owner],
        )
        .await?;
        tx.commit().await?;
        let found = rows.into_iter().map(|r| (r.get::<_, String>(0), (r.get::<_, String>(1), r.get::<_, i64>(2))));
        Ok::<_, StoreError>(found.collect::<HashMap<String, (String, i64)>>())
    }
    .await;
    match renewed {
        Ok(found) => {
            // A game whose lease row is not there yet is being created (its batch has not
            // committed; a failed creation leaves no game to write): only a row naming
            // another owner or epoch means the game was taken.
            let mut ours = Vec::with_capacity(games.len());
            for (id, epoch) in games {
                match found.get(&id) {
                    Some((owner, e)) if *owner != held.lease.owner || *e != epoch => held.lose(&id, epoch),
                    Some(_) => ours.push(id),
                    None => {}
                }
            }
            held.renewed(ours.iter().map(String::as_str), sent);
            RENEWALS[0].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        // The database is away: the leases may run out meanwhile, and then the writes are
        // refused by the epoch when it is back.
        Err(e) => {
            RENEWALS[1].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::warn!(error = %e, "renewing leases failed")
        }
    }
}

/// Ends every lease `held` holds (at its epoch: one another instance took meanwhile is left
/// alone) and forgets them all, so nothing renews them and every write is refused from now on.
pub(super) async fn hand_over(pool: &Pool, held: &Held) -> Result<usize, StoreError> {
    let games = held.hand_over();
    if games.is_empty() {
        return Ok(0);
    }
    let (ids, epochs): (Vec<String>, Vec<i64>) = games.into_iter().unzip();
    let client = pool.get().await.map_err(|e| StoreError::Connect(super::chain(&e)))?;
    let n = client
        .execute(
            "UPDATE leases l SET expires_at = '-infinity'
             FROM unnest($1::text[], $2::bigint[]) AS h (id, epoch)
             WHERE l.game_id = h.id AND l.epoch = h.epoch AND l.owner = $3",
            &[&ids, &epochs, &held.lease.owner],
        )
        .await?;
    Ok(n as usize)
}

/// Takes the leases of the active games of `kind` that ran out, or that this owner's name held
/// before (a restart), at the next epoch; then reads them (all the held ones when `all`).
pub(super) async fn adopt(
    pool: &Pool,
    held: &Held,
    kind: Kind,
    all: bool,
) -> Result<(Vec<StoredGame>, Vec<String>), StoreError> {
    if held.is_handed_over() {
        // Stopping: its own games (under its name) would be taken back for a whole lease.
        return Ok((Vec::new(), Vec::new()));
    }
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let mine: Vec<String> = held.snapshot().into_iter().map(|(id, _)| id).collect();
    // Run alone, this statement commits before the log is read: an old owner's append still in
    // flight holds a share lock on the row, so this waits for it, and reads it below.
    let rows = client
        .query(
            "UPDATE leases l SET owner = $2, epoch = l.epoch + 1,
                 expires_at = clock_timestamp() + $3::float8 * interval '1 millisecond'
             FROM games g
             WHERE g.id = l.game_id AND g.kind = $1 AND g.status = 'active'
               AND (l.expires_at < clock_timestamp() OR l.owner = $2)
               AND NOT (l.game_id = ANY ($4::text[]))
             RETURNING l.game_id, l.epoch",
            &[&kind.as_str(), &held.lease.owner, &held.millis(), &mine],
        )
        .await?;
    let mut adopted = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.get(0);
        held.insert(&id, r.get(1));
        adopted.push(id);
    }
    let ids: Vec<String> = if all { held.snapshot().into_iter().map(|(id, _)| id).collect() } else { adopted.clone() };
    drop(client);
    let games =
        load_where(pool, "kind = $1 AND status = 'active' AND id = ANY ($2::text[])", &[&kind.as_str(), &ids]).await?;
    Ok((games, adopted))
}

/// A store started under the name of one before it (a restart) holds that one's games: the
/// first write to such a game takes its lease back at the next epoch, fencing the old process
/// should it still be alive. So does the first write to a game whose lease ran out (a game read
/// from the store on demand, as Duel's are): were what the writer holds stale, the log's own
/// checks (`OutOfOrder`, `Conflict`) refuse the write. Never a game this store lost: it is only
/// adopted again. Committed on its own, before the batch, so the epoch held is the one in the
/// database whatever becomes of the batch.
pub(super) async fn take_back(pool: &Pool, held: &Held, batch: &[(Write, Answer<()>)]) {
    let ids: HashSet<&str> = batch
        .iter()
        .filter_map(|(w, _)| match w {
            Write::Append { id, .. }
            | Write::Meta { id, .. }
            | Write::Standing { id, .. }
            | Write::Reset { id, .. } => Some(id.as_str()),
            Write::Create(_)
            | Write::Result(_)
            | Write::Import { .. }
            | Write::ForgetResults { .. }
            | Write::Tally { .. } => None,
        })
        .filter(|id| held.may_take_back(id))
        .collect();
    if ids.is_empty() {
        return;
    }
    let ids: Vec<&str> = ids.into_iter().collect();
    let Ok(client) = pool.get().await else { return };
    // A database error leaves the games unheld: their writes are refused, as they would be.
    if let Ok(rows) = client
        .query(
            "UPDATE leases SET owner = $2, epoch = epoch + 1,
                 expires_at = clock_timestamp() + $3::float8 * interval '1 millisecond'
             WHERE game_id = ANY ($1::text[]) AND (owner = $2 OR expires_at < clock_timestamp())
             RETURNING game_id, epoch",
            &[&ids, &held.lease.owner, &held.millis()],
        )
        .await
    {
        for r in rows {
            held.insert(r.get(0), r.get(1));
        }
    }
}
