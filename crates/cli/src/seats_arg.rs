//! `--players` and `--seat`, shared by the commands that seat a table or view one seat.

use anyhow::{bail, Context};
use uno::{Rules, Seat};

/// The seat count to use: the one asked for, checked, or 4 brought into the rules' range.
pub fn player_count(rules: &Rules, asked: Option<usize>) -> anyhow::Result<usize> {
    match asked {
        Some(n) => {
            rules.check_players(n).context("--players")?;
            Ok(n)
        }
        // The count nearest 4 that the rules deal for (the deck may run out before players.max),
        // the smaller of two as near; when none deals, 4 brought into range, refused by name.
        None => {
            let dealt = (rules.min_players()..=rules.max_players())
                .filter(|&n| rules.check_players(n).is_ok())
                .min_by_key(|&n| (n.abs_diff(4), n));
            match dealt {
                Some(n) => Ok(n),
                None => {
                    let n = 4usize.clamp(rules.min_players(), rules.max_players());
                    rules.check_players(n).context("the rules deal for no number of players")?;
                    Ok(n)
                }
            }
        }
    }
}

/// The seat from a 1-based `--seat`, checked against the table.
pub fn seat_arg(seat: usize, players: usize) -> anyhow::Result<Seat> {
    if seat == 0 || seat > players {
        bail!("--seat: this game has seats 1 to {players}, not {seat}");
    }
    Seat::all(players)
        .nth(seat - 1)
        .ok_or_else(|| anyhow::anyhow!("--seat: this game has seats 1 to {players}, not {seat}"))
}
