//! The people's side on PostgreSQL: each command in a transaction of its own, run by the writer
//! task (so it is ordered with the games' writes). A rated game locks its seats' account rows
//! first, in id order, so two games ending together for one person on two instances rate one
//! after the other and neither update is lost.

use deadpool_postgres::{Pool, Transaction};
use tokio_postgres::Row;

use crate::command::PeopleCmd;
use crate::people::{
    check_rated, check_seats, cut_agent, Account, Attempt, Belief, Board, BoardQuery, BoardRow, Ceremony, Credential,
    CredentialKind, Deleted, Limit, NewAccount, NewCredential, NewSession, PoolRating, RatedGame, RatingChange,
    RatingPoint, RatingState, SeatLink, Session, Swept,
};
use crate::{now, StoreError};

/// Runs one command and answers it.
pub(crate) async fn run(pool: &Pool, cmd: PeopleCmd) {
    let mut client = match pool.get().await {
        Ok(c) => c,
        Err(e) => return cmd.refuse(StoreError::Connect(e.to_string())),
    };
    let tx = match client.transaction().await {
        Ok(t) => t,
        Err(e) => return cmd.refuse(e.into()),
    };
    macro_rules! answer {
        ($reply:expr, $body:expr) => {{
            let r = $body.await;
            let r = match r {
                Ok(v) => tx.commit().await.map(|()| v).map_err(StoreError::from),
                Err(e) => Err(e),
            };
            let _ = $reply.send(r);
        }};
    }
    let t = &tx;
    match cmd {
        PeopleCmd::CreateAccount(a, reply) => answer!(reply, create_account(t, &a)),
        PeopleCmd::Account(id, reply) => answer!(reply, account_where(t, "id = $1", &id)),
        PeopleCmd::AccountNamed(key, reply) => answer!(reply, account_where(t, "name_key = $1", &key)),
        PeopleCmd::AddCredential(id, c, reply) => answer!(reply, add_credential(t, &id, &c)),
        PeopleCmd::Credentials(id, reply) => answer!(reply, credentials_where(t, "c.account_id = $1", &id)),
        PeopleCmd::Passkey(id, reply) => {
            answer!(reply, async { Ok(credentials_where(t, "c.id = $1 AND c.kind = 'passkey'", &id).await?.pop()) })
        }
        PeopleCmd::UsedCredential(id, data, at, reply) => answer!(reply, async {
            t.execute(
                "UPDATE credentials SET used_at = $2, data = COALESCE($3, data) WHERE id = $1",
                &[&id, &at, &data],
            )
            .await?;
            Ok(())
        }),
        PeopleCmd::RemoveCredential(account, id, reply) => answer!(reply, remove_credential(t, &account, &id)),
        PeopleCmd::DeleteAccount(id, reply) => answer!(reply, delete_account(t, &id)),
        PeopleCmd::CreateSession(s, reply) => answer!(reply, create_session(t, &s)),
        PeopleCmd::Session(hash, at, reply) => {
            answer!(reply, async { Ok(sessions_where(t, "s.token_hash = $1", &hash, at).await?.pop()) })
        }
        PeopleCmd::Sessions(id, at, reply) => answer!(reply, sessions_where(t, "s.account_id = $1", &id, at)),
        PeopleCmd::EndSession(hash, reply) => answer!(reply, async {
            t.execute("DELETE FROM sessions WHERE token_hash = $1", &[&hash]).await?;
            Ok(())
        }),
        PeopleCmd::EndSessions(id, reply) => {
            answer!(reply, async { Ok(t.execute("DELETE FROM sessions WHERE account_id = $1", &[&id]).await? as i64) })
        }
        PeopleCmd::PutCeremony(c, at, max, reply) => answer!(reply, async {
            t.execute("DELETE FROM ceremonies WHERE expires_at <= $1", &[&at]).await?;
            let live: i64 = t.query_one("SELECT COUNT(*) FROM ceremonies", &[]).await?.get(0);
            if live >= max {
                return Err(StoreError::TooManyCeremonies);
            }
            t.execute(
                "INSERT INTO ceremonies (id, kind, state, expires_at) VALUES ($1, $2, $3, $4)",
                &[&c.id, &c.kind, &c.state, &c.expires_at],
            )
            .await?;
            Ok(())
        }),
        PeopleCmd::TakeCeremony(id, kind, at, reply) => answer!(reply, take_ceremony(t, &id, &kind, at)),
        PeopleCmd::Attempt(key, at, limit, reply) => answer!(reply, attempt(t, &key, at, limit)),
        PeopleCmd::Forgive(key, reply) => answer!(reply, async {
            t.execute("DELETE FROM attempts WHERE key = $1", &[&key]).await?;
            Ok(())
        }),
        PeopleCmd::Sweep(at, window, reply) => answer!(reply, async {
            Ok(Swept {
                sessions: t.execute("DELETE FROM sessions WHERE expires_at <= $1", &[&at]).await? as i64,
                ceremonies: t.execute("DELETE FROM ceremonies WHERE expires_at <= $1", &[&at]).await? as i64,
                attempts: t.execute("DELETE FROM attempts WHERE since + $2 <= $1", &[&at, &window]).await? as i64,
            })
        }),
        PeopleCmd::Rate(game, reply) => answer!(reply, rate(t, game)),
        PeopleCmd::Ratings(id, reply) => answer!(reply, ratings(t, &id)),
        PeopleCmd::RatingHistory(id, pool, limit, reply) => answer!(reply, history(t, &id, &pool, limit)),
        PeopleCmd::Leaderboard(q, reply) => answer!(reply, leaderboard(t, &q)),
        PeopleCmd::LinkSeat(account, game, seat, at, reply) => answer!(reply, async {
            t.execute(
                "INSERT INTO seat_links (account_id, game_id, seat, since) VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING",
                &[&account, &game, &seat, &at],
            )
            .await?;
            Ok(())
        }),
        PeopleCmd::SeatLinks(id, limit, reply) => answer!(reply, async {
            let rows = t
                .query(
                    "SELECT game_id, seat, since FROM seat_links WHERE account_id = $1
                     ORDER BY since DESC, game_id, seat LIMIT $2",
                    &[&id, &limit.max(0)],
                )
                .await?;
            Ok(rows.iter().map(|r| SeatLink { game_id: r.get(0), seat: r.get(1), since: r.get(2) }).collect())
        }),
        PeopleCmd::SeatHolders(game, reply) => answer!(reply, async {
            let rows = t
                .query(
                    "SELECT l.seat, a.id, a.name, a.created_at, a.deleted_at FROM seat_links l
                     JOIN accounts a ON a.id = l.account_id WHERE l.game_id = $1 ORDER BY l.seat, l.since",
                    &[&game],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| {
                    (r.get(0), Account { id: r.get(1), name: r.get(2), created_at: r.get(3), deleted_at: r.get(4) })
                })
                .collect())
        }),
    }
}

