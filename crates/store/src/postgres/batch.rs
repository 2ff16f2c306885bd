//! One batch of writes in one transaction: each write checked against the lease and the log,
//! appends sent together.

use std::collections::{HashMap, HashSet};

use deadpool_postgres::{Pool, Transaction};

use super::held::Held;
use crate::command::{Answer, Write};
use crate::{
    now, tallies_from_json, tallies_json, Header, Kind, Meta, NewGame, NewResult, StoreError, Tally, ADD_TALLY,
    UNTALLIED,
};

/// What becomes of one write: done, or refused on its own. (An error around it, the outer one
/// of the functions below, fails the whole batch.)
type Each = Result<(), StoreError>;

/// The outer error fails the whole batch; the inner ones are the writes refused on their own.
/// `seen` collects the next numbers as this batch leaves them, for after the commit.
pub(super) async fn run_batch(
    pool: &Pool,
    held: &Held,
    known: &HashMap<String, i64>,
    seen: &mut HashMap<String, i64>,
    lost: &mut HashSet<String>,
    batch: &[(Write, Answer<()>)],
) -> Result<Vec<Each>, StoreError> {
    let mut client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let tx = client.transaction().await?;
    lock_in_order(&tx, held, batch).await?;
    let txn = Txn { tx: &tx, held, t: now() };
    let mut each = Vec::with_capacity(batch.len());
    let insert = tx.prepare_cached(INSERT_ACTION).await?;
    let mut group = Group::default();
    for (w, _) in batch {
        // Appends are sent together (pipelined) and answered together: one round trip for the
        // actions of many tables. A second append to a game in the group, or any other write,
        // waits for the group's answers, since it depends on them.
        match w {
            Write::Append { id, .. } if !group.games.contains(id.as_str()) => {}
            _ => group.flush(&tx, held, &insert, &mut each, seen, lost).await?,
        }
        let r = match w {
            Write::Create(g) => txn.create(g, seen).await?,
            Write::Append { id, seq, .. } if lost.contains(id) => {
                Err(StoreError::Conflict { id: id.clone(), seq: *seq })
            }
            Write::Append { id, seq, entry } => {
                let expected = match seen.get(id).or_else(|| known.get(id)) {
                    Some(&n) => Some(n),
                    None => txn.next_seq(id).await?,
                };
                txn.check_append(id, *seq, expected, seen).map(|epoch| {
                    // Answered when the group is flushed.
                    group.inserts.push(Insert { at: each.len(), id, seq: *seq, json: entry.as_json(), epoch });
                    group.games.insert(id);
                    seen.insert(id.clone(), seq + 1);
                })
            }
            Write::Meta { id, .. } | Write::Standing { id, .. } | Write::Reset { id, .. }
                if !fence(&tx, held, id).await? =>
            {
                Err(if exists(&tx, id).await? {
                    StoreError::Fenced { id: id.clone() }
                } else {
                    StoreError::NoSuchGame(id.clone())
                })
            }
            Write::Meta { id, meta } => {
                txn.update(id, "UPDATE games SET meta = $2, updated_at = $3 WHERE id = $1", meta.as_json()).await?
            }
            Write::Standing { id, standing } => {
                txn.update(id, "UPDATE games SET status = $2, updated_at = $3 WHERE id = $1", standing.as_str()).await?
            }
            Write::Reset { id, header, meta } => {
                let r = txn.reset(id, header, meta).await?;
                if r.is_ok() {
                    seen.insert(id.clone(), 0);
                    lost.remove(id);
                }
                r
            }
            Write::Result(r) => txn.result(r).await?,
            Write::Import { result, budget } => txn.import(result, *budget).await?,
            Write::Tally { kind, game_id, finished_at, tallies } => {
                txn.tally(*kind, game_id, *finished_at, tallies).await?
            }
            Write::ForgetResults { kind, before } => txn.forget_results(*kind, *before).await?,
        };
        each.push(r);
    }
    group.flush(&tx, held, &insert, &mut each, seen, lost).await?;
    tx.commit().await?;
    Ok(each)
}

/// A batch's transaction, with what its writes are checked against.
struct Txn<'a, 't> {
    tx: &'a Transaction<'t>,
    held: &'a Held,
    /// The batch's time, for every row it writes.
    t: i64,
}

