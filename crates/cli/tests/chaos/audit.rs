//! The harness's own record of who wrote what: a trigger on `actions` notes, for every stored
//! action, the instance that wrote it (its connection's `application_name`, which each node's
//! database URL sets), the table's lease (owner and epoch) as the writing transaction sees it,
//! and when (the database's clock, in ms since the Unix epoch). No split brain means every
//! action was written by the instance the lease named at that moment; the rolling restart's
//! stall is read from when the new owner's first action was stored.
//!
//! Each call opens a connection of its own (PostgreSQL is restarted and killed by other faults).

use std::collections::HashMap;

use tokio_postgres::{Client, NoTls};

const INSTALL: &str = "
CREATE TABLE chaos_writes (
    game_id TEXT NOT NULL,
    seq     BIGINT NOT NULL,
    writer  TEXT NOT NULL,
    owner   TEXT,
    epoch   BIGINT,
    at_ms   BIGINT NOT NULL
);
CREATE INDEX chaos_writes_game ON chaos_writes (game_id, at_ms);
CREATE FUNCTION chaos_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO chaos_writes (game_id, seq, writer, owner, epoch, at_ms)
    SELECT NEW.game_id, NEW.seq, current_setting('application_name'), l.owner, l.epoch,
           (extract(epoch FROM clock_timestamp()) * 1000)::bigint
    FROM (SELECT 1) AS one LEFT JOIN leases l ON l.game_id = NEW.game_id;
    RETURN NEW;
END $$;
CREATE TRIGGER chaos_write AFTER INSERT ON actions FOR EACH ROW EXECUTE FUNCTION chaos_write();
";

/// A connection to the database at `url` (its task on the current runtime).
pub async fn connect(url: &str) -> Result<Client, tokio_postgres::Error> {
    let (client, conn) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(conn);
    Ok(client)
}

/// Installs the trigger (once the instances made the schema).
pub async fn install(url: &str) -> Result<(), tokio_postgres::Error> {
    connect(url).await?.batch_execute(INSTALL).await
}

/// Milliseconds since the Unix epoch on this machine's clock (the database's is the same).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// Actions written by an instance the table's lease did not name when it wrote them (split
/// brain), at most 20 described; and how many actions the audit holds.
pub async fn misattributed(url: &str) -> Result<(Vec<String>, i64), tokio_postgres::Error> {
    let c = connect(url).await?;
    let rows = c
        .query(
            "SELECT game_id, seq, writer, owner, epoch FROM chaos_writes
             WHERE owner IS DISTINCT FROM writer ORDER BY at_ms LIMIT 20",
            &[],
        )
        .await?;
    let bad = rows
        .iter()
        .map(|r| {
            let (id, seq, writer): (String, i64, String) = (r.get(0), r.get(1), r.get(2));
            let (owner, epoch): (Option<String>, Option<i64>) = (r.get(3), r.get(4));
            format!("{id} action {seq} written by {writer} while the lease named {owner:?} (epoch {epoch:?})")
        })
        .collect();
    let total: i64 = c.query_one("SELECT count(*) FROM chaos_writes", &[]).await?.get(0);
    Ok((bad, total))
}

/// The tables in play whose lease `owner` holds now, with the epoch it holds each at.
pub async fn held_by(url: &str, owner: &str) -> Result<HashMap<String, i64>, tokio_postgres::Error> {
    let c = connect(url).await?;
    let rows = c
        .query(
            "SELECT l.game_id, l.epoch FROM leases l JOIN games g ON g.id = l.game_id
             WHERE l.owner = $1 AND g.status = 'active'",
            &[&owner],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// The actions stored to `id` from `from_ms` to `to_ms`, each as `seq writer@epoch +ms` (ms
/// after `from_ms`): who wrote a stalled table's actions around a fault, for its report.
pub async fn writes_between(
    url: &str,
    id: &str,
    from_ms: i64,
    to_ms: i64,
) -> Result<Vec<String>, tokio_postgres::Error> {
    let c = connect(url).await?;
    let rows = c
        .query(
            "SELECT seq, writer, epoch, at_ms FROM chaos_writes
             WHERE game_id = $1 AND at_ms BETWEEN $2 AND $3 ORDER BY at_ms, seq LIMIT 40",
            &[&id, &from_ms, &to_ms],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| {
            let (seq, writer, epoch, at): (i64, String, Option<i64>, i64) = (r.get(0), r.get(1), r.get(2), r.get(3));
            format!("{seq} {writer}@{} +{}", epoch.unwrap_or(-1), at - from_ms)
        })
        .collect())
}

/// For each table of `held` (id → the epoch its owner held it at), when the first action at a
/// later epoch (a new owner's) was stored at or after `since_ms`.
pub async fn first_new_owner_write(
    url: &str,
    held: &HashMap<String, i64>,
    since_ms: i64,
) -> Result<HashMap<String, i64>, tokio_postgres::Error> {
    let c = connect(url).await?;
    let mut out = HashMap::new();
    for (id, epoch) in held {
        let row = c
            .query_one(
                "SELECT min(at_ms) FROM chaos_writes WHERE game_id = $1 AND epoch > $2 AND at_ms >= $3",
                &[id, epoch, &since_ms],
            )
            .await?;
        if let Some(at) = row.get::<_, Option<i64>>(0) {
            out.insert(id.clone(), at);
        }
    }
    Ok(out)
}

/// The actions `writer` stored at or after `since_ms` to the tables of `held` (those it held
/// before a pause): how many, and each one written while the lease named another instance
/// (a resumed owner writing to a table adopted from it: split brain), described.
pub async fn writes_since(
    url: &str,
    writer: &str,
    held: &HashMap<String, i64>,
    since_ms: i64,
) -> Result<(Vec<String>, i64), tokio_postgres::Error> {
    let c = connect(url).await?;
    let mut bad = Vec::new();
    let mut all = 0;
    for id in held.keys() {
        let rows = c
            .query(
                "SELECT seq, owner, epoch FROM chaos_writes WHERE game_id = $1 AND writer = $2 AND at_ms >= $3",
                &[id, &writer, &since_ms],
            )
            .await?;
        for r in &rows {
            all += 1;
            let (seq, owner, at): (i64, Option<String>, Option<i64>) = (r.get(0), r.get(1), r.get(2));
            if owner.as_deref() != Some(writer) {
                bad.push(format!("{id} action {seq} written by the resumed {writer} (lease: {owner:?}, epoch {at:?})"));
            }
        }
    }
    Ok((bad, all))
}

/// What the database says of the leases now: (owner, tables in play) for each owner.
pub async fn owners(url: &str) -> Result<Vec<(String, i64)>, tokio_postgres::Error> {
    let c = connect(url).await?;
    let rows = c
        .query(
            "SELECT l.owner, count(*) FROM leases l JOIN games g ON g.id = l.game_id
             WHERE g.status = 'active' GROUP BY l.owner ORDER BY count(*) DESC, l.owner",
            &[],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}
