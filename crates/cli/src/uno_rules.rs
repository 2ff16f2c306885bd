//! `tabletop uno rules`: the presets compiled into the engine, listed or printed as TOML.

use anyhow::anyhow;
use uno::rules::{preset_config, preset_toml};
use uno::PRESET_NAMES;

#[derive(clap::Args)]
pub struct Args {
    /// List the presets with their one-line descriptions (also what no argument does).
    #[arg(long, conflicts_with = "preset")]
    list: bool,
    /// Print this preset's rules file (TOML): a starting point for `--rules FILE`.
    preset: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.preset {
        Some(name) if !args.list => {
            let text = preset_toml(&name).map_err(|e| anyhow!("{e}; `tabletop uno rules --list` describes them"))?;
            crate::output::print(text)?;
        }
        _ => {
            let width = PRESET_NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
            let mut text = String::new();
            for name in PRESET_NAMES {
                let config = preset_config(name)?;
                text += &format!("{name:width$}  {}\n", config.description);
            }
            crate::output::print(&text)?;
        }
    }
    Ok(())
}
