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

fn wrap(e: io::Error) -> io::Error {
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
        self.0.write(buf).map_err(wrap)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(wrap)
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

/// How a failed command ends: `None` for a closed pipe (quiet success), otherwise the exit code.
pub fn exit_code(error: &anyhow::Error) -> Option<u8> {
    match output_failure(error) {
        Some(failed) if failed.0.kind() == io::ErrorKind::BrokenPipe => None,
        // A write that failed is the system's trouble, not bad input: 1, as cargo and ripgrep do.
        Some(_) => Some(1),
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
