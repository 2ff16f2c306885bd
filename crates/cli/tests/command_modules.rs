//! The command modules stand apart: each is what `main` dispatches one command to, and none
//! names another. What two commands share (words, `--players`, `--bots`, record files) lives in
//! a module of its own, so a command can change without reaching into another.

use std::path::{Path, PathBuf};

/// The modules `main.rs` dispatches a command to (`name::run(`).
fn command_modules(src: &Path) -> Vec<String> {
    let main = std::fs::read_to_string(src.join("main.rs")).expect("main.rs");
    let mut out: Vec<String> = main
        .split("=> ")
        .skip(1)
        .filter_map(|arm| arm.split_once("::run(").map(|(name, _)| name.trim().to_string()))
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Every `.rs` file of a command module: its file and the files under its folder.
fn files_of(src: &Path, module: &str) -> Vec<PathBuf> {
    let mut out = vec![src.join(format!("{module}.rs"))];
    if let Ok(dir) = std::fs::read_dir(src.join(module)) {
        out.extend(dir.map(|e| e.expect("a folder entry").path()).filter(|p| p.extension().is_some_and(|e| e == "rs")));
    }
    out
}

#[test]
fn no_command_module_names_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let commands = command_modules(&src);
    assert!(commands.len() >= 9, "main.rs dispatches to {commands:?}");
    let mut found = Vec::new();
    for module in &commands {
        for file in files_of(&src, module) {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for other in commands.iter().filter(|o| *o != module) {
                for (i, line) in text.lines().enumerate() {
                    if line.contains(&format!("crate::{other}::")) || line.contains(&format!("crate::{other};")) {
                        found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "command modules name each other:\n{}", found.join("\n"));
}

/// The tests start the binary one way, `common::tabletop()` (and `common::BIN` through a shell):
/// no other test file names it. The fault harness (`chaos/`) may run another build
/// (`TABLETOP_BIN`), so it names its own.
#[test]
fn the_tests_start_the_binary_one_way() {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    let mut dirs = vec![tests.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("the tests folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                if !["common", "chaos"].iter().any(|d| path.ends_with(d)) {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("command_modules.rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 20, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a test file");
        assert!(
            !text.contains("CARGO_BIN_EXE_"),
            "{} starts the binary itself: use common::tabletop()",
            path.display()
        );
    }
}
