//! The terminal tools through the real binary: shell completions, `uno rules --check`,
//! `uno watch --json`.

use std::process::{Command, Output};

mod common;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn completions_are_printed_for_each_shell_and_bash_loads_them() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = common::run(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = stdout(&out);
        for word in ["tabletop", "scenario", "completions"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    // Bash accepts the script and completes a subcommand from it.
    let script = stdout(&common::run(&["completions", "bash"]));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tabletop.bash");
    std::fs::write(&path, script).expect("written");
    let check = "source \"$0\"; COMP_WORDS=(tabletop uno sc); COMP_CWORD=2; _tabletop tabletop sc uno; \
                 echo \"${COMPREPLY[@]}\"";
    let out = Command::new("bash").args(["-c", check]).arg(&path).output().expect("bash runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout(&out).trim(), "scenario");

    let out = common::run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rules_check_says_what_a_file_sets_up_or_why_it_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let official = dir.path().join("official.toml");
    std::fs::write(&official, stdout(&common::run(&["uno", "rules", "official"]))).expect("written");
    let out = common::run(&["uno", "rules", "--check", official.to_str().expect("utf-8")]);
    assert!(out.status.success());
    assert!(
        stdout(&out).ends_with("valid rules \"official\": 108 cards (8 wild), 2 to 10 players, 7 cards each\n"),
        "{}",
        stdout(&out)
    );

    let big_hands = dir.path().join("big.toml");
    std::fs::write(&big_hands, "[deal]\nhand_size = 30\n").expect("written");
    let out = common::run(&["uno", "rules", "--check", big_hands.to_str().expect("utf-8")]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("2 to 3 players (players.max is 10, but the deck deals 30 cards to at most 3)"));

    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[deal]\nhand_size = 0\n").expect("written");
    let out = common::run(&["uno", "rules", "--check", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("deal.hand_size must be at least 1"));
    assert!(out.stdout.is_empty());
}

#[test]
fn watch_json_prints_one_event_per_line_matching_the_words() {
    let words = stdout(&common::run(&["uno", "watch", "--seed", "4"]));
    let out = common::run(&["uno", "watch", "--seed", "4", "--json"]);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    assert_eq!(lines.len(), words.lines().count(), "one JSON line per narrated event");
    assert_eq!(lines[0]["type"], "round_started");
    assert_eq!(lines.last().expect("events")["type"], "game_over");
}
