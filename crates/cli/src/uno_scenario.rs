//! `tabletop uno scenario`: seed 000's four operations on `.uno` files.
//!
//! Prints the course driver's format on stdout, so the output can be compared byte for byte with
//! the course's; `--trace` goes to stderr for the same reason.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use uno::courses::csce322::{self, Operation};
use uno::courses::notation::{Layout, UnoFile, MAX_FILE_BYTES};

#[derive(clap::Args)]
// clap does not wrap the usage line: written on two, so that it fits a narrow terminal.
#[command(
    override_usage = "tabletop uno scenario [OPTIONS] <OPERATION>\n       --deck <FILE> --discard <FILE> --hands <FILE>"
)]
pub struct Args {
    /// one-player-one-move, one-player-many-moves, many-players-one-move or
    /// many-players-many-moves.
    #[arg(value_parser = crate::names::Named::new(&OPERATION_NAMES, parse_operation), hide_possible_values = true)]
    operation: Operation,
    /// The deck file (left-most card drawn first). Any of the three files may be `-`, the
    /// standard input, or a pipe such as `<(…)`.
    #[arg(long, value_name = "FILE")]
    deck: PathBuf,
    /// The discard file (left-most entry is the most recent).
    #[arg(long, value_name = "FILE")]
    discard: PathBuf,
    /// The hands file (one hand per line, Player 1 first).
    #[arg(long, value_name = "FILE")]
    hands: PathBuf,
    /// Write the resulting position as deck.uno, discard.uno and hands.uno in DIR instead of
    /// printing it.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Print each move, with the rule that chose it, to stderr.
    #[arg(long)]
    trace: bool,
}

/// The operations' names, offered by the completions.
const OPERATION_NAMES: [&str; 4] =
    [Operation::ALL[0].name(), Operation::ALL[1].name(), Operation::ALL[2].name(), Operation::ALL[3].name()];

fn parse_operation(s: &str) -> Result<Operation, String> {
    s.parse::<Operation>().map_err(|e| e.to_string())
}

/// The standard input, named `-` on the command line.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads one file (or the standard input for `-`), at most [`MAX_FILE_BYTES`] and one byte more,
/// so an enormous file is refused by the parser without being held in memory.
fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    let limit = MAX_FILE_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let result = if is_stdin(path) {
        std::io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut bytes))
    };
    result.with_context(|| format!("cannot read {}", shown(path)))?;
    Ok(bytes)
}

/// A file's name in messages.
fn shown(path: &Path) -> String {
    if is_stdin(path) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// The same file given twice cannot be two parts of one position. Files are compared by
/// device and inode, which pipes from process substitution (`<(…)`) have too.
fn refuse_duplicates(args: &Args) -> anyhow::Result<()> {
    let named = [("--deck", &args.deck), ("--discard", &args.discard), ("--hands", &args.hands)];
    let mut seen: Vec<(&str, (u64, u64))> = Vec::new();
    for (flag, path) in named {
        let meta = if is_stdin(path) {
            // `-` twice is caught by its inode like any other file.
            fs::metadata("/dev/stdin")
        } else {
            fs::metadata(path)
        };
        let meta = meta.with_context(|| format!("cannot read {}", shown(path)))?;
        if meta.is_dir() {
            // A folder cannot be read as a file: the system's refusal (exit code 1), as for
            // `--rules DIR`.
            let message = format!("{}: is a folder; {flag} takes a .uno file", shown(path));
            return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, message).into());
        }
        let id = (meta.dev(), meta.ino());
        if let Some((other, _)) = seen.iter().find(|(_, p)| *p == id) {
            bail!("{}: given as both {other} and {flag}; a position needs three different files", shown(path));
        }
        seen.push((flag, id));
    }
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    refuse_duplicates(&args)?;
    let (deck, discard, hands) = (read(&args.deck)?, read(&args.discard)?, read(&args.hands)?);
    let names = [&args.deck, &args.discard, &args.hands].map(|p| shown(p));
    let position = Layout::parse_files(
        UnoFile { name: &names[0], bytes: &deck },
        UnoFile { name: &names[1], bytes: &discard },
        UnoFile { name: &names[2], bytes: &hands },
    )?;
    let outcome = csce322::run(args.operation, &position);
    if args.trace {
        let mut err = std::io::stderr().lock();
        for step in &outcome.steps {
            writeln!(err, "{step}")?;
        }
        writeln!(err, "stop: {}", outcome.stop)?;
    }
    match &args.out_dir {
        Some(dir) => write_position(dir, &outcome.position),
        None => {
            let text = csce322::driver_output(args.operation, &outcome.position);
            crate::output::print(&text)?;
            Ok(())
        }
    }
}

/// Writes the three files next to each other first, then renames them, so a failure leaves no
/// half-written position behind.
fn write_position(dir: &Path, position: &Layout) -> anyhow::Result<()> {
    if position.hands().len() > 1 && position.hands().last().is_some_and(Vec::is_empty) {
        // The format has no way to show it: empty lines at the end of a hands file are no players.
        let _ = writeln!(
            std::io::stderr(),
            "warning: the last player's hand is empty (they won); hands.uno cannot show an empty last line, \
             so reading it back gives one player fewer"
        );
    }
    let files = [
        ("deck.uno", position.write_deck()),
        ("discard.uno", position.write_discard()),
        ("hands.uno", position.write_hands()),
    ];
    // Only a position that reads back is written: the files are for this command's next run.
    if let Err(e) = Layout::parse_files(
        UnoFile { name: "deck.uno", bytes: files[0].1.as_bytes() },
        UnoFile { name: "discard.uno", bytes: files[1].1.as_bytes() },
        UnoFile { name: "hands.uno", bytes: files[2].1.as_bytes() },
    ) {
        bail!("--out-dir: the resulting position cannot be read back as .uno files ({e}); nothing is written");
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut staged = Vec::new();
    for (name, text) in &files {
        let tmp = dir.join(format!(".{name}.tmp"));
        if let Err(e) = fs::write(&tmp, text) {
            for (t, _) in &staged {
                let _ = fs::remove_file(t);
            }
            let _ = fs::remove_file(&tmp);
            return Err(e).with_context(|| format!("cannot write {}", tmp.display()));
        }
        staged.push((tmp, dir.join(name)));
    }
    for (tmp, path) in &staged {
        fs::rename(tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
