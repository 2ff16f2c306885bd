//! The people's side on SQLite: each command in a transaction of its own, on the writer's
//! connection (so it is ordered with the games' writes, and a read sees every write before it).

use rusqlite::{params, Connection, OptionalExtension, Row, Transaction};

use crate::command::PeopleCmd;
use crate::people::{
    check_rated, check_seats, cut_agent, Account, Attempt, Belief, Board, BoardQuery, BoardRow, Ceremony, Credential,
    CredentialKind, Deleted, Limit, NewAccount, NewCredential, NewSession, PoolRating, RatedGame, RatingChange,
    RatingPoint, RatingState, SeatLink, Session, Swept,
};
use crate::{now, StoreError};

/// Runs one command and answers it.
pub(crate) fn run(conn: &mut Connection, cmd: PeopleCmd) {
    macro_rules! answer {
        ($tx:expr, $body:expr) => {{
            let r = in_tx(conn, $body);
            let _ = $tx.send(r);
        }};
    }
    match cmd {
        PeopleCmd::CreateAccount(a, tx) => answer!(tx, |t| create_account(t, &a)),
        PeopleCmd::Account(id, tx) => answer!(tx, |t| account_where(t, "id = ?1", &id)),
        PeopleCmd::AccountNamed(key, tx) => answer!(tx, |t| account_where(t, "name_key = ?1", &key)),
        PeopleCmd::AddCredential(id, c, tx) => answer!(tx, |t| add_credential(t, &id, &c)),
        PeopleCmd::Credentials(id, tx) => answer!(tx, |t| credentials(t, &id)),
        PeopleCmd::Passkey(id, tx) => answer!(tx, |t| passkey(t, &id)),
        PeopleCmd::UsedCredential(id, data, at, tx) => answer!(tx, |t| used(t, &id, data.as_deref(), at)),
        PeopleCmd::RemoveCredential(account, id, tx) => answer!(tx, |t| remove_credential(t, &account, &id)),
        PeopleCmd::DeleteAccount(id, tx) => answer!(tx, |t| delete_account(t, &id)),
        PeopleCmd::CreateSession(s, tx) => answer!(tx, |t| create_session(t, &s)),
        PeopleCmd::Session(hash, at, tx) => {
            answer!(tx, |t| Ok(sessions_where(t, "s.token_hash = ?1", &hash, at)?.pop()))
        }
        PeopleCmd::Sessions(id, at, tx) => answer!(tx, |t| sessions_where(t, "s.account_id = ?1", &id, at)),
        PeopleCmd::EndSession(hash, tx) => answer!(tx, |t| {
            t.execute("DELETE FROM sessions WHERE token_hash = ?1", params![hash])?;
            Ok(())
        }),
        PeopleCmd::EndSessions(id, tx) => {
            answer!(tx, |t| Ok(t.execute("DELETE FROM sessions WHERE account_id = ?1", params![id])? as i64))
        }
        PeopleCmd::PutCeremony(c, at, max, tx) => answer!(tx, |t| {
            t.execute("DELETE FROM ceremonies WHERE expires_at <= ?1", params![at])?;
            let live: i64 = t.query_row("SELECT COUNT(*) FROM ceremonies", [], |r| r.get(0))?;
            if live >= max {
                return Err(StoreError::TooManyCeremonies);
            }
            t.execute(
                "INSERT INTO ceremonies (id, kind, state, expires_at) VALUES (?1, ?2, ?3, ?4)",
                params![c.id, c.kind, c.state, c.expires_at],
            )?;
            Ok(())
        }),
        PeopleCmd::TakeCeremony(id, kind, at, tx) => answer!(tx, |t| take_ceremony(t, &id, &kind, at)),
        PeopleCmd::Attempt(key, at, limit, tx) => answer!(tx, |t| attempt(t, &key, at, limit)),
        PeopleCmd::Forgive(key, tx) => answer!(tx, |t| {
            t.execute("DELETE FROM attempts WHERE key = ?1", params![key])?;
            Ok(())
        }),
        PeopleCmd::Sweep(at, window, tx) => answer!(tx, |t| sweep(t, at, window)),
        PeopleCmd::Rate(game, tx) => answer!(tx, move |t| rate(t, game)),
        PeopleCmd::Ratings(id, tx) => answer!(tx, |t| ratings(t, &id)),
        PeopleCmd::RatingHistory(id, pool, limit, tx) => answer!(tx, |t| history(t, &id, &pool, limit)),
        PeopleCmd::Leaderboard(q, tx) => answer!(tx, |t| leaderboard(t, &q)),
        PeopleCmd::LinkSeat(account, game, seat, at, tx) => answer!(tx, |t| {
            t.execute(
                "INSERT INTO seat_links (account_id, game_id, seat, since) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT DO NOTHING",
                params![account, game, seat, at],
            )?;
            Ok(())
        }),
        PeopleCmd::SeatLinks(id, limit, tx) => answer!(tx, |t| seat_links(t, &id, limit)),
        PeopleCmd::SeatHolders(game, tx) => answer!(tx, |t| seat_holders(t, &game)),
    }
}

