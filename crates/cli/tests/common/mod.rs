//! The one way the tests through the real binary start `tabletop`: [`tabletop`] is the command
//! (every other helper starts from it), [`run`] and [`run_with_input`] run it to its end, and
//! [`serve`] starts `tabletop serve` and gives a [`Server`] that is stopped when dropped.
//!
//! The command runs with `COLUMNS` unset, so that what it prints does not depend on the
//! terminal the tests were started from (clap wraps `--help` to `COLUMNS`); a test of the
//! width sets it.

#![allow(dead_code)] // not every test binary uses every helper

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Output, Stdio};

/// The binary's path, for a test that starts it through a shell (`script`, `bash -c`).
pub const BIN: &str = env!("CARGO_BIN_EXE_tabletop");

/// The binary under test, not started yet.
pub fn tabletop() -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_remove("COLUMNS");
    cmd
}

/// Runs `tabletop ARGS` to its end with nothing on standard input.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    tabletop().args(args).stdin(Stdio::null()).output().expect("the binary runs")
}

/// Runs `tabletop ARGS` to its end with `input` on standard input. A command that ends before
/// reading all of it (a game that is over) is no failure.
pub fn run_with_input<S: AsRef<OsStr>>(args: &[S], input: &[u8]) -> Output {
    let mut child = tabletop()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("the binary runs")
}

/// Bytes the binary printed, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The address a starting server prints on its first line (`… on http://ADDR …`).
pub fn address(first_line: &str) -> String {
    first_line.split("http://").nth(1).and_then(|r| r.split_whitespace().next()).expect("address").to_string()
}

/// `tabletop serve --addr 127.0.0.1:0 --db DB`, to be given more arguments and started.
pub fn serve(db: impl AsRef<OsStr>) -> Serve {
    let mut cmd = tabletop();
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--db"]).arg(db);
    Serve(cmd)
}

/// A `tabletop serve` command being set up.
pub struct Serve(Command);

impl Serve {
    pub fn args<I, S>(mut self, args: I) -> Serve
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.0.args(args);
        self
    }

    /// The command itself, for what the other methods do not set (its environment, its
    /// standard error).
    pub fn command(&mut self) -> &mut Command {
        &mut self.0
    }

    /// Starts the server and waits for its first line; `None` when it ends without one (its
    /// port still taken, its store away).
    pub fn try_start(mut self) -> Option<Server> {
        let mut child = self.0.stdout(Stdio::piped()).spawn().expect("the binary starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first_line = String::new();
        let read = out.read_line(&mut first_line);
        let mut server = Server { child, addr: String::new(), first_line, out: Some(out) };
        if !read.is_ok_and(|n| n > 0) {
            // Dropping it reaps the process.
            return None;
        }
        server.addr = address(&server.first_line);
        Some(server)
    }

    /// Starts the server; the test fails if it does not start.
    pub fn start(self) -> Server {
        self.try_start().expect("the server starts and prints its address")
    }
}

/// A running `tabletop serve`: killed (and resumed first, if a test paused it) when dropped,
/// however the test ends.
pub struct Server {
    pub child: Child,
    /// `HOST:PORT`, from its first line.
    pub addr: String,
    pub first_line: String,
    /// The rest of its standard output, held open so that its last line never meets a closed
    /// pipe.
    out: Option<BufReader<ChildStdout>>,
}

impl Server {
    /// The rest of its standard output, to be read by the test.
    pub fn take_output(&mut self) -> BufReader<ChildStdout> {
        self.out.take().expect("the output is taken once")
    }

    /// Sends `sig` (`-STOP`, `-CONT`, `-TERM`, …) to the process.
    pub fn signal(&self, sig: &str) {
        let ok = Command::new("kill").args([sig, &self.child.id().to_string()]).status().expect("kill").success();
        assert!(ok, "kill {sig}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-CONT", &self.child.id().to_string()]).stderr(Stdio::null()).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
