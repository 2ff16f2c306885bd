//! `--bots`: one bot name for every seat, or a comma-separated list with one per seat, parsed
//! when the arguments are read so a bad name is refused before anything runs.

use anyhow::bail;
use uno_bots::{Bot, BotSpec};

/// clap's parser for one name of the list.
pub fn parse_bot(text: &str) -> Result<BotSpec, String> {
    text.trim().parse::<BotSpec>().map_err(|e| e.to_string())
}

/// One bot per seat: a single name fills every seat, a list must name each.
pub fn per_seat(bots: &[BotSpec], seats: usize) -> anyhow::Result<Vec<BotSpec>> {
    match bots {
        [] => bail!("--bots: name at least one bot ({})", uno_bots::BOT_NAMES.join(", ")),
        [one] => Ok(vec![*one; seats]),
        list if list.len() == seats => Ok(list.to_vec()),
        list => bail!("--bots: give one bot name, or one per seat ({} names for {seats} seats)", list.len()),
    }
}

/// Builds the bots for `seats` seats from `--bots` (one name for all, or one per seat).
pub fn make_bots(specs: &[BotSpec], seats: &[usize], seed: u64) -> anyhow::Result<Vec<Box<dyn Bot>>> {
    let specs = per_seat(specs, seats.len())?;
    Ok(seats.iter().zip(specs).map(|(&seat, spec)| spec.build(seeding::table_bot_seed(seed, seat))).collect())
}