async fn create_account(t: &Transaction<'_>, a: &NewAccount) -> Result<(), StoreError> {
    let at = now();
    // A refused insert would spoil the transaction: a taken key is answered by no row instead.
    let n = t
        .execute(
            "INSERT INTO accounts (id, name, name_key, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            &[&a.id, &a.name, &a.name_key, &at],
        )
        .await?;
    if n == 0 {
        let named = t.query_opt("SELECT 1 FROM accounts WHERE name_key = $1", &[&a.name_key]).await?;
        return Err(if named.is_some() { StoreError::NameTaken } else { StoreError::Duplicate(a.id.clone()) });
    }
    insert_credential(t, &a.id, &a.credential, at).await
}

async fn insert_credential(t: &Transaction<'_>, account: &str, c: &NewCredential, at: i64) -> Result<(), StoreError> {
    let id = match c.kind {
        CredentialKind::Password => {
            let id = NewCredential::password_id(account);
            t.execute("DELETE FROM credentials WHERE id = $1", &[&id]).await?;
            id
        }
        CredentialKind::Passkey => c.id.clone(),
    };
    let n = t
        .execute(
            "INSERT INTO credentials (id, account_id, kind, data, created_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (id) DO NOTHING",
            &[&id, &account, &c.kind.as_str(), &c.data, &at],
        )
        .await?;
    if n == 0 {
        return Err(StoreError::Duplicate(id));
    }
    Ok(())
}

