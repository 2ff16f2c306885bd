//! Every ```console example in README.md and docs/ is run through the real binary and compared
//! with what it prints, so the examples stay true. An example is `$ tabletop ARGS` followed by
//! the output; a line `[…]` stands for lines left out (the lines before it are the output's
//! first lines, the lines after it its last).

use std::path::{Path, PathBuf};

mod common;

const OMITTED: &str = "[…]";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Example {
    file: String,
    command: Vec<String>,
    expected: Vec<String>,
}

fn examples_in(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).expect("doc readable");
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```console" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let Some((first, rest)) = block.split_first() else { continue };
        let command = first.strip_prefix("$ tabletop ").unwrap_or_else(|| panic!("{}: {first}", path.display()));
        out.push(Example {
            file: path.display().to_string(),
            command: command.split_whitespace().map(String::from).collect(),
            expected: rest.iter().map(|l| l.to_string()).collect(),
        });
    }
    out
}

fn all_examples() -> Vec<Example> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files.iter().flat_map(|f| examples_in(f)).collect()
}

#[test]
fn every_console_example_prints_what_the_docs_show() {
    let examples = all_examples();
    assert!(examples.iter().any(|e| e.file.ends_with("seeds.md")), "docs/seeds.md has its example");
    for ex in &examples {
        let out = common::tabletop().args(&ex.command).current_dir(root()).output().expect("the binary runs");
        assert!(out.status.success(), "{}: {:?}: {}", ex.file, ex.command, String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let got: Vec<&str> = text.lines().collect();
        match ex.expected.iter().position(|l| l == OMITTED) {
            None => assert_eq!(got, ex.expected, "{}: {:?}", ex.file, ex.command),
            Some(cut) => {
                let (head, tail) = (&ex.expected[..cut], &ex.expected[cut + 1..]);
                assert!(head.len() + tail.len() <= got.len(), "{}: {:?}: too short", ex.file, ex.command);
                assert_eq!(&got[..head.len()], head, "{}: {:?}: first lines", ex.file, ex.command);
                assert_eq!(&got[got.len() - tail.len()..], tail, "{}: {:?}: last lines", ex.file, ex.command);
            }
        }
    }
}