/// Runs `body` in a transaction, committed when it answers `Ok` (its answer then), rolled back
/// otherwise.
fn in_tx<T>(
    conn: &mut Connection,
    body: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let tx = conn.transaction()?;
    let r = body(&tx)?;
    tx.commit()?;
    Ok(r)
}

/// A refusal by a constraint, told apart from any other failure of the database.
fn constraint(e: &rusqlite::Error) -> Option<&str> {
    match e {
        rusqlite::Error::SqliteFailure(f, msg) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            Some(msg.as_deref().unwrap_or(""))
        }
        _ => None,
    }
}

fn create_account(t: &Transaction<'_>, a: &NewAccount) -> Result<(), StoreError> {
    let at = now();
    let r = t.execute(
        "INSERT INTO accounts (id, name, name_key, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![a.id, a.name, a.name_key, at],
    );
    match r {
        Err(e) if constraint(&e).is_some_and(|m| m.contains("name_key")) => return Err(StoreError::NameTaken),
        Err(e) if constraint(&e).is_some() => return Err(StoreError::Duplicate(a.id.clone())),
        r => drop(r?),
    }
    insert_credential(t, &a.id, &a.credential, at)
}

fn insert_credential(t: &Transaction<'_>, account: &str, c: &NewCredential, at: i64) -> Result<(), StoreError> {
    let id = match c.kind {
        CredentialKind::Password => {
            let id = NewCredential::password_id(account);
            t.execute("DELETE FROM credentials WHERE id = ?1", params![id])?;
            id
        }
        CredentialKind::Passkey => c.id.clone(),
    };
    let r = t.execute(
        "INSERT INTO credentials (id, account_id, kind, data, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, account, c.kind.as_str(), c.data, at],
    );
    match r {
        Err(e) if constraint(&e).is_some() => Err(StoreError::Duplicate(id)),
        r => r.map(drop).map_err(StoreError::from),
    }
}

fn live(t: &Transaction<'_>, account: &str) -> Result<bool, StoreError> {
    Ok(t.query_row("SELECT 1 FROM accounts WHERE id = ?1 AND deleted_at IS NULL", params![account], |_| Ok(()))
        .optional()?
        .is_some())
}

fn add_credential(t: &Transaction<'_>, account: &str, c: &NewCredential) -> Result<(), StoreError> {
    if !live(t, account)? {
        return Err(StoreError::NoSuchAccount);
    }
    insert_credential(t, account, c, now())
}

const ACCOUNT: &str = "SELECT id, name, created_at, deleted_at FROM accounts";

fn account_row(r: &Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account { id: r.get(0)?, name: r.get(1)?, created_at: r.get(2)?, deleted_at: r.get(3)? })
}

fn account_where(t: &Transaction<'_>, cond: &str, arg: &str) -> Result<Option<Account>, StoreError> {
    Ok(t.query_row(&format!("{ACCOUNT} WHERE {cond}"), params![arg], account_row).optional()?)
}

fn credential_row(r: &Row<'_>) -> rusqlite::Result<(Credential, String)> {
    let kind: String = r.get(2)?;
    Ok((
        Credential {
            id: r.get(0)?,
            account: r.get(1)?,
            kind: CredentialKind::Password,
            data: r.get(3)?,
            created_at: r.get(4)?,
            used_at: r.get(5)?,
        },
        kind,
    ))
}

