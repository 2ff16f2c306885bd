//! Reading a game record file (`uno replay`, `uno analyse`): bounded, checked, replayed.

use std::path::Path;

use anyhow::{bail, Context};
use uno::courses::cs205::player_name;
use uno::GameRecord;

use crate::words::action_words;

/// Record files larger than this are refused: a whole game is a few hundred kilobytes at most.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// Reads and checks a record file: bounded size, the engine's JSON, a replay that holds.
pub fn load(path: &Path) -> anyhow::Result<GameRecord> {
    let text = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut std::io::Read::take(std::io::stdin().lock(), MAX_RECORD_BYTES + 1),
            &mut text,
        )
        .context("cannot read the record from standard input")?;
        text
    } else {
        let len = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?.len();
        if len > MAX_RECORD_BYTES {
            bail!("{}: {len} bytes, more than a record can be ({MAX_RECORD_BYTES} bytes)", path.display());
        }
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    if text.len() as u64 > MAX_RECORD_BYTES {
        bail!("{}: more than a record can be ({MAX_RECORD_BYTES} bytes)", path.display());
    }
    let record = GameRecord::from_json(&text).with_context(|| format!("{}: not a game record", name(path)))?;
    record.replay().map_err(|e| anyhow::anyhow!("{}: the record does not replay: {}", name(path), replay_words(&e)))?;
    Ok(record)
}

/// The record's name in messages.
fn name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// Why a record does not replay, actions and players counted from 1 as the replay counts them.
pub fn replay_words(e: &uno::ReplayError) -> String {
    match e {
        uno::ReplayError::Illegal { index, seat, action, reason } => format!(
            "action {} ({} by {}) is illegal: {reason}",
            index + 1,
            action_words(*action),
            player_name(seat.index())
        ),
        other => other.to_string(),
    }
}
