//! `--preset NAME` / `--rules FILE`, shared by every command that takes a rule set.

mod place;

use anyhow::{Context, Result};
use uno::Rules;

/// Rules read from standard input beyond this are cut off (a rules file is a few kilobytes).
const MAX_RULES_BYTES: u64 = 1 << 20;

#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// A rule preset: official, uno-engine, cs410, two-color, csce322 or rlcard (see `tabletop uno rules --list`).
    #[arg(long, default_value = "official", conflicts_with = "rules", value_parser = crate::names::presets(), hide_possible_values = true)]
    pub preset: String,
    /// A rules file (TOML or JSON; `-`: standard input) instead of a preset; sections left out
    /// take the official values.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<std::path::PathBuf>,
}

impl RulesArgs {
    /// The arguments of `--rules FILE`.
    pub fn file(path: &std::path::Path) -> RulesArgs {
        RulesArgs { preset: String::new(), rules: Some(path.to_path_buf()) }
    }

    pub fn load(&self) -> Result<Rules> {
        match &self.rules {
            Some(path) if path.as_os_str() == "-" => {
                let mut text = String::new();
                std::io::Read::read_to_string(
                    &mut std::io::Read::take(std::io::stdin().lock(), MAX_RULES_BYTES),
                    &mut text,
                )
                .context("cannot read the rules from standard input")?;
                Self::parse(&text, "standard input")
            }
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read rules file {}", path.display()))?;
                Self::parse(&text, &path.display().to_string())
            }
            None => Ok(Rules::preset(&self.preset)?),
        }
    }

    /// The rules in `text`; a refusal about one setting says where the file writes it
    /// (`FILE:LINE:COLUMN: …`), as an editor or a compiler would.
    fn parse(text: &str, name: &str) -> Result<Rules> {
        let config = uno::RulesConfig::parse(text).map_err(|e| anyhow::anyhow!("{name}: {}", plain(&e.to_string())))?;
        Rules::new(config).map_err(|e| {
            let at = e.setting().and_then(|setting| place::place(text, &setting));
            let name = at.map_or_else(|| name.to_string(), |at| format!("{name}:{at}"));
            anyhow::Error::new(e).context(name)
        })
    }
}

/// A parser's message in the words of the rules file, not of the Rust types behind it:
/// `expected u32` is `expected a whole number of 0 or more`, `expected struct DealConfig` is
/// `expected a section of settings`.
fn plain(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find("expected ") {
        let (before, after) = rest.split_at(at + "expected ".len());
        out.push_str(before);
        let word_end = |s: &str| s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
        let first = &after[..word_end(after)];
        let (words, used) = match first {
            "u8" | "u16" | "u32" | "u64" | "usize" => ("a whole number of 0 or more", first.len()),
            "i8" | "i16" | "i32" | "i64" | "isize" => ("a whole number", first.len()),
            "f32" | "f64" => ("a number", first.len()),
            "struct" | "enum" => {
                let name_start = first.len() + 1;
                let name_len = after.get(name_start..).map_or(0, word_end);
                let what =
                    if first == "struct" { "a section of settings" } else { "one of the names this setting takes" };
                (what, name_start + name_len)
            }
            _ => ("", 0),
        };
        out.push_str(words);
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn rust_types_become_words() {
        assert_eq!(
            plain("invalid type: string \"x\", expected u32"),
            "invalid type: string \"x\", expected a whole number of 0 or more"
        );
        assert_eq!(
            plain("invalid type: integer `3`, expected struct DealConfig at line 1 column 10"),
            "invalid type: integer `3`, expected a section of settings at line 1 column 10"
        );
        assert_eq!(plain("expected a string"), "expected a string");
    }
}
