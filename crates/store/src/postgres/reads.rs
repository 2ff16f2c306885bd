//! Reads: games with their logs, results, the statistics' totals, a game's holder.

use deadpool_postgres::{GenericClient, Pool};

use crate::command::Cmd;
use crate::{
    Entry, GameResult, Header, Kind, Meta, Outcome, Record, Standing, StoreError, StoredGame, Tally, TallyPage,
};

/// Answers a read (a write is not one: it is ignored here).
pub(super) async fn answer(pool: &Pool, cmd: Cmd) {
    match cmd {
        Cmd::Load(id, reply) => {
            let _ = reply.send(load_where(pool, "id = $1", &[&id]).await.map(|mut v| v.pop()));
        }
        Cmd::Results(kind, reply) => {
            let _ = reply.send(results_where(pool, "kind = $1", kind.as_str()).await);
        }
        Cmd::ResultsOf(id, reply) => {
            let _ = reply.send(results_where(pool, "game_id = $1", &id).await);
        }
        Cmd::Untallied(kind, reply) => {
            let _ = reply.send(results_where(pool, "kind = $1 AND counted = -1", kind.as_str()).await);
        }
        Cmd::Tallies(kind, offset, limit, reply) => {
            let _ = reply.send(tallies_page(pool, kind, offset, limit).await);
        }
        Cmd::Holder(id, reply) => {
            let _ = reply.send(holder(pool, &id).await);
        }
        // Run by the writer itself (`people`).
        Cmd::Write(..) | Cmd::Adopt(..) | Cmd::Release(_) | Cmd::HandOver(_) | Cmd::People(_) => {}
    }
}

pub(super) async fn load_where(
    pool: &Pool,
    cond: &str,
    args: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<Vec<StoredGame>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let sql = format!(
        "SELECT id, kind, record, meta, status, created_at, updated_at FROM games WHERE {cond}
         ORDER BY created_at, id"
    );
    let rows = client.query(&sql, args).await?;
    let log = client.prepare_cached("SELECT action FROM actions WHERE game_id = $1 ORDER BY seq").await?;
    let mut games = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.get(0);
        let actions = client.query(&log, &[&id]).await?.into_iter().map(|a| Entry::stored(a.get(0))).collect();
        games.push(StoredGame {
            kind: Kind::parse(r.get(1))?,
            header: Header::stored(r.get(2)),
            meta: Meta::stored(r.get(3)),
            standing: Standing::parse(r.get(4)),
            actions,
            created_at: r.get(5),
            updated_at: r.get(6),
            id,
        });
    }
    Ok(games)
}

async fn holder(pool: &Pool, id: &str) -> Result<Option<String>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    // Games from before leases have the empty owner: nobody holds them until adopted.
    let row = client.query_opt("SELECT owner FROM leases WHERE game_id = $1 AND owner <> ''", &[&id]).await?;
    Ok(row.map(|r| r.get(0)))
}

async fn tallies_page(pool: &Pool, kind: Kind, offset: u64, limit: u64) -> Result<TallyPage, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let k = kind.as_str();
    let players: i64 = client.query_one("SELECT COUNT(*) FROM tallies WHERE kind = $1", &[&k]).await?.get(0);
    let games: i64 =
        client.query_one("SELECT COUNT(*) FROM results WHERE kind = $1 AND counted = 1", &[&k]).await?.get(0);
    let (limit, offset) = (limit.min(i64::MAX as u64) as i64, offset.min(i64::MAX as u64) as i64);
    let rows = client
        .query(
            "SELECT name, games, wins, points, challenges_won, uno_missed FROM tallies WHERE kind = $1
             ORDER BY games DESC, wins DESC, name COLLATE \"C\" LIMIT $2 OFFSET $3",
            &[&k, &limit, &offset],
        )
        .await?;
    let page = rows
        .into_iter()
        .map(|r| Tally {
            name: r.get(0),
            games: r.get(1),
            wins: r.get(2),
            points: r.get(3),
            challenges_won: r.get(4),
            uno_missed: r.get(5),
        })
        .collect();
    Ok(TallyPage { players, games, page })
}

async fn results_where(pool: &Pool, cond: &str, arg: &str) -> Result<Vec<GameResult>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let sql =
        format!("SELECT game_id, kind, record, actions, result, finished_at FROM results WHERE {cond} ORDER BY id");
    let rows = client.query(&sql, &[&arg]).await?;
    rows.into_iter()
        .map(|r| {
            Ok(GameResult {
                game_id: r.get(0),
                kind: Kind::parse(r.get(1))?,
                record: Record::stored(r.get(2)),
                actions: r.get(3),
                outcome: Outcome::stored(r.get(4)),
                finished_at: r.get(5),
            })
        })
        .collect()
}