async fn live(t: &Transaction<'_>, account: &str) -> Result<bool, StoreError> {
    Ok(t.query_opt("SELECT 1 FROM accounts WHERE id = $1 AND deleted_at IS NULL", &[&account]).await?.is_some())
}

async fn add_credential(t: &Transaction<'_>, account: &str, c: &NewCredential) -> Result<(), StoreError> {
    if !live(t, account).await? {
        return Err(StoreError::NoSuchAccount);
    }
    insert_credential(t, account, c, now()).await
}

fn account_row(r: &Row) -> Account {
    Account { id: r.get(0), name: r.get(1), created_at: r.get(2), deleted_at: r.get(3) }
}

async fn account_where(t: &Transaction<'_>, cond: &str, arg: &str) -> Result<Option<Account>, StoreError> {
    let sql = format!("SELECT id, name, created_at, deleted_at FROM accounts WHERE {cond}");
    Ok(t.query_opt(&sql, &[&arg]).await?.as_ref().map(account_row))
}

async fn credentials_where(t: &Transaction<'_>, cond: &str, arg: &str) -> Result<Vec<Credential>, StoreError> {
    let sql = format!(
        "SELECT c.id, c.account_id, c.kind, c.data, c.created_at, c.used_at FROM credentials c
         JOIN accounts a ON a.id = c.account_id WHERE a.deleted_at IS NULL AND {cond} ORDER BY c.created_at, c.id"
    );
    t.query(&sql, &[&arg])
        .await?
        .iter()
        .map(|r| {
            Ok(Credential {
                id: r.get(0),
                account: r.get(1),
                kind: CredentialKind::parse(r.get(2))?,
                data: r.get(3),
                created_at: r.get(4),
                used_at: r.get(5),
            })
        })
        .collect()
}

async fn remove_credential(t: &Transaction<'_>, account: &str, id: &str) -> Result<(), StoreError> {
    // The account's row locked: two removals at once cannot leave it with none.
    t.execute("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", &[&account]).await?;
    let n: i64 = t.query_one("SELECT COUNT(*) FROM credentials WHERE account_id = $1", &[&account]).await?.get(0);
    let mine = t.query_opt("SELECT 1 FROM credentials WHERE id = $1 AND account_id = $2", &[&id, &account]).await?;
    if mine.is_none() {
        return Err(StoreError::NoSuchCredential);
    }
    if n <= 1 {
        return Err(StoreError::LastCredential);
    }
    t.execute("DELETE FROM credentials WHERE id = $1", &[&id]).await?;
    Ok(())
}

async fn delete_account(t: &Transaction<'_>, id: &str) -> Result<Deleted, StoreError> {
    if !live(t, id).await? {
        return Err(StoreError::NoSuchAccount);
    }
    let gone = Deleted {
        sessions: t.execute("DELETE FROM sessions WHERE account_id = $1", &[&id]).await? as i64,
        credentials: t.execute("DELETE FROM credentials WHERE account_id = $1", &[&id]).await? as i64,
        ratings: t.execute("DELETE FROM ratings WHERE account_id = $1", &[&id]).await? as i64,
    };
    t.execute("DELETE FROM rating_history WHERE account_id = $1", &[&id]).await?;
    t.execute("UPDATE accounts SET name = '', name_key = NULL, deleted_at = $2 WHERE id = $1", &[&id, &now()]).await?;
    Ok(gone)
}

async fn create_session(t: &Transaction<'_>, s: &NewSession) -> Result<(), StoreError> {
    if !live(t, &s.account).await? {
        return Err(StoreError::NoSuchAccount);
    }
    let n = t
        .execute(
            "INSERT INTO sessions (token_hash, account_id, created_at, expires_at, agent) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING",
            &[&s.token_hash, &s.account, &now(), &s.expires_at, &cut_agent(&s.agent)],
        )
        .await?;
    if n == 0 {
        return Err(StoreError::Duplicate("session".into()));
    }
    Ok(())
}