fn credentials_where(t: &Transaction<'_>, cond: &str, arg: &str) -> Result<Vec<Credential>, StoreError> {
    let sql = format!(
        "SELECT c.id, c.account_id, c.kind, c.data, c.created_at, c.used_at FROM credentials c
         JOIN accounts a ON a.id = c.account_id WHERE a.deleted_at IS NULL AND {cond} ORDER BY c.created_at, c.id"
    );
    let rows = t.prepare(&sql)?.query_map(params![arg], credential_row)?.collect::<Result<Vec<_>, _>>()?;
    rows.into_iter().map(|(c, kind)| Ok(Credential { kind: CredentialKind::parse(&kind)?, ..c })).collect()
}

fn credentials(t: &Transaction<'_>, account: &str) -> Result<Vec<Credential>, StoreError> {
    credentials_where(t, "c.account_id = ?1", account)
}

fn passkey(t: &Transaction<'_>, id: &str) -> Result<Option<Credential>, StoreError> {
    Ok(credentials_where(t, "c.id = ?1 AND c.kind = 'passkey'", id)?.pop())
}

fn used(t: &Transaction<'_>, id: &str, data: Option<&str>, at: i64) -> Result<(), StoreError> {
    t.execute("UPDATE credentials SET used_at = ?2, data = COALESCE(?3, data) WHERE id = ?1", params![id, at, data])?;
    Ok(())
}

fn remove_credential(t: &Transaction<'_>, account: &str, id: &str) -> Result<(), StoreError> {
    let n: i64 =
        t.query_row("SELECT COUNT(*) FROM credentials WHERE account_id = ?1", params![account], |r| r.get(0))?;
    let mine = t
        .query_row("SELECT 1 FROM credentials WHERE id = ?1 AND account_id = ?2", params![id, account], |_| Ok(()))
        .optional()?
        .is_some();
    if !mine {
        return Err(StoreError::NoSuchCredential);
    }
    if n <= 1 {
        return Err(StoreError::LastCredential);
    }
    t.execute("DELETE FROM credentials WHERE id = ?1", params![id])?;
    Ok(())
}

fn delete_account(t: &Transaction<'_>, id: &str) -> Result<Deleted, StoreError> {
    if !live(t, id)? {
        return Err(StoreError::NoSuchAccount);
    }
    let gone = Deleted {
        sessions: t.execute("DELETE FROM sessions WHERE account_id = ?1", params![id])? as i64,
        credentials: t.execute("DELETE FROM credentials WHERE account_id = ?1", params![id])? as i64,
        ratings: t.execute("DELETE FROM ratings WHERE account_id = ?1", params![id])? as i64,
    };
    t.execute("DELETE FROM rating_history WHERE account_id = ?1", params![id])?;
    t.execute("UPDATE accounts SET name = '', name_key = NULL, deleted_at = ?2 WHERE id = ?1", params![id, now()])?;
    Ok(gone)
}

fn create_session(t: &Transaction<'_>, s: &NewSession) -> Result<(), StoreError> {
    if !live(t, &s.account)? {
        return Err(StoreError::NoSuchAccount);
    }
    let r = t.execute(
        "INSERT INTO sessions (token_hash, account_id, created_at, expires_at, agent) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![s.token_hash, s.account, now(), s.expires_at, cut_agent(&s.agent)],
    );
    match r {
        Err(e) if constraint(&e).is_some() => Err(StoreError::Duplicate("session".into())),
        r => r.map(drop).map_err(StoreError::from),
    }
}

