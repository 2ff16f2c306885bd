//! The fixed action space and observation layout, the same for every rule set and table size.
//!
//! Seats in both are *relative*: offset 0 is the viewer, offset `k` the seat `k` places after it
//! in seat order (`(viewer + k) % players`), whatever the direction of play. Entries for offsets
//! at or past the table size are never legal (actions) and always zero (observations).
//!
//! `docs/python.md` carries the same tables for Python users.

/// The most seats any rule set allows (`uno::rules::MAX_PLAYERS`).
pub const MAX_SEATS: usize = 10;
/// Colours an action may name (`uno::Color::ALL`).
pub const COLORS: usize = 4;
/// Distinct cards (`uno::Card::KINDS`): 52 coloured, Wild, Wild Draw Four.
pub const KINDS: usize = 54;
/// Coloured card kinds: indices `0..52` of `uno::Card::index`.
pub const COLORED_KINDS: usize = 52;

/// The action space: one index per decision. `ACTION_NAMES` names each.
pub mod action {
    use super::{COLORED_KINDS, COLORS, MAX_SEATS};

    /// `PLAY + i` plays the coloured card of `uno::Card::index` `i` (`0..52`).
    pub const PLAY: usize = 0;
    /// `PLAY_WILD + c` plays a Wild naming colour `c` (red, yellow, green, blue).
    pub const PLAY_WILD: usize = PLAY + COLORED_KINDS;
    /// `PLAY_WILD_DRAW_FOUR + c` plays a Wild Draw Four naming colour `c`.
    pub const PLAY_WILD_DRAW_FOUR: usize = PLAY_WILD + COLORS;
    /// Draw (one card, as the rules say, or the whole pending penalty).
    pub const DRAW: usize = PLAY_WILD_DRAW_FOUR + COLORS;
    /// Keep the card just drawn and end the turn, or end a same-number run.
    pub const PASS: usize = DRAW + 1;
    /// Call UNO for oneself.
    pub const CALL_UNO: usize = PASS + 1;
    /// `CATCH + k - 1` catches the seat at relative offset `k` (`1..10`) for not calling UNO.
    pub const CATCH: usize = CALL_UNO + 1;
    /// Challenge the Wild Draw Four just played on you.
    pub const CHALLENGE: usize = CATCH + MAX_SEATS - 1;
    /// Take the Wild Draw Four penalty without challenging.
    pub const ACCEPT: usize = CHALLENGE + 1;
    /// `DECLARE_COLOR + c` names colour `c` for a first card that is a wild.
    pub const DECLARE_COLOR: usize = ACCEPT + 1;
    /// `SWAP + k - 1` swaps hands with the seat at relative offset `k` (7–0 rule).
    pub const SWAP: usize = DECLARE_COLOR + COLORS;
    /// Let a reaction window go by (legal only in a reaction window).
    pub const DECLINE: usize = SWAP + MAX_SEATS - 1;
    /// The size of the action space.
    pub const COUNT: usize = DECLINE + 1;
}

/// The observation layout: `obs[OFFSET..OFFSET + LEN]` for each block, as `f32`.
pub mod obs {
    use super::{COLORS, KINDS, MAX_SEATS};

    /// Own hand: copies of each card kind.
    pub const HAND: usize = 0;
    /// The top card of the discard pile, one-hot by kind.
    pub const TOP: usize = HAND + KINDS;
    /// The colour in play, one-hot (all zero while a first-card wild waits for its colour).
    pub const COLOR: usize = TOP + KINDS;
    /// Hand size of each relative seat.
    pub const HAND_SIZES: usize = COLOR + COLORS;
    /// 1 where the relative seat has called UNO for its current hand.
    pub const UNO_CALLED: usize = HAND_SIZES + MAX_SEATS;
    /// One-hot: the relative seat that can be caught for not calling UNO now.
    pub const UNO_EXPOSED: usize = UNO_CALLED + MAX_SEATS;
    /// 1 for each relative seat that exists at this table.
    pub const SEATED: usize = UNO_EXPOSED + MAX_SEATS;
    /// One-hot: the relative seat whose turn it is.
    pub const CURRENT: usize = SEATED + MAX_SEATS;
    /// 1 when play goes in seat order (clockwise), 0 against it.
    pub const DIRECTION: usize = CURRENT + MAX_SEATS;
    /// Cards the player to act must draw unless it stacks.
    pub const PENDING: usize = DIRECTION + 1;
    /// One-hot phase: play, drawn card, choose colour, challenge, choose swap, round over, game
    /// over, same-number run.
    pub const PHASE: usize = PENDING + 1;
    /// Number of phases in `PHASE`.
    pub const PHASES: usize = 8;
    /// Why the viewer decides: `[its turn, a reaction window]`.
    pub const ROLE: usize = PHASE + PHASES;
    /// The card the viewer just drew and decides about, one-hot by kind.
    pub const DRAWN: usize = ROLE + 2;
    /// Copies of each kind face up in the discard pile: every card played since the last
    /// reshuffle (the pile is public).
    pub const DISCARD: usize = DRAWN + KINDS;
    /// Cards left in the draw pile.
    pub const DRAW_PILE: usize = DISCARD + KINDS;
    /// The size of the observation vector.
    pub const SIZE: usize = DRAW_PILE + 1;

    /// The version of this layout: which value means what, at which offset. Every model file
    /// says the version it was trained on (`obs_layout` in its metadata) and the readers refuse
    /// another; a change of any block's meaning, offset or length takes the next number.
    pub const LAYOUT_VERSION: u32 = 1;
}

/// A short name for each action index, for logs and tests (`play R7`, `play W blue`, `catch +2`).
pub fn action_name(index: usize) -> Option<String> {
    use action::*;
    const COLOR_NAMES: [&str; COLORS] = ["red", "yellow", "green", "blue"];
    let name = match index {
        i if i < PLAY_WILD => format!("play {}", uno::Card::from_index(i)?),
        i if i < PLAY_WILD_DRAW_FOUR => format!("play W {}", COLOR_NAMES[i - PLAY_WILD]),
        i if i < DRAW => format!("play W4 {}", COLOR_NAMES[i - PLAY_WILD_DRAW_FOUR]),
        DRAW => "draw".into(),
        PASS => "pass".into(),
        CALL_UNO => "uno".into(),
        i if i < CHALLENGE => format!("catch +{}", i - CATCH + 1),
        CHALLENGE => "challenge".into(),
        ACCEPT => "accept".into(),
        i if i < SWAP => format!("color {}", COLOR_NAMES[i - DECLARE_COLOR]),
        i if i < DECLINE => format!("swap +{}", i - SWAP + 1),
        DECLINE => "decline".into(),
        _ => return None,
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spaces_have_their_documented_sizes() {
        assert_eq!(action::COUNT, 88);
        assert_eq!(obs::SIZE, 283);
        assert_eq!(KINDS, uno::Card::KINDS);
        assert_eq!(MAX_SEATS, uno::rules::MAX_PLAYERS);
    }

    #[test]
    fn every_action_has_a_distinct_name() {
        let names: Vec<String> = (0..action::COUNT).map(|i| action_name(i).expect("named")).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), action::COUNT);
        assert!(action_name(action::COUNT).is_none());
        assert_eq!(names[action::PLAY_WILD + 3], "play W blue");
        assert_eq!(names[action::CATCH + 1], "catch +2");
    }
}