async fn sessions_where(t: &Transaction<'_>, cond: &str, arg: &str, at: i64) -> Result<Vec<Session>, StoreError> {
    let sql = format!(
        "SELECT s.token_hash, s.created_at, s.expires_at, s.agent, a.id, a.name, a.created_at, a.deleted_at
         FROM sessions s JOIN accounts a ON a.id = s.account_id
         WHERE {cond} AND s.expires_at > $2 AND a.deleted_at IS NULL ORDER BY s.created_at DESC, s.token_hash"
    );
    let rows = t.query(&t.prepare_cached(&sql).await?, &[&arg, &at]).await?;
    Ok(rows
        .iter()
        .map(|r| Session {
            token_hash: r.get(0),
            created_at: r.get(1),
            expires_at: r.get(2),
            agent: r.get(3),
            account: Account { id: r.get(4), name: r.get(5), created_at: r.get(6), deleted_at: r.get(7) },
        })
        .collect())
}

async fn take_ceremony(t: &Transaction<'_>, id: &str, kind: &str, at: i64) -> Result<Option<Ceremony>, StoreError> {
    // Taken once whatever it is: a ceremony answered with the wrong kind is spent too.
    let row = t.query_opt("DELETE FROM ceremonies WHERE id = $1 RETURNING id, kind, state, expires_at", &[&id]).await?;
    let c = row.map(|r| Ceremony { id: r.get(0), kind: r.get(1), state: r.get(2), expires_at: r.get(3) });
    Ok(c.filter(|c| c.kind == kind && c.expires_at > at))
}

async fn attempt(t: &Transaction<'_>, key: &str, at: i64, limit: Limit) -> Result<Attempt, StoreError> {
    // The row is made first so that it can be locked: attempts counted at once on two
    // instances are counted one after the other.
    t.execute("INSERT INTO attempts (key, since, count) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING", &[&key, &at])
        .await?;
    let r = t.query_one("SELECT since, count FROM attempts WHERE key = $1 FOR UPDATE", &[&key]).await?;
    let (since, count): (i64, i64) = (r.get(0), r.get(1));
    if at < since + limit.window_ms {
        if count >= limit.limit {
            return Ok(Attempt::Wait(since + limit.window_ms - at));
        }
        t.execute("UPDATE attempts SET count = count + 1 WHERE key = $1", &[&key]).await?;
    } else {
        t.execute("UPDATE attempts SET since = $2, count = 1 WHERE key = $1", &[&key, &at]).await?;
    }
    Ok(Attempt::Allowed)
}

async fn rate(t: &Transaction<'_>, game: RatedGame) -> Result<Vec<RatingChange>, StoreError> {
    check_seats(&game.seats)?;
    let at = now();
    let id = &game.game_id;
    let fresh = t
        .execute(
            "INSERT INTO rated_games (game_id, game, pool, finished_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            &[id, &game.game, &game.pool, &at],
        )
        .await?;
    if fresh == 0 {
        return Ok(Vec::new());
    }
    if let Some(result) = &game.result {
        super::insert_result(t, result, at).await??;
    }
    let mut ids: Vec<&str> = game.seats.iter().map(|s| s.account.as_str()).collect();
    ids.sort_unstable();
    let locked = t
        .query(
            "SELECT id FROM accounts WHERE id = ANY ($1::text[]) AND deleted_at IS NULL ORDER BY id FOR UPDATE",
            &[&ids],
        )
        .await?;
    if locked.len() != ids.len() {
        return Err(StoreError::NoSuchAccount);
    }
    let mut before = Vec::with_capacity(game.seats.len());
    for s in &game.seats {
        let row = t
            .query_opt(
                "SELECT mean, deviation, games, last_played FROM ratings WHERE account_id = $1 AND pool = $2",
                &[&s.account, &game.pool],
            )
            .await?;
        before.push(row.map(|r| RatingState {
            mean: r.get(0),
            deviation: r.get(1),
            games: r.get(2),
            last_played: r.get(3),
        }));
    }
    let after = (game.rater)(&before).map_err(StoreError::Rating)?;
    check_rated(game.seats.len(), &after)?;
    let seats = game.seats.len() as i64;
    let mut changes = Vec::with_capacity(after.len());
    for ((s, b), a) in game.seats.iter().zip(before).zip(after) {
        t.execute(
            "INSERT INTO ratings (account_id, pool, mean, deviation, games, last_played) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (account_id, pool) DO UPDATE SET mean = excluded.mean, deviation = excluded.deviation,
                games = excluded.games, last_played = excluded.last_played",
            &[&s.account, &game.pool, &a.mean, &a.deviation, &a.games, &a.last_played],
        )
        .await?;
        t.execute(
            "INSERT INTO rating_history (account_id, pool, game_id, game, at, finish, seats,
                mean_before, deviation_before, mean, deviation, games)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            &[
                &s.account,
                &game.pool,
                id,
                &game.game,
                &at,
                &s.finish,
                &seats,
                &b.map(|b| b.mean),
                &b.map(|b| b.deviation),
                &a.mean,
                &a.deviation,
                &a.games,
            ],
        )
        .await?;
        changes.push(RatingChange { account: s.account.clone(), before: b, after: a });
    }
    Ok(changes)
}

