//! Standard output for every subcommand.
//!
//! A reader that stops early (`tabletop … | head`) closes the pipe: that is its choice, so the
//! command ends quietly with success. Any other failure to write (a full disk) is reported once,
//! with exit code 1. Writes go through [`Out`], whose errors carry [`OutputFailed`] so that
//! `main` can tell them from every other error.

use std::fmt;
use std::io::{self, Write};

/// A failure to write standard output (the original error inside).
#[derive(Debug)]
pub struct OutputFailed(pub io::Error);

impl fmt::Display for OutputFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write to standard output: {}", self.0)
    }
}

impl std::error::Error for OutputFailed {}

fn wrap_failure(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), OutputFailed(e))
}

/// Standard output, locked; line-buffered like `println!`, but its errors are returned.
pub struct Out(io::StdoutLock<'static>);

impl Out {
    pub fn new() -> Out {
        Out(io::stdout().lock())
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(wrap_failure)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(wrap_failure)
    }
}

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = Out::new();
    out.write_all(text.as_bytes())?;
    out.flush()
}

fn output_failure(error: &anyhow::Error) -> Option<&OutputFailed> {
    error.chain().find_map(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<OutputFailed>())
    })
}

/// A command's failures already told on standard error, one `error:` line each (several files
/// checked): the command ends with this exit code and says nothing more.
#[derive(Debug)]
pub struct Reported(pub u8);

impl fmt::Display for Reported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "already reported (exit code {})", self.0)
    }
}

impl std::error::Error for Reported {}

/// Tells a failure on standard error: `error: ` and [`message`], one line. Nothing is told for
/// failures already [`Reported`].
pub fn report(error: &anyhow::Error) {
    if error.downcast_ref::<Reported>().is_none() {
        // A closed standard error leaves nowhere to say more.
        let _ = writeln!(io::stderr(), "error: {}", message(error));
    }
}

/// How a failed command ends: `None` for a closed pipe (quiet success), otherwise the exit code.
pub fn exit_code(error: &anyhow::Error) -> Option<u8> {
    if let Some(Reported(code)) = error.downcast_ref::<Reported>() {
        return Some(*code);
    }
    match output_failure(error) {
        Some(failed) if failed.0.kind() == io::ErrorKind::BrokenPipe => None,
        // A write that failed is the system's trouble, not bad input: 1, as cargo and ripgrep do.
        Some(_) => Some(1),
        // So is any other failed system call: a file that cannot be read or written, a port in
        // use. Text that is not UTF-8 is the input's fault, not the system's.
        None if error.chain().any(|c| {
            c.is::<WriteFailed>()
                || c.downcast_ref::<io::Error>().is_some_and(|e| e.kind() != io::ErrorKind::InvalidData)
        }) =>
        {
            Some(1)
        }
        // Every other failure the user can cause is bad input; 2 matches clap's usage errors.
        None => Some(2),
    }
}

/// The message for a failure: for a write, only the write's own error (the context around it
/// says nothing more to the user).
pub fn message(error: &anyhow::Error) -> String {
    match output_failure(error) {
        Some(failed) => failed.to_string(),
        None => without_repeats(error),
    }
}

/// The error and its causes, each said once: many errors print their source in their own
/// message too, and the same words three times help no one.
fn without_repeats(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// Where `--json FILE` or `--record FILE` goes: standard output (`-`, or a path that is this
/// process's standard output, such as `/dev/stdout`), or a file opened before the run so that a
/// bad path fails at once. Regular files are replaced when written (a run that fails leaves
/// them as they were); anything else (`/dev/null`, a FIFO, `>(jq …)`, a terminal) is written as
/// a stream, as `>` in a shell would.
pub enum Target {
    Stdout,
    /// `/dev/stderr`, or the file standard error is redirected to: written at its position.
    Stderr,
    File {
        file: std::fs::File,
        path: std::path::PathBuf,
        regular: bool,
    },
}

/// A file named on the command line that could not be written (exit code 1: the system's
/// trouble, not the user's input).
#[derive(Debug)]
pub struct WriteFailed {
    pub what: String,
    pub source: io::Error,
}

impl fmt::Display for WriteFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.source)
    }
}

impl std::error::Error for WriteFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }
}

/// The device and inode of an open file, to tell whether two paths are one file.
#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// The identity of the file behind one of this process's standard streams, when it can be known.
#[cfg(unix)]
fn stream_identity(fd: std::os::fd::BorrowedFd<'_>) -> Option<(u64, u64)> {
    let fd = fd.try_clone_to_owned().ok()?;
    std::fs::File::from(fd).metadata().ok().map(|m| identity(&m))
}

/// Whether `path` names the same file as `other` (both must exist).
pub fn same_file(path: &std::path::Path, other: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        match (std::fs::metadata(path), std::fs::metadata(other)) {
            (Ok(a), Ok(b)) => identity(&a) == identity(&b),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        path == other
    }
}

