//! `tabletop serve`: the web server on a SQLite file (created if missing) or a PostgreSQL database.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on: HOST:PORT, the host a name (`localhost`) or an IP address; port 0
    /// picks a free one.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The database: a SQLite file (created if missing), or a PostgreSQL URL
    /// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`; the tables are created at start).
    #[arg(long, default_value = "tabletop.db")]
    db: PathBuf,
    /// Milliseconds a bot waits before acting.
    #[arg(long, default_value_t = 700, value_parser = crate::sim_run::parse_whole::<u64>)]
    bot_delay_ms: u64,
    /// Seconds a table may go with no person connected or acting before it is closed.
    #[arg(long, default_value_t = 7200, value_parser = crate::sim_run::parse_whole::<u64>)]
    idle_secs: u64,
    /// Seconds a finished table stays in memory (for a rematch).
    #[arg(long, default_value_t = 900, value_parser = crate::sim_run::parse_whole::<u64>)]
    finished_secs: u64,
    /// Days a finished game's record is kept (its export and replays), counted from its end.
    #[arg(long, default_value_t = 90, value_parser = |s: &str| crate::sim_run::parse_within(s, 1, 36_500))]
    record_days: u64,
    /// Unfinished tables one client address may have at a time.
    #[arg(long, default_value_t = 20, value_parser = crate::sim_run::parse_whole::<usize>)]
    max_tables_per_client: usize,
    /// Records one client address may import (`POST /api/records`) in an hour.
    #[arg(long, default_value_t = 60, value_parser = crate::sim_run::parse_whole::<usize>)]
    imports_per_hour: usize,
    /// Messages per second one WebSocket may send.
    #[arg(long, default_value_t = 20, value_parser = crate::sim_run::parse_whole::<u32>)]
    ws_rate: u32,
    /// Open connections at most (HTTP and WebSocket); lowered to fit under the open-file limit.
    #[arg(long, default_value_t = 4096, value_parser = crate::sim_run::parse_whole::<usize>)]
    max_connections: usize,
    /// Open connections one client address (an IPv6 /64) may hold at most; lowered to fit
    /// under `--max-connections`.
    #[arg(long, default_value_t = 256, value_parser = crate::sim_run::parse_whole::<usize>)]
    max_connections_per_address: usize,
    /// Milliseconds a client may take to send a request's headers (or to start its next
    /// request on a kept-alive connection).
    #[arg(long, default_value_t = 10_000, value_parser = crate::sim_run::parse_whole::<u64>)]
    header_timeout_ms: u64,
    /// PostgreSQL only: milliseconds a table's lease lasts unless its owner renews it (every
    /// third of it); another instance adopts the table this long after its owner stopped.
    #[arg(long, default_value_t = 5_000, value_parser = |s: &str| crate::sim_run::parse_within(s, 100, u64::MAX))]
    lease_ms: u64,
    /// PostgreSQL only: the name this instance holds its tables under; each live instance needs
    /// its own. A server started again under the same name takes its tables back at once.
    /// Default: HOST/ADDR (this machine's name and `--addr`).
    #[arg(long)]
    instance: Option<String>,
    /// Cluster mode: a NATS server (`nats://HOST:PORT`) the instances on one PostgreSQL `--db`
    /// talk over. Any instance then serves any table: requests about a table another instance
    /// holds are forwarded to it, and its WebSocket updates relayed.
    #[arg(long)]
    nats: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // Logs go to standard error (standard output's first line is the address, for scripts):
    // warnings and errors by default, and the server's own notices (a cluster's failovers: tables
    // adopted, tables lost to another instance); more with RUST_LOG (e.g. `RUST_LOG=info` or
    // `server=debug`).
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,server=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(serve(args))
}

async fn serve(args: Args) -> anyhow::Result<()> {
    // The address first: a port already taken must not leave a new database file behind.
    let listener =
        tokio::net::TcpListener::bind(args.addr.as_str()).await.with_context(|| format!("--addr {}", args.addr))?;
    // The store's message names the file and SQLite's reason; its source chain says the same again.
    let db = args.db.to_string_lossy();
    let instance = args.instance.clone().unwrap_or_else(|| server::default_instance(&args.addr));
    let store: store::SharedStore = if store::postgres::is_url(&db) {
        let lease = store::Lease { owner: instance.clone(), duration: Duration::from_millis(args.lease_ms) };
        store::PgStore::connect_with(&db, lease).await.map_err(|e| anyhow::anyhow!("--db: {e}"))?.into()
    } else {
        store::SqliteStore::open(&args.db).map_err(|e| anyhow::anyhow!("--db: {e}"))?.into()
    };
    // Never the URL as given: it may hold a password.
    let location = store.location();
    let config = server::Config {
        bot_delay: Duration::from_millis(args.bot_delay_ms),
        idle_timeout: Duration::from_secs(args.idle_secs),
        finished_ttl: Duration::from_secs(args.finished_secs),
        max_tables_per_client: args.max_tables_per_client,
        imports_per_hour: args.imports_per_hour,
        ws_messages_per_second: args.ws_rate,
        record_retention: Duration::from_secs(args.record_days * 24 * 3600),
        ..server::Config::default()
    };
    let state = server::AppState::new(store, config).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let cluster = match &args.nats {
        Some(url) => Some(
            server::cluster::Cluster::connect(url, &instance, state.clone())
                .await
                .map_err(|e| anyhow::anyhow!("--nats: {e}"))?,
        ),
        None => None,
    };
    // Never the NATS URL either: it may hold a password too.
    let clustered = if cluster.is_some() { format!(", cluster member {instance:?} over NATS") } else { String::new() };
    let restored = state.table_count();
    let addr = listener.local_addr()?;
    let mut serve_config = server::ServeConfig {
        max_connections: args.max_connections,
        max_per_address: args.max_connections_per_address,
        header_timeout: Duration::from_millis(args.header_timeout_ms),
        cluster,
        ..server::ServeConfig::default()
    };
    let fd_limit = server::raise_fd_limit();
    if let Some(limit) = fd_limit {
        serve_config = serve_config.fit_fd_limit(limit);
    }
    let fds = fd_limit.map_or("unlimited".to_string(), |l| l.to_string());
    // The first line names the real address (useful with port 0): tests and scripts read it.
    crate::output::print(&format!(
        "tabletop serving on http://{addr} (db {location}{clustered}, {restored} tables resumed, open-file limit {fds}, at most {} connections, {} per address)\n",
        serve_config.max_connections, serve_config.max_per_address
    ))?;
    server::serve_with(listener, state, serve_config, shutdown_signal()).await.context("serving")?;
    crate::output::print("tabletop stopped: every acknowledged action is stored\n")?;
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM (what `docker stop` and systemd send).
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            // Without a SIGTERM handler, Ctrl-C still stops the server gracefully.
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
