//! Why a rules file is refused: the error that names what is wrong.

use thiserror::Error;

use super::limits::{MAX_COPIES, MAX_PLAYERS};
use super::presets::PRESET_NAMES;
use crate::card::Color;

/// Why a rules file cannot make a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The text is not a rules file (TOML or JSON), or names an unknown field or value.
    #[error("rules file: {0}")]
    Syntax(String),
    /// No preset has this name.
    #[error("unknown preset '{0}' (known: {known})", known = PRESET_NAMES.join(", "))]
    UnknownPreset(String),
    /// `deck.colors` is empty.
    #[error("deck.colors is empty: a deck needs at least one colour")]
    NoColors,
    /// `deck.colors` lists a colour twice.
    #[error("deck.colors lists {0} twice")]
    DuplicateColor(Color),
    /// `deck.per_color` names a face that is not a coloured card's.
    #[error("deck.per_color: unknown face '{0}' (expected 0-9, skip, reverse, draw_two)")]
    UnknownColoredFace(String),
    /// `deck.wild` names something that is not a wild.
    #[error("deck.wild: unknown wild '{0}' (expected wild, wild_draw_four)")]
    UnknownWildFace(String),
    /// More copies of one card than [`MAX_COPIES`].
    #[error("deck: {count} copies of {face} is more than the limit of {MAX_COPIES}")]
    TooManyCopies {
        /// The card's key in the file.
        face: String,
        /// The copies asked for.
        count: u32,
    },
    /// The deck holds no card.
    #[error("the deck has no card")]
    EmptyDeck,
    /// `players` outside `2 <= min <= max <= MAX_PLAYERS`.
    #[error("players: min {min} and max {max} must satisfy 2 <= min <= max <= {MAX_PLAYERS}")]
    PlayersOutOfRange {
        /// `players.min`.
        min: u32,
        /// `players.max`.
        max: u32,
    },
    /// `deal.hand_size` is 0.
    #[error("deal.hand_size must be at least 1")]
    EmptyHands,
    /// A table of a size the rules do not seat ([`Rules::check_players`](super::Rules::check_players)).
    #[error("these rules seat {min} to {max} players, not {players}")]
    PlayerCount {
        /// The players asked for.
        players: usize,
        /// The fewest the rules seat.
        min: usize,
        /// The most the rules seat.
        max: usize,
    },
    /// The hands and the first card need more cards than the deck has.
    #[error("deal.hand_size {hand_size} is too large for {players} players: dealing it and turning up the first card needs {needed} cards, the deck has {have}")]
    DeckTooSmall {
        /// The players to deal to.
        players: u32,
        /// Cards per hand.
        hand_size: u32,
        /// Cards the deal needs.
        needed: u32,
        /// Cards in the deck.
        have: u32,
    },
    /// The first-card rule redraws until a number, and the deck has none.
    #[error("deal.first_card = redraw_until_number needs number cards in the deck")]
    NoNumberCards,
    /// Same-number runs are on, and the deck has no number card.
    #[error("play.multi_play = same_number needs number cards in the deck")]
    MultiPlayWithoutNumbers,
    /// A match to a points target with a deck whose every card is worth 0: nobody ever scores,
    /// so the match would never end.
    #[error("scoring.target is set, and every card in the deck is worth 0 points: the match could never end")]
    NoPoints,
    /// A match to a target the deck's points reach only after more than `rounds` rounds even
    /// if every round's winner scored the whole deck: the match would run for hours or days.
    #[error("scoring.target {target} needs more than {rounds} rounds: the whole deck is worth {deck_points} points, the most one round can score")]
    TargetOutOfReach {
        /// The target given.
        target: u32,
        /// What every card of the deck is worth together.
        deck_points: u64,
        /// The most rounds a match may need at the least ([`MAX_ROUNDS_TO_TARGET`](crate::rules::MAX_ROUNDS_TO_TARGET)).
        rounds: u32,
    },
    /// The official first-card rule returns every Wild Draw Four, and the deck holds nothing else.
    #[error("deal.first_card = official sends every Wild Draw Four back, and the deck has nothing else")]
    OnlyWildDrawFours,
    /// `play.turn_cap` is 0.
    #[error("play.turn_cap must be at least 1")]
    ZeroTurnCap,
    /// `scoring.target` is 0.
    #[error("scoring.target must be at least 1")]
    ZeroTarget,
    /// `end.max_turns` is 0.
    #[error("end.max_turns must be at least 1")]
    ZeroMaxTurns,
    /// A number above its documented maximum (kept small so no game runs unbounded or wraps).
    #[error("{field} is {value}, more than the limit of {max}")]
    OverLimit {
        /// The field, as the file names it.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The limit.
        max: u64,
    },
}

