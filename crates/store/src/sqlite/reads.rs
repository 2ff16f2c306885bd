//! Reads: games with their logs, results, the statistics' totals.

use rusqlite::{params, Connection};

use crate::command::Cmd;
use crate::journal::Journal;
use crate::{
    Entry, GameResult, Header, Kind, Meta, Outcome, Record, Standing, StoreError, StoredGame, Tally, TallyPage,
};

/// Answers a read (a write is not one: it is ignored here).
pub(super) fn answer(conn: &Connection, journal: &mut Journal, cmd: Cmd) {
    if let Err(e) = journal.ensure(conn) {
        let msg = || StoreError::Commit(e.to_string());
        match cmd {
            Cmd::Adopt(_, _, reply) => drop(reply.send(Err(msg()))),
            Cmd::Holder(_, reply) => drop(reply.send(Err(msg()))),
            Cmd::Load(_, reply) => drop(reply.send(Err(msg()))),
            Cmd::Results(_, reply) | Cmd::ResultsOf(_, reply) | Cmd::Untallied(_, reply) => {
                drop(reply.send(Err(msg())))
            }
            Cmd::Tallies(.., reply) => drop(reply.send(Err(msg()))),
            Cmd::People(cmd) => cmd.refuse(msg()),
            Cmd::HandOver(reply) => drop(reply.send(Ok(0))),
            Cmd::Write(..) | Cmd::Release(_) => {}
        }
        return;
    }
    let journal = &*journal;
    match cmd {
        // No leases: every active game is this store's, and none is ever adopted.
        Cmd::Adopt(kind, true, reply) => {
            let _ = reply.send(load_where(conn, journal, "kind = ?1 AND status = 'active'", kind.as_str()));
        }
        Cmd::Adopt(_, false, reply) => drop(reply.send(Ok(Vec::new()))),
        Cmd::Holder(_, reply) => drop(reply.send(Ok(None))),
        Cmd::HandOver(reply) => drop(reply.send(Ok(0))),
        Cmd::Load(id, reply) => {
            let _ = reply.send(load_where(conn, journal, "id = ?1", &id).map(|mut v| v.pop()));
        }
        Cmd::Results(kind, reply) => {
            let _ = reply.send(results_where(conn, "kind = ?1", kind.as_str()));
        }
        Cmd::ResultsOf(id, reply) => {
            let _ = reply.send(results_where(conn, "game_id = ?1", &id));
        }
        Cmd::Untallied(kind, reply) => {
            let _ = reply.send(results_where(conn, "kind = ?1 AND counted = -1", kind.as_str()));
        }
        Cmd::Tallies(kind, offset, limit, reply) => {
            let _ = reply.send(tallies_page(conn, kind, offset, limit));
        }
        // Run by the writer itself (`people`).
        Cmd::Write(..) | Cmd::Release(_) | Cmd::People(_) => {}
    }
}

fn load_where(conn: &Connection, journal: &Journal, cond: &str, arg: &str) -> Result<Vec<StoredGame>, StoreError> {
    let sql = format!(
        "SELECT id, kind, record, meta, status, created_at, updated_at FROM games WHERE {cond} ORDER BY created_at"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt
        .query_map(params![arg], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut games = Vec::with_capacity(rows.len());
    for (id, kind, header, meta, standing, created_at, updated_at) in rows {
        games.push(StoredGame {
            id,
            kind: Kind::parse(&kind)?,
            header: Header::stored(header),
            meta: Meta::stored(meta),
            standing: Standing::parse(&standing),
            actions: Vec::new(),
            created_at,
            updated_at,
        });
    }
    let mut log = conn.prepare_cached("SELECT action FROM actions WHERE game_id = ?1 ORDER BY seq")?;
    for g in &mut games {
        g.actions = log.query_map(params![g.id], |r| r.get(0).map(Entry::stored))?.collect::<Result<Vec<_>, _>>()?;
        g.actions.extend(journal.pending(&g.id).iter().cloned().map(Entry::stored));
    }
    Ok(games)
}

fn tallies_page(conn: &Connection, kind: Kind, offset: u64, limit: u64) -> Result<TallyPage, StoreError> {
    let k = kind.as_str();
    let players =
        conn.prepare_cached("SELECT COUNT(*) FROM tallies WHERE kind = ?1")?.query_row(params![k], |r| r.get(0))?;
    let games = conn
        .prepare_cached("SELECT COUNT(*) FROM results WHERE kind = ?1 AND counted = 1")?
        .query_row(params![k], |r| r.get(0))?;
    let page = conn
        .prepare_cached(
            "SELECT name, games, wins, points, challenges_won, uno_missed FROM tallies WHERE kind = ?1
             ORDER BY games DESC, wins DESC, name LIMIT ?2 OFFSET ?3",
        )?
        .query_map(params![k, limit.min(i64::MAX as u64) as i64, offset.min(i64::MAX as u64) as i64], |r| {
            Ok(Tally {
                name: r.get(0)?,
                games: r.get(1)?,
                wins: r.get(2)?,
                points: r.get(3)?,
                challenges_won: r.get(4)?,
                uno_missed: r.get(5)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(TallyPage { players, games, page })
}

fn results_where(conn: &Connection, cond: &str, arg: &str) -> Result<Vec<GameResult>, StoreError> {
    let sql =
        format!("SELECT game_id, kind, record, actions, result, finished_at FROM results WHERE {cond} ORDER BY id");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt
        .query_map(params![arg], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(game_id, kind, record, actions, outcome, finished_at)| {
            Ok(GameResult {
                game_id,
                kind: Kind::parse(&kind)?,
                record: Record::stored(record),
                actions,
                outcome: Outcome::stored(outcome),
                finished_at,
            })
        })
        .collect()
}
