//! The PostgreSQL schema: its migrations, and running them once per database.

use crate::StoreError;

/// Migrations, in order; `tabletop_schema.version` counts those applied.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: games, their action logs and their results.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        meta        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
        created_at  BIGINT NOT NULL,
        updated_at  BIGINT NOT NULL
    );
    CREATE INDEX games_kind_status ON games (kind, status);
    CREATE TABLE actions (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     BIGINT NOT NULL,
        action  TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE results (
        id          BIGSERIAL PRIMARY KEY,
        game_id     TEXT NOT NULL,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        actions     BIGINT NOT NULL,
        result      TEXT NOT NULL,
        finished_at BIGINT NOT NULL
    );
    CREATE INDEX results_kind ON results (kind, finished_at);",
    // 2: one owner per game, with an epoch that fences the owners before it. Games from before
    // leases get one that has run out, so the first store to look adopts them.
    "CREATE TABLE leases (
        game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        owner      TEXT NOT NULL,
        epoch      BIGINT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    );
    INSERT INTO leases (game_id, owner, epoch, expires_at) SELECT id, '', 0, '-infinity' FROM games;",
    // 3: a game's results are read by its id (its records, for replays).
    "CREATE INDEX results_game ON results (game_id, id);",
    // 4: statistics kept as totals, updated with each result: `counted` is 1 for a result whose
    // `tallies` are in the totals, 0 for one that counts for nothing, -1 for one stored before
    // (the server tallies those once).
    "ALTER TABLE results ADD COLUMN counted BIGINT NOT NULL DEFAULT -1;
    ALTER TABLE results ADD COLUMN tallies TEXT NOT NULL DEFAULT '';
    CREATE INDEX results_counted ON results (kind, counted);
    CREATE TABLE tallies (
        kind           TEXT NOT NULL,
        name           TEXT NOT NULL,
        games          BIGINT NOT NULL,
        wins           BIGINT NOT NULL,
        points         BIGINT NOT NULL,
        challenges_won BIGINT NOT NULL,
        uno_missed     BIGINT NOT NULL,
        PRIMARY KEY (kind, name)
    );
    CREATE INDEX tallies_rank ON tallies (kind, games DESC, wins DESC, name COLLATE \"C\");",
    // 5: people (`people`): accounts (a deleted one stays, nameless, for the seats it held),
    // their credentials, sessions (only a hash of their token), passkey ceremonies under way,
    // sign-in attempts counted for throttling, ratings per pool with their history, the rated
    // games (each rated once) and the seats an account held.
    "CREATE TABLE accounts (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        name_key   TEXT UNIQUE,
        created_at BIGINT NOT NULL,
        deleted_at BIGINT
    );
    CREATE TABLE credentials (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL CHECK (kind IN ('passkey', 'password')),
        data       TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        used_at    BIGINT
    );
    CREATE INDEX credentials_account ON credentials (account_id);
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        agent      TEXT NOT NULL
    );
    CREATE INDEX sessions_account ON sessions (account_id);
    CREATE INDEX sessions_expiry ON sessions (expires_at);
    CREATE TABLE ceremonies (
        id         TEXT PRIMARY KEY,
        kind       TEXT NOT NULL,
        state      TEXT NOT NULL,
        expires_at BIGINT NOT NULL
    );
    CREATE TABLE attempts (
        key   TEXT PRIMARY KEY,
        since BIGINT NOT NULL,
        count BIGINT NOT NULL
    );
    CREATE TABLE ratings (
        account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        pool        TEXT NOT NULL,
        mean        DOUBLE PRECISION NOT NULL,
        deviation   DOUBLE PRECISION NOT NULL,
        games       BIGINT NOT NULL,
        last_played BIGINT,
        PRIMARY KEY (account_id, pool)
    );
    CREATE INDEX ratings_board ON ratings (pool, mean DESC);
    CREATE TABLE rated_games (
        game_id     TEXT NOT NULL,
        game        BIGINT NOT NULL,
        pool        TEXT NOT NULL,
        finished_at BIGINT NOT NULL,
        PRIMARY KEY (game_id, game)
    );
    CREATE TABLE rating_history (
        id               BIGSERIAL PRIMARY KEY,
        account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        pool             TEXT NOT NULL,
        game_id          TEXT NOT NULL,
        game             BIGINT NOT NULL,
        at               BIGINT NOT NULL,
        finish           TEXT NOT NULL,
        seats            BIGINT NOT NULL,
        mean_before      DOUBLE PRECISION,
        deviation_before DOUBLE PRECISION,
        mean             DOUBLE PRECISION NOT NULL,
        deviation        DOUBLE PRECISION NOT NULL,
        games            BIGINT NOT NULL
    );
    CREATE INDEX rating_history_account ON rating_history (account_id, pool, id);
    CREATE TABLE seat_links (
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        game_id    TEXT NOT NULL,
        seat       BIGINT NOT NULL,
        since      BIGINT NOT NULL,
        PRIMARY KEY (account_id, game_id, seat)
    );
    CREATE INDEX seat_links_game ON seat_links (game_id, seat);
    CREATE INDEX seat_links_recent ON seat_links (account_id, since DESC);",
    // 6: imported records are marked, so their budget (`add_import`) forgets the oldest first.
    "ALTER TABLE results ADD COLUMN imported BIGINT NOT NULL DEFAULT 0;
    CREATE INDEX results_imported ON results (imported, id);",
    // 7: passkey ceremonies are counted (a bounded number may be under way) and swept by their
    // end, on every start of one.
    "CREATE INDEX ceremonies_expiry ON ceremonies (expires_at);",
];

/// Taken (for the transaction) by whoever migrates, so two servers starting together on a new
/// database do not both create the tables.
const MIGRATION_LOCK: i64 = 0x7461_626c_6574_6f70;

pub(super) async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS tabletop_schema (
            one     BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
            version BIGINT NOT NULL
        );
        INSERT INTO tabletop_schema (version) VALUES (0) ON CONFLICT DO NOTHING;",
    )
    .await?;
    let found: i64 = tx.query_one("SELECT version FROM tabletop_schema", &[]).await?.get(0);
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        tx.batch_execute(sql).await?;
        tx.execute("UPDATE tabletop_schema SET version = $1", &[&((i + 1) as i64)]).await?;
    }
    tx.commit().await?;
    Ok(())
}