impl Target {
    /// Opens the target of `option` (`--json`, `--record`): `-` is standard output.
    pub fn open(option: &str, path: &std::path::Path) -> anyhow::Result<Target> {
        if path.as_os_str() == "-" {
            return Ok(Target::Stdout);
        }
        // Not truncated yet: a run that fails leaves an existing file as it was.
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| WriteFailed { what: format!("{option}: cannot write {}", path.display()), source: e })?;
        let meta = file
            .metadata()
            .map_err(|e| WriteFailed { what: format!("{option}: cannot write {}", path.display()), source: e })?;
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            // `/dev/stdout`, or the file standard output is redirected to: written as `-` is,
            // at standard output's own position (and the same for standard error).
            if stream_identity(io::stdout().as_fd()) == Some(identity(&meta)) {
                return Ok(Target::Stdout);
            }
            if stream_identity(io::stderr().as_fd()) == Some(identity(&meta)) {
                return Ok(Target::Stderr);
            }
        }
        Ok(Target::File { file, path: path.to_path_buf(), regular: meta.is_file() })
    }

    /// Whether the text goes to standard output (then it is printed alone).
    pub fn is_stdout(&self) -> bool {
        matches!(self, Target::Stdout)
    }

    /// Writes the whole text: standard output through [`print`], a regular file replaced and
    /// synced, any other file written as a stream.
    pub fn write(&mut self, text: &str) -> anyhow::Result<()> {
        match self {
            Target::Stdout => Ok(print(text)?),
            Target::Stderr => {
                let mut err = io::stderr().lock();
                err.write_all(text.as_bytes())
                    .and_then(|()| err.flush())
                    .map_err(|e| WriteFailed { what: "cannot write to standard error".to_string(), source: e }.into())
            }
            Target::File { file, path, regular } => {
                let written = if *regular {
                    file.set_len(0).and_then(|()| file.write_all(text.as_bytes())).and_then(|()| file.sync_all())
                } else {
                    file.write_all(text.as_bytes()).and_then(|()| file.flush())
                };
                written.map_err(|e| WriteFailed { what: format!("cannot write {}", path.display()), source: e }.into())
            }
        }
    }
}

/// The JSON document a command writes (`--json`): pretty, its numbers the figures they are.
/// Float arithmetic leaves traces that are no part of a result (`luck` of `1.1e-16` where the
/// sum is 0, `0.06399759999999997`, `-0.0`): every number is written to 12 significant digits,
/// and one smaller than 1e-12 in size as 0. The results are estimates from at most billions of
/// games, so no digit that means anything is lost.
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> anyhow::Result<String> {
    let mut value = serde_json::to_value(value)?;
    tidy(&mut value);
    Ok(serde_json::to_string_pretty(&value)?)
}

fn tidy(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(x) = n.as_f64().map(tidy_number).and_then(serde_json::Number::from_f64) {
                *n = x;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        Value::Object(members) => members.values_mut().for_each(tidy),
        _ => {}
    }
}

fn tidy_number(x: f64) -> f64 {
    if x.abs() < 1e-12 {
        return 0.0;
    }
    // Printed with 12 significant digits and read back: the nearest float to that decimal,
    // which serde_json writes in its shortest form.
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// The columns a message may take in a terminal.
pub const COLUMNS: usize = 80;

/// Each line of `text` broken between words into lines of at most [`COLUMNS`] columns (a word
/// longer than that stays whole), continuation lines indented by two spaces: a terminal would
/// otherwise break the message inside a word.
pub fn wrap(text: &str) -> String {
    let mut out = String::new();
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        if line.chars().count() <= COLUMNS {
            out.push_str(line);
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        let indent = " ".repeat(lead + 2);
        out.push_str(&line[..lead]);
        let mut col = lead;
        for (i, word) in line.split_whitespace().enumerate() {
            let len = word.chars().count();
            if i > 0 && col + 1 + len > COLUMNS {
                out.push('\n');
                out.push_str(&indent);
                col = indent.len();
            } else if i > 0 {
                out.push(' ');
                col += 1;
            }
            out.push_str(word);
            col += len;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers_are_the_figures() {
        let value = serde_json::json!({"a": -0.0, "b": [1.1102230246251565e-16, 0.06399759999999997], "c": 7,
            "d": 0.30000000000000004, "e": 123456.78901234567, "f": -2.5e-3, "g": 1e300, "h": u64::MAX});
        let text = json_text(&value).expect("JSON");
        let back: serde_json::Value = serde_json::from_str(&text).expect("read back");
        assert_eq!(
            back,
            serde_json::json!({"a": 0.0, "b": [0.0, 0.0639976], "c": 7, "d": 0.3, "e": 123456.789012,
                "f": -0.0025, "g": 1e300, "h": u64::MAX})
        );
        // Equal values, -0.0 and 0.0 among them: the text says which.
        assert!(text.contains("\"a\": 0.0,") && !text.contains("e-"), "{text}");
    }

    #[test]
    fn long_lines_break_between_words() {
        let text = format!("Error: {}", "word ".repeat(30).trim_end());
        let wrapped = wrap(&text);
        assert!(wrapped.lines().all(|l| l.chars().count() <= COLUMNS), "{wrapped}");
        assert_eq!(wrapped.split_whitespace().collect::<Vec<_>>(), text.split_whitespace().collect::<Vec<_>>());
        assert_eq!(wrap("short line\n  kept"), "short line\n  kept");
    }
}
