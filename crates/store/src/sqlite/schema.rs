//! The SQLite schema: its migrations, and running them at open.

use rusqlite::Connection;

use crate::StoreError;

/// Migrations, in order; `PRAGMA user_version` counts those applied.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: games, their action logs and their results.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        meta        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE INDEX games_status ON games (status);
    CREATE TABLE actions (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        action  TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE results (
        id          INTEGER PRIMARY KEY,
        game_id     TEXT NOT NULL,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        actions     INTEGER NOT NULL,
        result      TEXT NOT NULL,
        finished_at INTEGER NOT NULL
    );
    CREATE INDEX results_kind ON results (kind, finished_at);",
    // 2: appends go to `log`, in insertion order, and reach `actions` a game at a time (see
    // `journal`); `log_from` marks where a game's current log starts in `log` (a rematch).
    "CREATE TABLE log (
        id      INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        seq     INTEGER NOT NULL,
        action  TEXT NOT NULL
    );
    ALTER TABLE games ADD COLUMN log_from INTEGER NOT NULL DEFAULT 0;",
    // 3: a game's results are read by its id (its records, for replays).
    "CREATE INDEX results_game ON results (game_id, id);",
    // 4: statistics kept as totals, updated with each result: `counted` is 1 for a result whose
    // `tallies` are in the totals, 0 for one that counts for nothing, -1 for one stored before
    // (the server tallies those once).
    "ALTER TABLE results ADD COLUMN counted INTEGER NOT NULL DEFAULT -1;
    ALTER TABLE results ADD COLUMN tallies TEXT NOT NULL DEFAULT '';
    CREATE INDEX results_counted ON results (kind, counted);
    CREATE TABLE tallies (
        kind           TEXT NOT NULL,
        name           TEXT NOT NULL,
        games          INTEGER NOT NULL,
        wins           INTEGER NOT NULL,
        points         INTEGER NOT NULL,
        challenges_won INTEGER NOT NULL,
        uno_missed     INTEGER NOT NULL,
        PRIMARY KEY (kind, name)
    ) WITHOUT ROWID;
    CREATE INDEX tallies_rank ON tallies (kind, games DESC, wins DESC, name);",
    // 5: people (`people`): accounts (a deleted one stays, nameless, for the seats it held),
    // their credentials, sessions (only a hash of their token), passkey ceremonies under way,
    // sign-in attempts counted for throttling, ratings per pool with their history, the rated
    // games (each rated once) and the seats an account held.
    "CREATE TABLE accounts (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        name_key   TEXT UNIQUE,
        created_at INTEGER NOT NULL,
        deleted_at INTEGER
    );
    CREATE TABLE credentials (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL CHECK (kind IN ('passkey', 'password')),
        data       TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        used_at    INTEGER
    );
    CREATE INDEX credentials_account ON credentials (account_id);
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        agent      TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX sessions_account ON sessions (account_id);
    CREATE INDEX sessions_expiry ON sessions (expires_at);
    CREATE TABLE ceremonies (
        id         TEXT PRIMARY KEY,
        kind       TEXT NOT NULL,
        state      TEXT NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE attempts (
        key   TEXT PRIMARY KEY,
        since INTEGER NOT NULL,
        count INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE ratings (
        account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        pool        TEXT NOT NULL,
        mean        REAL NOT NULL,
        deviation   REAL NOT NULL,
        games       INTEGER NOT NULL,
        last_played INTEGER,
        PRIMARY KEY (account_id, pool)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board ON ratings (pool, mean DESC);
    CREATE TABLE rated_games (
        game_id     TEXT NOT NULL,
        game        INTEGER NOT NULL,
        pool        TEXT NOT NULL,
        finished_at INTEGER NOT NULL,
        PRIMARY KEY (game_id, game)
    ) WITHOUT ROWID;
    CREATE TABLE rating_history (
        id               INTEGER PRIMARY KEY,
        account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        pool             TEXT NOT NULL,
        game_id          TEXT NOT NULL,
        game             INTEGER NOT NULL,
        at               INTEGER NOT NULL,
        finish           TEXT NOT NULL,
        seats            INTEGER NOT NULL,
        mean_before      REAL,
        deviation_before REAL,
        mean             REAL NOT NULL,
        deviation        REAL NOT NULL,
        games            INTEGER NOT NULL
    );
    CREATE INDEX rating_history_account ON rating_history (account_id, pool, id);
    CREATE TABLE seat_links (
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        game_id    TEXT NOT NULL,
        seat       INTEGER NOT NULL,
        since      INTEGER NOT NULL,
        PRIMARY KEY (account_id, game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX seat_links_game ON seat_links (game_id, seat);
    CREATE INDEX seat_links_recent ON seat_links (account_id, since DESC);",
    // 6: imported records are marked, so their budget (`add_import`) forgets the oldest first.
    "ALTER TABLE results ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX results_imported ON results (imported, id);",
    // 7: passkey ceremonies are counted (a bounded number may be under way) and swept by their
    // end, on every start of one.
    "CREATE INDEX ceremonies_expiry ON ceremonies (expires_at);",
];

/// Runs the migrations the file has not had yet; refuses a file from a newer version.
pub(super) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}
