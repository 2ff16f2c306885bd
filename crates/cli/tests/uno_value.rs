//! The value network through the real binary: `uno match --adjust` reports the luck-adjusted
//! difference beside the plain one (text, last line, JSON), and `uno analyse --value` values the
//! same decisions as the playouts.

use std::process::Output;

mod common;

fn text(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn adjust_reports_the_adjusted_difference_beside_the_plain_one() {
    let args = ["uno", "match", "--bots", "heuristic,random", "--deals", "12", "--seed", "4", "--threads", "2"];
    let plain = text(&common::run(&args));
    let adjusted = text(&common::run(&[&args[..], &["--adjust"]].concat()));
    assert!(!plain.contains("luck-adjusted"), "{plain}");
    assert!(adjusted.lines().any(|l| l.trim_start().starts_with("luck-adjusted: ")), "{adjusted}");
    // The same games: the plain figures are unchanged.
    let head = |t: &str| t.lines().take(5).collect::<Vec<_>>().join("\n");
    assert_eq!(head(&plain), head(&adjusted));
    let last = adjusted.lines().last().expect("a last line");
    let keys: Vec<&str> = last.split(' ').filter_map(|f| f.split_once('=')).map(|(k, _)| k).collect();
    assert_eq!(keys, ["deals", "games", "diff", "diff_lo", "diff_hi", "decision", "adj", "adj_lo", "adj_hi"], "{last}");
    let json: serde_json::Value =
        serde_json::from_str(&text(&common::run(&[&args[..], &["--adjust", "--json", "-"]].concat()))).expect("json");
    let a = &json["adjusted"];
    assert!(a["win_share"]["mean"].is_f64() && a["win_share"]["ci95"].is_array(), "{a}");
    assert!(a["correction"]["mean"].is_f64() && a.get("fewer_deals").is_some(), "{a}");
    let json: serde_json::Value =
        serde_json::from_str(&text(&common::run(&[&args[..], &["--json", "-"]].concat()))).expect("json");
    assert!(json.get("adjusted").is_none(), "no adjusted figures without --adjust");
}

#[test]
fn analyse_value_values_the_same_decisions_as_the_playouts() {
    let dir = std::env::temp_dir().join(format!("tabletop-value-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("game.json");
    let path = record.to_str().expect("utf-8");
    text(&common::run(&["uno", "watch", "--seed", "3", "--bots", "heuristic", "--record", path]));
    let analyse = |extra: &[&str]| -> serde_json::Value {
        let args = [&["uno", "analyse", path, "--seat", "1", "--samples", "8", "--json", "-"][..], extra].concat();
        serde_json::from_str(&text(&common::run(&args))).expect("json")
    };
    let (played, valued) = (analyse(&[]), analyse(&["--value"]));
    let decisions = |v: &serde_json::Value| v["decisions"].as_array().expect("decisions").clone();
    let (p, v) = (decisions(&played), decisions(&valued));
    assert!(!v.is_empty());
    assert_eq!(p.len(), v.len());
    for (p, v) in p.iter().zip(&v) {
        assert_eq!(p["action"], v["action"]);
        assert_eq!(p["values"].as_array().map(Vec::len), v["values"].as_array().map(Vec::len));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
