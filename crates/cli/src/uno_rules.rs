//! `tabletop uno rules`: the presets compiled into the engine, listed or printed as TOML.

use anyhow::anyhow;
use uno::rules::{preset_config, preset_toml};
use uno::PRESET_NAMES;

#[derive(clap::Args)]
pub struct Args {
    /// List the presets with their one-line descriptions (also what no argument does).
    #[arg(long, conflicts_with = "preset")]
    list: bool,
    /// Check rules files (TOML or JSON; `-`: standard input) without playing: say what each
    /// sets up, or why it is refused (then exit code 2).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["preset", "list"])]
    check: Vec<std::path::PathBuf>,
    /// Print this preset's rules file (TOML): a starting point for `--rules FILE`.
    #[arg(value_parser = crate::names::presets(), hide_possible_values = true)]
    preset: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !args.check.is_empty() {
        return check_all(&args.check);
    }
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
                text += &wrap(&format!("{name:width$}  "), &config.description);
            }
            crate::output::print(&text)?;
        }
    }
    Ok(())
}

/// Checks every file, saying for each what it sets up or why it is refused (each refusal one
/// `error:` line, in the order given); any refusal makes the command fail, with code 2 (or 1
/// when the only trouble was a file that could not be read).
fn check_all(paths: &[std::path::PathBuf]) -> anyhow::Result<()> {
    if let [path] = paths {
        return crate::output::print(&check(path)?).map_err(Into::into);
    }
    let mut code = 0;
    for path in paths {
        match check(path) {
            Ok(line) => crate::output::print(&line)?,
            Err(e) => {
                code = code.max(crate::output::exit_code(&e).unwrap_or(0));
                crate::output::report(&e);
            }
        }
    }
    if code == 0 {
        Ok(())
    } else {
        Err(crate::output::Reported(code).into())
    }
}

/// The line that says what one rules file sets up.
fn check(path: &std::path::Path) -> anyhow::Result<String> {
    let rules = crate::rules_arg::RulesArgs::file(path).load()?;
    let wilds = rules.deck().iter().filter(|c| c.is_wild()).count();
    // The seat counts the deck can really deal, which may be fewer than players.max.
    let dealt = (rules.min_players()..=rules.max_players()).filter(|&n| rules.check_players(n).is_ok()).max();
    let seats = match dealt {
        Some(max) if max < rules.max_players() => format!(
            "{} to {max} players (players.max is {}, but the deck deals {} cards to at most {max})",
            rules.min_players(),
            rules.max_players(),
            rules.hand_size()
        ),
        _ => format!("{} to {} players", rules.min_players(), rules.max_players()),
    };
    Ok(format!(
        "{}: valid rules \"{}\": {} cards ({wilds} wild), {seats}, {} cards each\n",
        if path.as_os_str() == "-" { "standard input".into() } else { path.display().to_string() },
        rules.name(),
        rules.deck().len(),
        rules.hand_size()
    ))
}

/// `text` after `head`, broken between words into lines of at most 80 columns, continuation
/// lines indented under the text.
fn wrap(head: &str, text: &str) -> String {
    const WIDTH: usize = 80;
    let indent = head.chars().count();
    let mut out = head.to_string();
    let mut col = indent;
    for (i, word) in text.split_whitespace().enumerate() {
        let len = word.chars().count();
        if i > 0 && col + 1 + len > WIDTH {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            col = indent;
        } else if i > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += len;
    }
    out.push('\n');
    out
}