impl RulesError {
    /// Whether the file asks for more than the engine plays (a number, a deck, copies, seats or a
    /// target past their limits), rather than for something that is no game at all.
    pub fn is_over_limit(&self) -> bool {
        match self {
            RulesError::TooManyCopies { .. } | RulesError::OverLimit { .. } | RulesError::TargetOutOfReach { .. } => {
                true
            }
            RulesError::PlayersOutOfRange { max, .. } => *max as usize > MAX_PLAYERS,
            _ => false,
        }
    }

    /// The setting the error is about, as a rules file names it (`deal.hand_size`,
    /// `deck.per_color.skip`), so that a reader of the file can point at where it is written;
    /// `None` for an error about no one setting (the text itself, a preset's name, a table's
    /// size).
    pub fn setting(&self) -> Option<String> {
        let named = match self {
            RulesError::Syntax(_) | RulesError::UnknownPreset(_) | RulesError::PlayerCount { .. } => return None,
            RulesError::NoColors | RulesError::DuplicateColor(_) => "deck.colors",
            RulesError::UnknownColoredFace(face) => return Some(format!("deck.per_color.{face}")),
            RulesError::UnknownWildFace(face) => return Some(format!("deck.wild.{face}")),
            RulesError::TooManyCopies { face, .. } => {
                let section = if face.starts_with("wild") { "wild" } else { "per_color" };
                return Some(format!("deck.{section}.{face}"));
            }
            RulesError::EmptyDeck => "deck",
            RulesError::PlayersOutOfRange { min, .. } if *min < 2 => "players.min",
            RulesError::PlayersOutOfRange { .. } => "players.max",
            RulesError::EmptyHands | RulesError::DeckTooSmall { .. } => "deal.hand_size",
            RulesError::NoNumberCards | RulesError::OnlyWildDrawFours => "deal.first_card",
            RulesError::MultiPlayWithoutNumbers => "play.multi_play",
            RulesError::NoPoints | RulesError::TargetOutOfReach { .. } | RulesError::ZeroTarget => "scoring.target",
            RulesError::ZeroTurnCap => "play.turn_cap",
            RulesError::ZeroMaxTurns => "end.max_turns",
            // `name (characters)` is the setting `name`.
            RulesError::OverLimit { field, .. } => field.split(' ').next().unwrap_or(field),
        };
        Some(named.to_string())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Rules, RulesConfig};

    /// Each error about one setting names the setting the file wrote, so that a reader of the
    /// file can point at it.
    #[test]
    fn an_error_names_the_setting_the_file_wrote() {
        let long_name = format!("name = \"{}\"", "x".repeat(1000));
        for text in [
            "[deal]\nhand_size = 0",
            "[deal]\nhand_size = 60",
            "[players]\nmin = 1",
            "[players]\nmax = 99",
            "[deck]\ncolors = []",
            "[deck]\ncolors = [\"red\", \"red\"]",
            "[deck.per_color]\nskip = 1000",
            "[deck.per_color]\nsmile = 1",
            "[deck.wild]\nwild = 1000",
            "[play]\nturn_cap = 0",
            "[scoring]\ntarget = 0",
            "[end]\nmax_turns = 0",
            "[uno]\npenalty = 1000",
            long_name.as_str(),
        ] {
            let config = RulesConfig::from_toml(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let error = Rules::new(config).expect_err(text);
            let setting = error.setting().unwrap_or_else(|| panic!("{text}: {error} names no setting"));
            let mut value: toml::Value = toml::from_str(text).expect("TOML");
            for key in setting.split('.') {
                value =
                    value.get(key).unwrap_or_else(|| panic!("{text}: {error} names {setting}, not written")).clone();
            }
        }
    }
}
