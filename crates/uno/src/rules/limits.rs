//! The bounds on every number and text a rules file may hold.

/// The most seats a table can have.
pub use crate::players::MAX_PLAYERS;
/// Copies of one card kind a deck may hold; keeps hostile rules files from allocating wildly.
pub const MAX_COPIES: u32 = 64;
/// Cards a deck may hold in all (four official decks of 108): room for ten players with big
/// hands, while a round, which every playout, bot search and analysis plays to its end, stays
/// a game's length (64 copies of every card made a deck of 3,456 and rounds of thousands of
/// turns).
pub const MAX_DECK_CARDS: usize = 432;
/// The most cards `deal.hand_size` may deal each player.
pub const MAX_HAND_SIZE: u32 = 50;
/// The highest match target: a match to it ends in a bounded number of rounds.
pub const MAX_TARGET: u32 = 10_000;
/// The fewest rounds a match to its target may need at most: the target is at most this many
/// times the points the whole deck is worth (a round's winner scores at most every other card),
/// so a deck worth little cannot make a match of thousands of rounds.
pub const MAX_ROUNDS_TO_TARGET: u32 = 50;
/// The longest turn cap.
pub const MAX_TURN_CAP: u32 = 100_000;
/// The most points one card may score: with [`MAX_COPIES`] and every colour, a round's score
/// stays far below `u32::MAX`, so totals cannot wrap.
pub const MAX_CARD_POINTS: u32 = 1_000;
/// The most cards an UNO penalty may draw.
pub const MAX_PENALTY: u32 = 50;
/// The longest rules name, in characters (it is shown in lists and pages).
pub const MAX_NAME_CHARS: usize = 64;
/// The longest rules description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1_000;