async fn ratings(t: &Transaction<'_>, account: &str) -> Result<Vec<PoolRating>, StoreError> {
    let rows = t
        .query(
            "SELECT r.pool, r.mean, r.deviation, r.games, r.last_played FROM ratings r
             JOIN accounts a ON a.id = r.account_id WHERE r.account_id = $1 AND a.deleted_at IS NULL
             ORDER BY r.pool COLLATE \"C\"",
            &[&account],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| PoolRating {
            pool: r.get(0),
            rating: RatingState { mean: r.get(1), deviation: r.get(2), games: r.get(3), last_played: r.get(4) },
        })
        .collect())
}

async fn history(t: &Transaction<'_>, account: &str, pool: &str, limit: i64) -> Result<Vec<RatingPoint>, StoreError> {
    let rows = t
        .query(
            "SELECT game_id, game, at, finish, seats, mean_before, deviation_before, mean, deviation, games
             FROM rating_history WHERE account_id = $1 AND pool = $2 ORDER BY id DESC LIMIT $3",
            &[&account, &pool, &limit.max(0)],
        )
        .await?;
    let mut points: Vec<RatingPoint> = rows
        .iter()
        .map(|r| {
            let before = match (r.get::<_, Option<f64>>(5), r.get::<_, Option<f64>>(6)) {
                (Some(mean), Some(deviation)) => Some(Belief { mean, deviation }),
                _ => None,
            };
            let at: i64 = r.get(2);
            RatingPoint {
                game_id: r.get(0),
                game: r.get(1),
                at,
                finish: r.get(3),
                seats: r.get(4),
                before,
                after: RatingState { mean: r.get(7), deviation: r.get(8), games: r.get(9), last_played: Some(at) },
            }
        })
        .collect();
    points.reverse();
    Ok(points)
}

async fn leaderboard(t: &Transaction<'_>, q: &BoardQuery) -> Result<Board, StoreError> {
    const WHERE: &str = "FROM ratings r JOIN accounts a ON a.id = r.account_id
         WHERE r.pool = $1 AND r.games >= $2 AND r.last_played >= $3 AND a.deleted_at IS NULL";
    let total: i64 =
        t.query_one(&format!("SELECT COUNT(*) {WHERE}"), &[&q.pool, &q.min_games, &q.active_since]).await?.get(0);
    let rows = t
        .query(
            &format!(
                "SELECT a.id, a.name, r.mean, r.deviation, r.games, r.last_played {WHERE}
                 ORDER BY r.mean DESC, r.games DESC, a.created_at, a.id COLLATE \"C\" LIMIT $4 OFFSET $5"
            ),
            &[&q.pool, &q.min_games, &q.active_since, &q.limit.max(0), &q.offset.max(0)],
        )
        .await?;
    let rows = rows
        .iter()
        .map(|r| BoardRow {
            account: r.get(0),
            name: r.get(1),
            rating: RatingState { mean: r.get(2), deviation: r.get(3), games: r.get(4), last_played: r.get(5) },
        })
        .collect();
    Ok(Board { total, rows })
}
