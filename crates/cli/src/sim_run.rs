//! What `uno sim` and `duel sim` share, so they behave alike: how many games, how many worker
//! threads, the progress bar on a terminal, the 95% interval, and how rates are printed.

use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::time::Duration;

/// `--games`: a whole number, at least 1 (zero games would print an empty table).
pub fn parse_games(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("the number of games must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{}' is not a whole number of games", excerpt(text))),
    }
}

/// `--threads`: a whole number, at least 1.
pub fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    match text.parse::<usize>() {
        Ok(n) => NonZeroUsize::new(n).ok_or_else(|| "the number of threads must be at least 1".to_string()),
        Err(_) => Err(format!("'{}' is not a whole number of threads", excerpt(text))),
    }
}

/// The worker threads to start: as many as asked, but never more than the machine runs at once
/// (results do not depend on the count, and more threads would only wait); by default all cores.
pub fn threads(asked: Option<NonZeroUsize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    asked.map_or(cores, |n| n.get().min(cores))
}

/// A bounded excerpt of user text for a message.
fn excerpt(text: &str) -> String {
    const MAX: usize = 32;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

/// A progress bar on standard error when it is a terminal, nothing otherwise.
pub struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    pub fn new(games: u64) -> Progress {
        Progress(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(games);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        }))
    }

    pub fn inc(&self, games: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(games);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// One interval for both simulators (the Duel one counts a draw as half a win).
pub use uno_bots::sim::wilson;

/// A rate as a percentage with two decimals, the one format both simulators print.
pub fn percent(rate: f64) -> String {
    format!("{:.2}%", 100.0 * rate)
}

/// An interval as `lo%-hi%`.
pub fn interval((lo, hi): (f64, f64)) -> String {
    format!("{}-{}", percent(lo), percent(hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_never_exceed_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        assert_eq!(threads(NonZeroUsize::new(1000)), cores);
        assert_eq!(threads(NonZeroUsize::new(1)), 1);
        assert_eq!(threads(None), cores);
    }
}
