//! `tabletop serve` through the real binary: a host name is resolved, a taken port fails
//! before the database file is created, an open error is said once, and cluster mode needs
//! PostgreSQL.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

mod common;

fn tabletop() -> Command {
    common::tabletop()
}

#[test]
fn a_host_name_is_resolved() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = tabletop()
        .args(["serve", "--addr", "localhost:0", "--db"])
        .arg(dir.path().join("t.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("a first line");
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.starts_with("tabletop serving on http://"), "{first:?}");
    let host = first.trim_start_matches("tabletop serving on http://");
    assert!(host.starts_with("127.0.0.1:") || host.starts_with("[::1]:"), "{first:?}");
}

#[test]
fn a_taken_port_fails_before_the_database_is_created() {
    let dir = tempfile::tempdir().expect("tempdir");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("its address").to_string();
    let db = dir.path().join("t.db");
    let out = tabletop().args(["serve", "--addr", &addr, "--db"]).arg(&db).output().expect("the binary runs");
    // A port in use is the system's failure, not bad input: exit code 1.
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with(&format!("error: --addr {addr}: ")), "{err}");
    assert!(!db.exists(), "no database file for a server that never started");
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
}

#[test]
fn an_unopenable_database_is_said_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("no-such-folder").join("t.db");
    let out = tabletop().args(["serve", "--addr", "127.0.0.1:0", "--db"]).arg(&db).output().expect("runs");
    // A path the system will not open is its refusal, not bad input: exit code 1.
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.matches(db.to_str().expect("utf-8")).count(), 1, "the path once: {err}");
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn cluster_mode_on_sqlite_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = tabletop()
        .args(["serve", "--addr", "127.0.0.1:0", "--nats", "nats://127.0.0.1:1", "--db"])
        .arg(dir.path().join("t.db"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "it never served");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: --nats: ") && err.contains("PostgreSQL"), "{err}");
}

#[test]
fn a_public_origin_passkeys_cannot_use_is_refused_before_serving() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    for (origin, why) in [
        ("http://uno.example.org", "https://"),
        ("https://127.0.0.1", "IP address"),
        ("https://uno.example.org/play", "no path"),
    ] {
        let out = tabletop()
            .args(["serve", "--addr", "127.0.0.1:0", "--public-origin", origin, "--db"])
            .arg(&db)
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{origin}: {err}");
        assert!(err.contains("--public-origin") && err.contains(why), "{origin}: {err}");
        assert!(!db.exists(), "refused before the database is made");
    }
}
