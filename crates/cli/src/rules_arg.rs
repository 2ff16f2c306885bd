//! `--preset NAME` / `--rules FILE`, shared by every command that takes a rule set.

use anyhow::{Context, Result};
use uno::Rules;

/// Rules read from standard input beyond this are cut off (a rules file is a few kilobytes).
const MAX_RULES_BYTES: u64 = 1 << 20;

#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// A rule preset: official, uno-engine, cs410, two-color or csce322 (see `tabletop uno rules --list`).
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

    fn parse(text: &str, name: &str) -> Result<Rules> {
        let config = uno::RulesConfig::parse(text).with_context(|| name.to_string())?;
        Rules::new(config).with_context(|| name.to_string())
    }
}
