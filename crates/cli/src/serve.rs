//! `tabletop serve`: the web server on a SQLite file (created if missing) or a PostgreSQL database.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on: HOST:PORT, the host a name (`localhost`) or an IP address (an
    /// IPv6 one in brackets: `[::1]:8080`); port 0 picks a free one.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    addr: String,
    /// The database: a SQLite file (created if missing), or a PostgreSQL URL
    /// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`; the tables are created at start).
    #[arg(long, value_name = "FILE|URL", default_value = "tabletop.db")]
    db: PathBuf,
    /// Milliseconds a bot waits before acting.
    #[arg(long, value_name = "MS", default_value_t = 700, value_parser = crate::sim_run::parse_whole::<u64>)]
    bot_delay_ms: u64,
    /// Seconds a table may go with no person connected or acting before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 7200, value_parser = crate::sim_run::parse_whole::<u64>)]
    idle_secs: u64,
    /// Seconds a finished table stays in memory (for a rematch).
    #[arg(long, value_name = "SECONDS", default_value_t = 900, value_parser = crate::sim_run::parse_whole::<u64>)]
    finished_secs: u64,
    /// The turn time of quick-match tables, in seconds (they always have a clock).
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = |s: &str| crate::sim_run::parse_within(s, 1, 3600))]
    quick_turn_secs: u64,
    /// Seconds a person seated by quick match has to take their seat before a bot takes it.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = |s: &str| crate::sim_run::parse_within(s, 1, 3600))]
    seat_grace_secs: u64,
    /// Days a finished game's record is kept (its export and replays), counted from its end.
    #[arg(long, value_name = "DAYS", default_value_t = 90, value_parser = |s: &str| crate::sim_run::parse_within(s, 1, 36_500))]
    record_days: u64,
    /// Unfinished tables one client address may have at a time.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = crate::sim_run::parse_whole::<usize>)]
    max_tables_per_client: usize,
    /// Records one client address may import (`POST /api/records`) in an hour.
    #[arg(long, value_name = "N", default_value_t = 60, value_parser = crate::sim_run::parse_whole::<usize>)]
    imports_per_hour: usize,
    /// MiB the records of every import together may take in the store; past that the oldest
    /// imports are forgotten as new ones come in.
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = |s: &str| crate::sim_run::parse_within(s, 1, 1 << 20))]
    import_budget_mb: u64,
    /// Messages per second one WebSocket may send.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = crate::sim_run::parse_whole::<u32>)]
    ws_rate: u32,
    /// Open connections at most (HTTP and WebSocket); lowered to fit under the open-file limit.
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = crate::sim_run::parse_whole::<usize>)]
    max_connections: usize,
    /// Open connections one client address (an IPv6 /64) may hold at most; lowered to fit
    /// under `--max-connections`.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = crate::sim_run::parse_whole::<usize>)]
    max_connections_per_address: usize,
    /// Milliseconds a client may take to send a request's headers (or to start its next
    /// request on a kept-alive connection).
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = crate::sim_run::parse_whole::<u64>)]
    header_timeout_ms: u64,
    /// PostgreSQL only: milliseconds a table's lease lasts unless its owner renews it (every
    /// third of it); another instance adopts the table this long after its owner stopped.
    #[arg(long, value_name = "MS", default_value_t = 5_000, value_parser = |s: &str| crate::sim_run::parse_within(s, 100, u64::MAX))]
    lease_ms: u64,
    /// PostgreSQL only: the name this instance holds its tables under; each live instance needs
    /// its own. A server started again under the same name takes its tables back at once.
    /// Default: HOST/ADDR (this machine's name and `--addr`).
    #[arg(long, value_name = "NAME")]
    instance: Option<String>,
    /// Cluster mode: a NATS server (`nats://HOST:PORT`) the instances on one PostgreSQL `--db`
    /// talk over. Any instance then serves any table: requests about a table another instance
    /// holds are forwarded to it, and its WebSocket updates relayed.
    #[arg(long, value_name = "URL")]
    nats: Option<String>,
    /// A reverse proxy in front of the server (an address or block: 127.0.0.1, 10.0.0.0/8;
    /// repeat for several): on its connections the client's address is read from
    /// `X-Forwarded-For` (else `Forwarded`), for every per-client limit, and its connections
    /// count against `--max-connections` only. From any other address those headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "CIDR")]
    trusted_proxy: Vec<server::proxy::Cidr>,
    /// Serve `/metrics` (Prometheus' text format) on this operator address, apart from the
    /// game port (e.g. 127.0.0.1:9100). Without it or `--metrics-token`, no metrics are served.
    #[arg(long, value_name = "HOST:PORT", value_parser = parse_addr)]
    metrics_addr: Option<String>,
    /// Serve `/metrics` on the game port too, to requests with `Authorization: Bearer TOKEN`.
    #[arg(long, value_name = "TOKEN")]
    metrics_token: Option<String>,
    /// The origin people reach the site at (`https://uno.example.org`): passkeys are made for
    /// its host and accepted from it only. `https://` and a host name (browsers refuse passkeys
    /// on an IP address); `http://` only for `localhost`. Default: `http://localhost` on any
    /// port (open the site as `http://localhost:8080`, not `127.0.0.1`, to use passkeys).
    #[arg(long, value_name = "URL", value_parser = parse_origin)]
    public_origin: Option<server::accounts::passkeys::PublicOrigin>,
    /// A leaderboard lists players with at least this many rated games in its pool (and one in
    /// the last 30 days).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(i64).range(1..=100_000))]
    leaderboard_min_games: i64,
}