impl Txn<'_, '_> {
    /// Creates a game and takes its lease at epoch 1.
    async fn create(&self, g: &NewGame, seen: &mut HashMap<String, i64>) -> Result<Each, StoreError> {
        if self.held.is_handed_over() {
            // Stopping: a game made now would be held for a lease by a process about to exit.
            return Ok(Err(StoreError::Closed));
        }
        let tx = self.tx;
        let n = tx
            .execute(
                &tx.prepare_cached(
                    "INSERT INTO games (id, kind, record, meta, status, created_at, updated_at)
                     VALUES ($1, $2, $3, $4, 'active', $5, $5) ON CONFLICT (id) DO NOTHING",
                )
                .await?,
                &[&g.id, &g.kind.as_str(), &g.header.as_json(), &g.meta.as_json(), &self.t],
            )
            .await?;
        if n == 0 {
            return Ok(Err(StoreError::Duplicate(g.id.clone())));
        }
        tx.execute(
            &tx.prepare_cached(
                "INSERT INTO leases (game_id, owner, epoch, expires_at)
                 VALUES ($1, $2, 1, clock_timestamp() + $3::float8 * interval '1 millisecond')",
            )
            .await?,
            &[&g.id, &self.held.lease.owner, &self.held.millis()],
        )
        .await?;
        // Should the commit fail, the batch's failure forgets it (`commit`).
        self.held.insert(&g.id, 1);
        seen.insert(g.id.clone(), 0);
        Ok(Ok(()))
    }

    /// The number the next append to the game must carry, read from the database; `None` for
    /// no such game.
    async fn next_seq(&self, id: &String) -> Result<Option<i64>, StoreError> {
        let tx = self.tx;
        let row = tx
            .query_opt(
                &tx.prepare_cached(
                    "SELECT COALESCE((SELECT MAX(seq) + 1 FROM actions WHERE game_id = $1), 0)
                     FROM games WHERE id = $1",
                )
                .await?,
                &[id],
            )
            .await?;
        Ok(row.map(|r| r.get::<_, i64>(0)))
    }

    /// Checks an append against the number `expected` next (`None`: no such game) and the
    /// lease: the epoch to append it at, or why it is refused.
    fn check_append(
        &self,
        id: &str,
        seq: i64,
        expected: Option<i64>,
        seen: &mut HashMap<String, i64>,
    ) -> Result<i64, StoreError> {
        let epoch = self.held.epoch(id);
        match expected {
            None => Err(StoreError::NoSuchGame(id.to_string())),
            Some(_) if epoch.is_none() => Err(StoreError::Fenced { id: id.to_string() }),
            Some(expected) if expected != seq => {
                seen.insert(id.to_string(), expected);
                Err(StoreError::OutOfOrder { id: id.to_string(), expected, got: seq })
            }
            Some(_) => Ok(epoch.unwrap_or_default()),
        }
    }

    /// Sets one column of game `id` and its time: `sql` updates it, with the id, the value and
    /// the time as `$1`, `$2` and `$3`.
    async fn update(&self, id: &String, sql: &str, value: &str) -> Result<Each, StoreError> {
        let tx = self.tx;
        let n = tx.execute(&tx.prepare_cached(sql).await?, &[id, &value, &self.t]).await?;
        Ok(touched(n, id))
    }

    /// A rematch: the log emptied, a new header.
    async fn reset(&self, id: &String, header: &Header, meta: &Meta) -> Result<Each, StoreError> {
        let tx = self.tx;
        tx.execute(&tx.prepare_cached("DELETE FROM actions WHERE game_id = $1").await?, &[id]).await?;
        let n = tx
            .execute(
                &tx.prepare_cached(
                    "UPDATE games SET record = $2, meta = $3, status = 'active', updated_at = $4
                     WHERE id = $1",
                )
                .await?,
                &[id, &header.as_json(), &meta.as_json(), &self.t],
            )
            .await?;
        Ok(touched(n, id))
    }

    /// Stores a result and adds its tallies to the totals.
    async fn result(&self, r: &NewResult) -> Result<Each, StoreError> {
        insert_result(self.tx, r, self.t).await
    }

