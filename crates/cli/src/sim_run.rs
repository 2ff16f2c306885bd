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

/// `--seed`: any whole number from 0 to 18446744073709551615.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| format!("a seed is a whole number from 0 to {} (got '{}')", u64::MAX, excerpt(text)))
}

/// `--players`: a whole number (the rules say which counts they allow).
pub fn parse_players(text: &str) -> Result<usize, String> {
    text.parse::<usize>().map_err(|_| format!("the number of players is a whole number (got '{}')", excerpt(text)))
}

/// `--seat`: a whole number from 1 (the game says how many seats it has).
pub fn parse_seat(text: &str) -> Result<usize, String> {
    text.parse::<usize>().map_err(|_| format!("a seat is a whole number from 1 (got '{}')", excerpt(text)))
}

/// A whole number of at least 1 (`--positions`, `--max-rounds`).
pub fn parse_count(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{}' is not a whole number", excerpt(text))),
    }
}

/// A whole number of 0 or more, said in words when it is not one.
pub fn parse_whole<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse::<T>().map_err(|_| format!("'{}' is not a whole number of 0 or more (or is too large)", excerpt(text)))
}

/// A whole number from `lo` to `hi`.
pub fn parse_within(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(_) if hi == u64::MAX => Err(format!("at least {lo} (got '{}')", excerpt(text))),
        _ => Err(format!("a whole number from {lo} to {hi} (got '{}')", excerpt(text))),
    }
}

/// Points (of win share or win chance): a finite number.
pub fn parse_points(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("'{}' is not a number of points", excerpt(text))),
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

/// A progress bar's style from `template`, with `{rate}`: whole units per second (indicatif's
/// own `{per_sec}` prints four decimals, and the line then wraps in 80 columns).
pub fn style(template: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}/s", state.per_sec());
        })
}

/// A progress bar on standard error when it is a terminal, nothing otherwise.
pub struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    pub fn new(games: u64) -> Progress {
        Progress(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(games);
            bar.set_style(style("{bar:30} {pos}/{len} games  {rate}  eta {eta}"));
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
pub use uno_lab::sim::wilson;

/// A rate as a percentage with two decimals, the one format both simulators print.
pub fn percent(rate: f64) -> String {
    format!("{}%", fixed(100.0 * rate, 2))
}

/// `x` with `decimals` decimals, never a negative zero (`-0.0` reads as a loss that is not there).
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

/// `x` with its sign and `decimals` decimals, `+0.0` for zero (never `-0.0`).
pub fn signed(x: f64, decimals: usize) -> String {
    let text = fixed(x, decimals);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// An interval as `lo%-hi%`.
pub fn interval((lo, hi): (f64, f64)) -> String {
    format!("{}-{}", percent(lo), percent(hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_negative_zero() {
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-0.00001, 2), "0.00");
        assert_eq!(fixed(-0.5, 1), "-0.5");
        assert_eq!(signed(-0.0, 1), "+0.0");
        assert_eq!(signed(-0.04, 1), "+0.0");
        assert_eq!(signed(2.0, 2), "+2.00");
        assert_eq!(signed(-2.0, 2), "-2.00");
    }

    #[test]
    fn threads_never_exceed_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        assert_eq!(threads(NonZeroUsize::new(1000)), cores);
        assert_eq!(threads(NonZeroUsize::new(1)), 1);
        assert_eq!(threads(None), cores);
    }
}
