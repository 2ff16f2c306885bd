//! `--preset NAME` / `--rules FILE`, shared by every command that takes a rule set.

use anyhow::{Context, Result};
use uno::Rules;

#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// A rule preset: official, uno-engine, cs410, two-color or csce322 (see `tabletop uno rules --list`).
    #[arg(long, default_value = "official", conflicts_with = "rules")]
    pub preset: String,
    /// A rules file (TOML or JSON) instead of a preset; sections left out take the official values.
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
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read rules file {}", path.display()))?;
                let config = uno::RulesConfig::parse(&text).with_context(|| format!("{}", path.display()))?;
                Rules::new(config).with_context(|| format!("{}", path.display()))
            }
            None => Ok(Rules::preset(&self.preset)?),
        }
    }
}