    /// An imported record, marked, then the oldest imports past the budget forgotten.
    async fn import(&self, r: &NewResult, budget: u64) -> Result<Each, StoreError> {
        let tx = self.tx;
        let each = insert_result(tx, r, self.t).await?;
        tx.execute("UPDATE results SET imported = 1 WHERE id = currval(pg_get_serial_sequence('results', 'id'))", &[])
            .await?;
        tx.execute(
            &tx.prepare_cached(
                "DELETE FROM results WHERE id IN (
                     SELECT id FROM (
                         SELECT id, SUM(octet_length(record)) OVER (ORDER BY id DESC) AS total
                         FROM results WHERE imported = 1
                     ) AS kept WHERE total > $1::BIGINT
                 )",
            )
            .await?,
            &[&i64::try_from(budget).unwrap_or(i64::MAX)],
        )
        .await?;
        Ok(each)
    }

    /// Tallies a result stored before tallies, once.
    async fn tally(
        &self,
        kind: Kind,
        game_id: &String,
        finished_at: i64,
        tallies: &Option<Vec<Tally>>,
    ) -> Result<Each, StoreError> {
        let tx = self.tx;
        let (counted, json) = tallies_json(tallies)?;
        let n = tx
            .execute(
                &tx.prepare_cached(
                    "UPDATE results SET counted = $1, tallies = $2
                     WHERE kind = $3 AND game_id = $4 AND finished_at = $5 AND counted = $6",
                )
                .await?,
                &[&counted, &json, &kind.as_str(), game_id, &finished_at, &UNTALLIED],
            )
            .await?;
        for _ in 0..n {
            add_tallies(tx, kind, tallies.as_deref().unwrap_or(&[]), 1).await?;
        }
        Ok(Ok(()))
    }

    /// Everything of a game that left play before `before`: its row, with its log and lease
    /// (`ON DELETE CASCADE`), and its results, taken out of the totals. PostgreSQL's autovacuum
    /// reuses the space (docs/server.md).
    async fn forget_results(&self, kind: Kind, before: i64) -> Result<Each, StoreError> {
        let tx = self.tx;
        tx.execute(
            &tx.prepare_cached("DELETE FROM games WHERE kind = $1 AND status <> 'active' AND updated_at < $2").await?,
            &[&kind.as_str(), &before],
        )
        .await?;
        let gone = tx
            .query(
                &tx.prepare_cached("SELECT tallies FROM results WHERE kind = $1 AND finished_at < $2 AND counted = 1")
                    .await?,
                &[&kind.as_str(), &before],
            )
            .await?;
        for row in gone {
            add_tallies(tx, kind, &tallies_from_json(row.get(0))?, -1).await?;
        }
        tx.execute(
            &tx.prepare_cached("DELETE FROM results WHERE kind = $1 AND finished_at < $2").await?,
            &[&kind.as_str(), &before],
        )
        .await?;
        Ok(Ok(()))
    }
}

/// Stores a result finished at `t` and adds its tallies to the totals (also a rated game's,
/// `people`).
pub(crate) async fn insert_result(tx: &Transaction<'_>, r: &NewResult, t: i64) -> Result<Each, StoreError> {
    let (counted, json) = tallies_json(&r.tallies)?;
    tx.execute(
        &tx.prepare_cached(
            "INSERT INTO results (game_id, kind, record, actions, result, finished_at, counted, tallies)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .await?,
        &[
            &r.game_id,
            &r.kind.as_str(),
            &r.record.as_json(),
            &(r.actions as i64),
            &r.outcome.as_json(),
            &t,
            &counted,
            &json,
        ],
    )
    .await?;
    Ok(add_tallies(tx, r.kind, r.tallies.as_deref().unwrap_or(&[]), 1).await)
}

/// Share-locks, in id order, the lease rows of every game the batch writes, before any write:
/// the fences below would otherwise lock them in the batch's order, and the renewer (which
/// locks in id order too) could wait on this batch while it waits on the renewer.
async fn lock_in_order(tx: &Transaction<'_>, held: &Held, batch: &[(Write, Answer<()>)]) -> Result<(), StoreError> {
    let mut ids: Vec<&str> = batch
        .iter()
        .filter_map(|(w, _)| match w {
            Write::Append { id, .. }
            | Write::Meta { id, .. }
            | Write::Standing { id, .. }
            | Write::Reset { id, .. } => held.epoch(id).is_some().then_some(id.as_str()),
            Write::Create(_)
            | Write::Result(_)
            | Write::Import { .. }
            | Write::ForgetResults { .. }
            | Write::Tally { .. } => None,
        })
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    ids.sort_unstable();
    ids.dedup();
    tx.execute(
        &tx.prepare_cached(
            "SELECT 1 FROM leases WHERE game_id = ANY ($1::text[]) AND owner = $2 ORDER BY game_id FOR SHARE",
        )
        .await?,
        &[&ids, &held.lease.owner],
    )
    .await?;
    Ok(())
}

/// Whether this store still holds the game at its epoch; the row stays share-locked until the
/// transaction ends, so no adoption slips in before the write commits.
async fn fence(tx: &Transaction<'_>, held: &Held, id: &str) -> Result<bool, StoreError> {
    let Some(epoch) = held.epoch(id) else { return Ok(false) };
    let row = tx
        .query_opt(
            &tx.prepare_cached("SELECT 1 FROM leases WHERE game_id = $1 AND owner = $2 AND epoch = $3 FOR SHARE")
                .await?,
            &[&id, &held.lease.owner, &epoch],
        )
        .await?;
    if row.is_none() {
        held.lose(id, epoch);
    }
    Ok(row.is_some())
}

async fn exists(tx: &Transaction<'_>, id: &str) -> Result<bool, StoreError> {
    Ok(tx.query_opt(&tx.prepare_cached("SELECT 1 FROM games WHERE id = $1").await?, &[&id]).await?.is_some())
}

/// Appends the action if this owner holds the game's lease at this epoch (share-locking the
/// lease row until the commit), unless its number is taken, or the action before it is not in
/// the log.
const INSERT_ACTION: &str = "INSERT INTO actions (game_id, seq, action)
     SELECT $1::text, $2::bigint, $3::text
     WHERE EXISTS (SELECT 1 FROM leases WHERE game_id = $1::text AND owner = $5::text AND epoch = $4::bigint FOR SHARE)
       AND ($2::bigint = 0 OR EXISTS (SELECT 1 FROM actions WHERE game_id = $1::text AND seq = $2::bigint - 1))
     ON CONFLICT (game_id, seq) DO NOTHING";

struct Insert<'a> {
    /// Its write's place in the batch.
    at: usize,
    id: &'a String,
    seq: i64,
    json: &'a str,
    epoch: i64,
}

