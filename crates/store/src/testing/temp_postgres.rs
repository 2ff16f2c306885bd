//! A PostgreSQL server of its own for a test: found on this machine, started in a temporary
//! folder on a free port, stopped and deleted when dropped.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::StoreError;

/// Why PostgreSQL tests cannot run here, as a test failure should say it.
const NO_POSTGRES: &str = "the PostgreSQL server programs (initdb, pg_ctl, postgres) were not found: \
     install them (`bash scripts/ensure-postgres`, or `apt-get install -y postgresql`), \
     or point TABLETOP_PG_BIN at the folder that holds them";

/// A PostgreSQL server of its own, in a temporary folder, listening on a free loopback port,
/// trusting local connections (user `tabletop`). Stopped and deleted when dropped.
pub struct TempPostgres {
    dir: PathBuf,
    bin: PathBuf,
    /// Who runs the server: PostgreSQL refuses to run as root.
    run_as: Option<String>,
    port: u16,
}

impl TempPostgres {
    /// Starts one; the error says what is missing or what failed (with the server's log).
    pub fn start() -> Result<TempPostgres, String> {
        let bin = find_bin().ok_or_else(|| NO_POSTGRES.to_string())?;
        let run_as = if is_root() { Some(unprivileged_user()?) } else { None };
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "tabletop-pg-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut pg = TempPostgres { dir, bin, run_as, port: 0 };
        if let Some(user) = &pg.run_as {
            run(Command::new("chown").arg(format!("{user}:")).arg(&pg.dir), "chown")?;
        }
        let data = pg.dir.join("data");
        pg.run_pg("initdb", &["-D", &path_str(&data), "-U", "tabletop", "-A", "trust", "-E", "UTF8", "--no-sync"])?;
        // A port taken between choosing it and the server binding it: choose again.
        let mut last = String::new();
        for _ in 0..3 {
            pg.port = free_port()?;
            match pg.resume() {
                Ok(()) => return Ok(pg),
                Err(e) => last = e,
            }
        }
        Err(format!("PostgreSQL did not start: {last}"))
    }

    /// Stops the server (as a crash would: no shutdown checkpoint), keeping its data.
    pub fn stop(&self) -> Result<(), String> {
        self.run_pg("pg_ctl", &["-D", &path_str(&self.dir.join("data")), "-m", "immediate", "-w", "stop"])
    }

    /// Starts the server again on its port, after [`TempPostgres::stop`].
    pub fn resume(&self) -> Result<(), String> {
        // Durability against a crash of the machine is not what these tests are about: no fsync.
        let opts = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {} -c fsync=off -c full_page_writes=off",
            self.port,
            path_str(&self.dir)
        );
        let log = path_str(&self.dir.join("server.log"));
        let data = path_str(&self.dir.join("data"));
        self.run_pg("pg_ctl", &["-D", &data, "-l", &log, "-o", &opts, "-w", "-t", "60", "start"])
            .map_err(|e| format!("{e}\n{}", std::fs::read_to_string(&log).unwrap_or_default()))
    }

    /// Like [`TempPostgres::start`], failing the test with the reason.
    pub fn start_or_fail() -> TempPostgres {
        match TempPostgres::start() {
            Ok(pg) => pg,
            Err(e) => panic!("cannot start a private PostgreSQL: {e}"),
        }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of database `name` (which [`TempPostgres::create_database`] makes).
    pub fn url(&self, name: &str) -> String {
        format!("postgres://tabletop@127.0.0.1:{}/{name}", self.port)
    }

    /// Makes an empty database and returns its URL.
    pub async fn create_database(&self, name: &str) -> Result<String, StoreError> {
        let (client, conn) = tokio_postgres::connect(&self.url("postgres"), tokio_postgres::NoTls).await?;
        let task = tokio::spawn(conn);
        // A name made of letters, digits and underscores only, so quoting it is enough.
        let safe: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        client.batch_execute(&format!("CREATE DATABASE \"{safe}\"")).await?;
        drop(client);
        let _ = task.await;
        Ok(self.url(&safe))
    }

    fn run_pg(&self, program: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(program);
        let mut cmd = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        cmd.args(args).current_dir(&self.dir);
        run(&mut cmd, program)
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let _ = self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn path_str(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `TABLETOP_PG_BIN`, else the newest `/usr/lib/postgresql/N/bin` (Debian's place, off the PATH),
/// else the PATH.
fn find_bin() -> Option<PathBuf> {
    let has = |d: &Path| ["initdb", "pg_ctl", "postgres"].iter().all(|p| d.join(p).is_file());
    if let Some(d) = std::env::var_os("TABLETOP_PG_BIN") {
        let d = PathBuf::from(d);
        return has(&d).then_some(d);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, d)| has(d))
        .collect();
    versions.sort();
    if let Some((_, d)) = versions.pop() {
        return Some(d);
    }
    std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).find(|d| has(d)))
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| o.stdout.trim_ascii() == b"0").unwrap_or(false)
}

/// The `postgres` account the package creates, else `nobody`.
fn unprivileged_user() -> Result<String, String> {
    for user in ["postgres", "nobody"] {
        if Command::new("id").arg("-u").arg(user).output().map(|o| o.status.success()).unwrap_or(false) {
            return Ok(user.to_string());
        }
    }
    Err("running as root, and there is no `postgres` or `nobody` account to run PostgreSQL as".into())
}

fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}