fn sessions_where(t: &Transaction<'_>, cond: &str, arg: &str, at: i64) -> Result<Vec<Session>, StoreError> {
    let sql = format!(
        "SELECT s.token_hash, s.created_at, s.expires_at, s.agent, a.id, a.name, a.created_at, a.deleted_at
         FROM sessions s JOIN accounts a ON a.id = s.account_id
         WHERE {cond} AND s.expires_at > ?2 AND a.deleted_at IS NULL ORDER BY s.created_at DESC, s.token_hash"
    );
    let rows = t
        .prepare_cached(&sql)?
        .query_map(params![arg, at], |r| {
            Ok(Session {
                token_hash: r.get(0)?,
                created_at: r.get(1)?,
                expires_at: r.get(2)?,
                agent: r.get(3)?,
                account: Account { id: r.get(4)?, name: r.get(5)?, created_at: r.get(6)?, deleted_at: r.get(7)? },
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

fn take_ceremony(t: &Transaction<'_>, id: &str, kind: &str, at: i64) -> Result<Option<Ceremony>, StoreError> {
    let c = t
        .query_row("SELECT id, kind, state, expires_at FROM ceremonies WHERE id = ?1", params![id], |r| {
            Ok(Ceremony { id: r.get(0)?, kind: r.get(1)?, state: r.get(2)?, expires_at: r.get(3)? })
        })
        .optional()?;
    // Taken once whatever it is: a ceremony answered with the wrong kind is spent too.
    t.execute("DELETE FROM ceremonies WHERE id = ?1", params![id])?;
    Ok(c.filter(|c| c.kind == kind && c.expires_at > at))
}

fn attempt(t: &Transaction<'_>, key: &str, at: i64, limit: Limit) -> Result<Attempt, StoreError> {
    let row: Option<(i64, i64)> = t
        .query_row("SELECT since, count FROM attempts WHERE key = ?1", params![key], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    match row {
        Some((since, count)) if at < since + limit.window_ms => {
            if count >= limit.limit {
                return Ok(Attempt::Wait(since + limit.window_ms - at));
            }
            t.execute("UPDATE attempts SET count = count + 1 WHERE key = ?1", params![key])?;
        }
        _ => {
            t.execute(
                "INSERT INTO attempts (key, since, count) VALUES (?1, ?2, 1)
                 ON CONFLICT (key) DO UPDATE SET since = excluded.since, count = 1",
                params![key, at],
            )?;
        }
    }
    Ok(Attempt::Allowed)
}

fn sweep(t: &Transaction<'_>, at: i64, window_ms: i64) -> Result<Swept, StoreError> {
    Ok(Swept {
        sessions: t.execute("DELETE FROM sessions WHERE expires_at <= ?1", params![at])? as i64,
        ceremonies: t.execute("DELETE FROM ceremonies WHERE expires_at <= ?1", params![at])? as i64,
        attempts: t.execute("DELETE FROM attempts WHERE since + ?2 <= ?1", params![at, window_ms])? as i64,
    })
}

fn rating_of(t: &Transaction<'_>, account: &str, pool: &str) -> Result<Option<RatingState>, StoreError> {
    Ok(t.query_row(
        "SELECT mean, deviation, games, last_played FROM ratings WHERE account_id = ?1 AND pool = ?2",
        params![account, pool],
        |r| Ok(RatingState { mean: r.get(0)?, deviation: r.get(1)?, games: r.get(2)?, last_played: r.get(3)? }),
    )
    .optional()?)
}

fn rate(t: &Transaction<'_>, game: RatedGame) -> Result<Vec<RatingChange>, StoreError> {
    check_seats(&game.seats)?;
    let at = now();
    let id = &game.game_id;
    let fresh = t.execute(
        "INSERT INTO rated_games (game_id, game, pool, finished_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
        params![id, game.game, game.pool, at],
    )?;
    if fresh == 0 {
        return Ok(Vec::new());
    }
    if let Some(result) = &game.result {
        super::insert_result(t, result, at)?;
    }
    let mut before = Vec::with_capacity(game.seats.len());
    for s in &game.seats {
        if !live(t, &s.account)? {
            return Err(StoreError::NoSuchAccount);
        }
        before.push(rating_of(t, &s.account, &game.pool)?);
    }
    let after = (game.rater)(&before).map_err(StoreError::Rating)?;
    check_rated(game.seats.len(), &after)?;
    let mut changes = Vec::with_capacity(after.len());
    for ((s, b), a) in game.seats.iter().zip(before).zip(after) {
        t.execute(
            "INSERT INTO ratings (account_id, pool, mean, deviation, games, last_played) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (account_id, pool) DO UPDATE SET mean = excluded.mean, deviation = excluded.deviation,
                games = excluded.games, last_played = excluded.last_played",
            params![s.account, game.pool, a.mean, a.deviation, a.games, a.last_played],
        )?;
        t.execute(
            "INSERT INTO rating_history (account_id, pool, game_id, game, at, finish, seats,
                mean_before, deviation_before, mean, deviation, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                s.account,
                game.pool,
                id,
                game.game,
                at,
                s.finish,
                game.seats.len() as i64,
                b.map(|b| b.mean),
                b.map(|b| b.deviation),
                a.mean,
                a.deviation,
                a.games
            ],
        )?;
        changes.push(RatingChange { account: s.account.clone(), before: b, after: a });
    }
    Ok(changes)
}

fn ratings(t: &Transaction<'_>, account: &str) -> Result<Vec<PoolRating>, StoreError> {
    Ok(t.prepare(
        "SELECT r.pool, r.mean, r.deviation, r.games, r.last_played FROM ratings r
             JOIN accounts a ON a.id = r.account_id WHERE r.account_id = ?1 AND a.deleted_at IS NULL ORDER BY r.pool",
    )?
    .query_map(params![account], |r| {
        Ok(PoolRating {
            pool: r.get(0)?,
            rating: RatingState { mean: r.get(1)?, deviation: r.get(2)?, games: r.get(3)?, last_played: r.get(4)? },
        })
    })?
    .collect::<Result<_, _>>()?)
}

fn history(t: &Transaction<'_>, account: &str, pool: &str, limit: i64) -> Result<Vec<RatingPoint>, StoreError> {
    let mut points = t
        .prepare(
            "SELECT game_id, game, at, finish, seats, mean_before, deviation_before, mean, deviation, games
             FROM rating_history WHERE account_id = ?1 AND pool = ?2 ORDER BY id DESC LIMIT ?3",
        )?
        .query_map(params![account, pool, limit.max(0)], |r| {
            let before = match (r.get::<_, Option<f64>>(5)?, r.get::<_, Option<f64>>(6)?) {
                (Some(mean), Some(deviation)) => Some(Belief { mean, deviation }),
                _ => None,
            };
            let at = r.get(2)?;
            Ok(RatingPoint {
                game_id: r.get(0)?,
                game: r.get(1)?,
                at,
                finish: r.get(3)?,
                seats: r.get(4)?,
                before,
                after: RatingState { mean: r.get(7)?, deviation: r.get(8)?, games: r.get(9)?, last_played: Some(at) },
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    points.reverse();
    Ok(points)
}

fn leaderboard(t: &Transaction<'_>, q: &BoardQuery) -> Result<Board, StoreError> {
    const WHERE: &str = "FROM ratings r JOIN accounts a ON a.id = r.account_id
         WHERE r.pool = ?1 AND r.games >= ?2 AND r.last_played >= ?3 AND a.deleted_at IS NULL";
    let total =
        t.query_row(&format!("SELECT COUNT(*) {WHERE}"), params![q.pool, q.min_games, q.active_since], |r| r.get(0))?;
    let rows = t
        .prepare(&format!(
            "SELECT a.id, a.name, r.mean, r.deviation, r.games, r.last_played {WHERE}
             ORDER BY r.mean DESC, r.games DESC, a.created_at, a.id LIMIT ?4 OFFSET ?5"
        ))?
        .query_map(params![q.pool, q.min_games, q.active_since, q.limit.max(0), q.offset.max(0)], |r| {
            Ok(BoardRow {
                account: r.get(0)?,
                name: r.get(1)?,
                rating: RatingState { mean: r.get(2)?, deviation: r.get(3)?, games: r.get(4)?, last_played: r.get(5)? },
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(Board { total, rows })
}

fn seat_links(t: &Transaction<'_>, account: &str, limit: i64) -> Result<Vec<SeatLink>, StoreError> {
    Ok(t.prepare(
        "SELECT game_id, seat, since FROM seat_links WHERE account_id = ?1
             ORDER BY since DESC, game_id, seat LIMIT ?2",
    )?
    .query_map(params![account, limit.max(0)], |r| {
        Ok(SeatLink { game_id: r.get(0)?, seat: r.get(1)?, since: r.get(2)? })
    })?
    .collect::<Result<_, _>>()?)
}

fn seat_holders(t: &Transaction<'_>, game: &str) -> Result<Vec<(i64, Account)>, StoreError> {
    Ok(t.prepare(
        "SELECT l.seat, a.id, a.name, a.created_at, a.deleted_at FROM seat_links l
             JOIN accounts a ON a.id = l.account_id WHERE l.game_id = ?1 ORDER BY l.seat, l.since",
    )?
    .query_map(params![game], |r| {
        Ok((r.get(0)?, Account { id: r.get(1)?, name: r.get(2)?, created_at: r.get(3)?, deleted_at: r.get(4)? }))
    })?
    .collect::<Result<_, _>>()?)
}
