//! `scripts/cluster` as an operator runs it: instances on free ports (two clusters on one
//! host do not collide), one instance restarted alone at its address, and `stop`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
mod serving;
use serving::try_http;

fn script(dir: &std::path::Path) -> Command {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut c = Command::new("bash");
    c.arg(format!("{root}/scripts/cluster"))
        .env("TABLETOP_BIN", common::BIN)
        .env("TABLETOP_CLUSTER_DIR", dir)
        .env_remove("PG_PORT")
        .env_remove("NATS_PORT");
    c
}

/// Starts a cluster of `n`; its instances' addresses, once it says it is up.
fn up(dir: &std::path::Path, n: usize) -> (std::process::Child, Vec<String>) {
    let mut child = script(dir).arg(n.to_string()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn");
    let mut addrs = Vec::new();
    let out = BufReader::new(child.stdout.take().expect("stdout"));
    for line in out.lines() {
        let line = line.expect("line");
        if line.starts_with("cluster up") {
            break;
        }
        if line.contains("http://") && !line.starts_with("cluster") {
            addrs.push(common::address(&line));
        }
    }
    assert_eq!(addrs.len(), n, "{addrs:?}");
    (child, addrs)
}

fn healthy(addr: &str) -> bool {
    try_http(addr, "GET", "/api/health", None, None).0 == 200
}

#[test]
fn two_clusters_on_free_ports_and_one_instance_restarted_alone() {
    let base = std::env::temp_dir().join(format!("tabletop-cluster-test-{}", std::process::id()));
    let (one, two) = (base.join("one"), base.join("two"));
    let (mut c1, a1) = up(&one, 2);
    let (mut c2, a2) = up(&two, 1);
    for a in a1.iter().chain(&a2) {
        assert!(healthy(a), "{a}");
        assert!(!a.ends_with(":8080"), "a fixed port: {a}");
    }
    assert!(a2.iter().all(|a| !a1.contains(a)), "{a1:?} {a2:?}");

    let ok = script(&one).args(["restart", "1", "kill"]).stdout(Stdio::null()).status().expect("restart");
    assert!(ok.success());
    let since = Instant::now();
    while !healthy(&a1[0]) {
        assert!(since.elapsed() < Duration::from_secs(10), "node1 did not come back at {}", a1[0]);
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(healthy(&a1[1]));

    for (dir, c) in [(&one, &mut c1), (&two, &mut c2)] {
        let ok = script(dir).arg("stop").stdout(Stdio::null()).status().expect("stop");
        assert!(ok.success());
        let _ = c.wait();
        assert!(!dir.exists(), "{} left behind", dir.display());
    }
    for a in a1.iter().chain(&a2) {
        assert!(!healthy(a), "{a} still answers");
    }
    let _ = std::fs::remove_dir_all(&base);
}