/// `--public-origin`: an origin passkeys can be bound to.
fn parse_origin(text: &str) -> Result<server::accounts::passkeys::PublicOrigin, String> {
    server::accounts::passkeys::PublicOrigin::parse(text).map_err(|e| e.to_string())
}

/// `--addr`: HOST:PORT with a port from 0 to 65535 (whether the host exists is known only
/// when it is looked up).
fn parse_addr(text: &str) -> Result<String, String> {
    let port = text.rsplit_once(':').map(|(host, port)| (host, port.parse::<u16>()));
    match port {
        Some((host, Ok(_))) if !host.is_empty() => Ok(text.to_string()),
        _ => Err(format!(
            "'{}' is not HOST:PORT (e.g. 127.0.0.1:8080, localhost:0, [::1]:8080)",
            text.chars().take(64).collect::<String>()
        )),
    }
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
    // The address first: a port already taken must not leave a new database file behind. A
    // host that cannot be looked up is bad input (2); a port in use is the system's answer (1).
    let addrs: Vec<std::net::SocketAddr> = tokio::net::lookup_host(args.addr.as_str())
        .await
        .map_err(|e| anyhow::anyhow!("--addr {}: cannot look up the host: {e}", args.addr))?
        .collect();
    // Bound now, listening only once the instance can serve: a restarted instance (a rolling
    // restart) accepted connections while it was still starting, and a client connected then
    // waited for the whole start (its table stood still 1.2 s in the fault harness) instead of
    // being refused at once and trying another instance.
    let socket = bind(&addrs).with_context(|| format!("--addr {}", args.addr))?;
    // The store's message names the file and SQLite's reason; its source chain says the same again.
    let db = args.db.to_string_lossy();
    let instance = args.instance.clone().unwrap_or_else(|| server::default_instance(&args.addr));
    let store: store::SharedStore = if store::postgres::is_url(&db) {
        let lease = store::Lease { owner: instance.clone(), duration: Duration::from_millis(args.lease_ms) };
        store::PgStore::connect_with(&db, lease).await.map_err(|e| anyhow::anyhow!("--db: {e}"))?.into()
    } else {
        // A path the system will not open (a folder that does not exist, one without write
        // access, a folder itself) is its trouble, exit code 1, with its own words; a file that
        // opens but is not a tabletop database is bad input (2), in the store's.
        std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&args.db).map_err(
            |e| crate::output::WriteFailed { what: format!("--db: cannot open {}", args.db.display()), source: e },
        )?;
        store::SqliteStore::open(&args.db).map_err(|e| anyhow::anyhow!("--db: {e}"))?.into()
    };
    // Never the URL as given: it may hold a password.
    let location = store.location();
    let mut config = server::Config {
        bot_delay: Duration::from_millis(args.bot_delay_ms),
        idle_timeout: Duration::from_secs(args.idle_secs),
        finished_ttl: Duration::from_secs(args.finished_secs),
        max_tables_per_client: args.max_tables_per_client,
        imports_per_hour: args.imports_per_hour,
        import_budget_bytes: args.import_budget_mb << 20,
        ws_messages_per_second: args.ws_rate,
        record_retention: Duration::from_secs(args.record_days * 24 * 3600),
        metrics: match &args.metrics_token {
            Some(token) if !token.is_empty() => server::metrics::Metrics::Token(token.clone()),
            _ => server::metrics::Metrics::Off,
        },
        quick_turn_seconds: u32::try_from(args.quick_turn_secs).unwrap_or(30),
        seat_grace: Duration::from_secs(args.seat_grace_secs),
        public_origin: args.public_origin.clone().unwrap_or_default(),
        ..server::Config::default()
    };
    config.accounts.board_min_games = args.leaderboard_min_games;
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
    let metrics = match &args.metrics_addr {
        Some(at) => {
            let listener =
                tokio::net::TcpListener::bind(at.as_str()).await.with_context(|| format!("--metrics-addr {at}"))?;
            let bound = listener.local_addr()?;
            tokio::spawn(server::serve_metrics(listener, state.tables().clone()));
            format!(", metrics on http://{bound}/metrics")
        }
        None => String::new(),
    };
    let listener = socket.listen(1024).with_context(|| format!("--addr {}", args.addr))?;
    let addr = listener.local_addr()?;
    let mut serve_config = server::ServeConfig {
        max_connections: args.max_connections,
        max_per_address: args.max_connections_per_address,
        header_timeout: Duration::from_millis(args.header_timeout_ms),
        cluster,
        trusted_proxies: server::proxy::TrustedProxies(args.trusted_proxy.clone()),
        ..server::ServeConfig::default()
    };
    let fd_limit = server::raise_fd_limit();
    if let Some(limit) = fd_limit {
        serve_config = serve_config.fit_fd_limit(limit);
    }
    let fds = fd_limit.map_or("unlimited".to_string(), |l| l.to_string());
    // The first line names the real address (useful with port 0): tests and scripts read it.
    crate::output::print(&format!(
        "tabletop serving on http://{addr} (db {location}{clustered}, {restored} tables resumed, open-file limit {fds}, at most {} connections, {} per address{metrics})\n",
        serve_config.max_connections, serve_config.max_per_address
    ))?;
    server::serve_with(listener, state, serve_config, shutdown_signal()).await.context("serving")?;
    crate::output::print("tabletop stopped: every acknowledged action is stored\n")?;
    Ok(())
}

/// A socket bound to the first of `addrs` that binds (as `TcpListener::bind` tries them), not
/// yet listening.
fn bind(addrs: &[std::net::SocketAddr]) -> std::io::Result<tokio::net::TcpSocket> {
    let mut last = std::io::Error::new(std::io::ErrorKind::InvalidInput, "the address names no host");
    for addr in addrs {
        let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
        // As `TcpListener::bind` does on Unix: a port left in TIME_WAIT by the last run binds.
        #[cfg(unix)]
        socket.set_reuseaddr(true)?;
        match socket.bind(*addr) {
            Ok(()) => return Ok(socket),
            Err(e) => last = e,
        }
    }
    Err(last)
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
