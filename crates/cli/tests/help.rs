//! `--help` names what the binary knows: every rule preset the engine ships, every command.

mod common;

fn help(args: &[&str]) -> String {
    let out = common::tabletop().args(args).arg("--help").output().expect("the binary runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn preset_help_names_every_shipped_preset() {
    let text = help(&["uno", "watch"]);
    for name in uno::PRESET_NAMES {
        assert!(text.contains(name), "`uno watch --help` does not name the preset {name}");
    }
}

#[test]
fn uno_help_lists_every_command() {
    let text = help(&["uno"]);
    for command in ["play", "sim", "match", "scenario", "rules", "watch", "replay", "analyse"] {
        assert!(text.contains(command), "`uno --help` does not list {command}");
    }
}

#[test]
fn every_bots_option_names_every_bot() {
    for command in ["play", "sim", "match", "watch"] {
        let text = help(&["uno", command]);
        for name in uno_bots::BOT_NAMES {
            assert!(
                text.contains(&format!("{name},")) || text.contains(&format!("{name})")),
                "`uno {command} --help` does not name the bot {name}"
            );
        }
    }
}
