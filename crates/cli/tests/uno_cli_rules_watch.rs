//! `tabletop uno rules` and `tabletop uno watch` through the real binary.

use std::process::Output;

mod common;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn rules_list_names_every_preset_with_its_description() {
    for args in [&["uno", "rules", "--list"][..], &["uno", "rules"][..]] {
        let out = common::run(args);
        assert!(out.status.success());
        let text = stdout(&out);
        // One entry per preset: its name, then its description wrapped at 80 columns under itself.
        let mut entries: Vec<String> = Vec::new();
        for line in text.lines() {
            match entries.last_mut() {
                Some(last) if line.starts_with(' ') => {
                    last.push(' ');
                    last.push_str(line.trim_start());
                }
                _ => entries.push(line.to_string()),
            }
            assert!(line.chars().count() <= 80, "{line}");
        }
        assert_eq!(entries.len(), uno::PRESET_NAMES.len());
        for (entry, name) in entries.iter().zip(uno::PRESET_NAMES) {
            let description = uno::rules::preset_config(name).expect("preset").description;
            let words = description.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(entry.starts_with(name) && entry.ends_with(&words), "{entry}");
        }
    }
}

#[test]
fn rules_preset_prints_the_preset_toml_which_reads_back() {
    for name in uno::PRESET_NAMES {
        let out = common::run(&["uno", "rules", name]);
        assert!(out.status.success(), "{name}");
        let text = stdout(&out);
        assert_eq!(text, uno::rules::preset_toml(name).expect("preset"));
        let config = uno::RulesConfig::from_toml(&text).expect("valid TOML");
        assert_eq!(uno::Rules::new(config).expect("valid rules").name(), name);
    }
}

#[test]
fn rules_unknown_preset_is_a_clear_error_with_exit_code_2() {
    let out = common::run(&["uno", "rules", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown preset 'nope'") && err.contains("official"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn watch_prints_every_event_in_words_and_ends_when_the_game_ends() {
    let args = ["uno", "watch", "--preset", "official", "--players", "3", "--seed", "2"];
    let out = common::run(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.starts_with("Round 1: Player "), "{}", &text[..80.min(text.len())]);
    assert!(text.lines().last().is_some_and(|l| l.starts_with("Game over: Player ")), "the match is played out");
    assert!(text.lines().all(|l| l.ends_with('.') || l.ends_with('!') || l.ends_with(':')), "sentences");
    assert!(text.contains(" plays ") && text.contains(" draws "));
    assert_eq!(stdout(&common::run(&args)), text, "the same seed replays the same game");
}

#[test]
fn watch_takes_a_bot_per_seat_and_refuses_bad_bots_and_player_counts() {
    let ok = common::run(&["uno", "watch", "--preset", "two-color", "--players", "3", "--bots", "first,random,first"]);
    assert!(ok.status.success());
    for args in [
        &["uno", "watch", "--bots", "nope"][..],
        &["uno", "watch", "--players", "3", "--bots", "first,random"][..],
        &["uno", "watch", "--players", "11"][..],
        &["uno", "watch", "--preset", "nope"][..],
    ] {
        let out = common::run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

/// Under csce322 every front door plays the precedence's move: here the bots `watch` seats
/// play yellow 1 on the first card (a colour match, the left-most), never the yellow 9 a free
/// choice made before the precedence was the engine's.
#[test]
fn watch_under_csce322_plays_the_precedences_card() {
    let out = common::run(&["uno", "watch", "--preset", "csce322", "--players", "3", "--seed", "5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let first_play = text.lines().find(|l| l.contains(" plays ")).expect("a play");
    assert_eq!(first_play, "Player 1 plays yellow 1.", "{text}");
}