/// Appends sent but not yet answered, at most one per game.
#[derive(Default)]
struct Group<'a> {
    inserts: Vec<Insert<'a>>,
    games: HashSet<&'a str>,
}

impl Group<'_> {
    async fn flush(
        &mut self,
        tx: &Transaction<'_>,
        held: &Held,
        insert: &tokio_postgres::Statement,
        each: &mut [Result<(), StoreError>],
        seen: &mut HashMap<String, i64>,
        lost: &mut HashSet<String>,
    ) -> Result<(), StoreError> {
        if self.inserts.is_empty() {
            return Ok(());
        }
        let owner = &held.lease.owner;
        let params: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 5]> =
            self.inserts.iter().map(|i| [i.id as _, &i.seq as _, &i.json as _, &i.epoch as _, owner as _]).collect();
        let counts = futures_util::future::try_join_all(params.iter().map(|p| tx.execute(insert, p))).await?;
        for (i, n) in self.inserts.iter().zip(counts) {
            if n == 0 && !fence(tx, held, i.id).await? {
                seen.remove(i.id);
                each[i.at] = Err(StoreError::Fenced { id: i.id.clone() });
            } else if n == 0 {
                // Someone else's action holds this number, or the action before it is gone
                // (someone else started the game over): whatever this writer believed about the
                // game is stale.
                seen.remove(i.id);
                lost.insert(i.id.clone());
                each[i.at] = Err(StoreError::Conflict { id: i.id.clone(), seq: i.seq });
            }
        }
        self.inserts.clear();
        self.games.clear();
        Ok(())
    }
}

fn touched(n: u64, id: &str) -> Result<(), StoreError> {
    if n == 0 {
        Err(StoreError::NoSuchGame(id.to_string()))
    } else {
        Ok(())
    }
}

/// Adds `sign` times each tally to the totals of `kind`, and forgets the players left at none.
async fn add_tallies(tx: &Transaction<'_>, kind: Kind, tallies: &[Tally], sign: i64) -> Result<(), StoreError> {
    let add = tx.prepare_cached(ADD_TALLY).await?;
    for t in tallies {
        tx.execute(
            &add,
            &[
                &kind.as_str(),
                &t.name,
                &(sign * t.games),
                &(sign * t.wins),
                &(sign * t.points),
                &(sign * t.challenges_won),
                &(sign * t.uno_missed),
            ],
        )
        .await?;
    }
    if sign < 0 {
        tx.execute(&tx.prepare_cached("DELETE FROM tallies WHERE kind = $1 AND games <= 0").await?, &[&kind.as_str()])
            .await?;
    }
    Ok(())
}
