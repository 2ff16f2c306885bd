//! What the Duel routes send and take: the game view every route answers, its history and last
//! move, the defaults the page offers, and the request bodies. The pages' declarations are
//! generated from these (`crate::protocol`).

use duel::{Cell, Coord, Difficulty, DuelGame, Event, Piece, Side, Stage, Status};
use serde::{Deserialize, Serialize};

use crate::host::Seat;

/// One event of a game's history; a move names the piece that moved (its rank is not in the
/// event itself).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct HistoryEvent {
    #[serde(flatten)]
    pub event: Event,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub piece: Option<Piece>,
}

/// A move as the page shows it: from → to, and who lost a fight there.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMove {
    pub side: Side,
    pub from: Coord,
    pub to: Coord,
    /// Set when the move was an attack: the side whose piece was eliminated.
    pub eliminated: Option<Side>,
    /// The number of the piece that moved.
    #[serde(default)]
    pub rank: Option<u8>,
}

/// What every route answers, and a socket's `state`.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct DuelView {
    pub id: String,
    pub difficulty: Difficulty,
    pub width: u8,
    pub height: u8,
    pub status: Status,
    /// Rows from the top (row 1) down; each row from column `a` rightwards.
    pub cells: Vec<Vec<Cell>>,
    /// The outcome message in the end stage.
    pub outcome_message: Option<&'static str>,
    /// Why the play stage ended, in words.
    pub end_reason: Option<&'static str>,
    pub last_move: Option<LastMove>,
    /// Play rounds begun since the last fight (or since play began): a long quiet spell is a
    /// standoff the page points out.
    pub rounds_without_fight: u32,
    /// The game's newest events, oldest first (at most `Duel::RECENT_EVENTS`); only in the
    /// answer to `GET`, for a page that reloads.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(optional = nullable)]
    pub history: Vec<HistoryEvent>,
    /// The events caused by this request's action (empty for create and get).
    pub events: Vec<Event>,
    /// The computer's answer to a move, in the same response (empty otherwise).
    pub computer: Vec<Event>,
}

/// The defaults the page offers before a game.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct DuelConfig {
    pub default_width: u8,
    pub default_height: u8,
    pub max_dimension: u8,
    pub difficulties: Vec<Difficulty>,
    pub default_difficulty: Difficulty,
}

#[derive(ts_rs::TS, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct CreateRequest {
    pub difficulty: Option<Difficulty>,
    pub width: Option<u8>,
    pub height: Option<u8>,
}

#[derive(ts_rs::TS, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellKey {
    pub cell: String,
    pub key: String,
}

/// The answer to `POST /api/duel`: the new game, and the person's seat (red) with its secret
/// token, which every action of the game needs (`Authorization: Bearer <token>`).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct DuelCreated {
    #[serde(flatten)]
    #[ts(flatten)]
    pub view: DuelView,
    pub seat: Seat,
    pub token: String,
}

/// A game's view: the grid, the stage, the last move, the history (a read's) and the events of
/// a request (its own, and the computer's answer).
#[allow(clippy::too_many_arguments, reason = "the view's fields, each from where it is kept")]
pub(crate) fn view(
    id: &str,
    game: &DuelGame,
    difficulty: Difficulty,
    last_move: Option<LastMove>,
    rounds_without_fight: u32,
    history: Vec<HistoryEvent>,
    events: Vec<Event>,
    computer: Vec<Event>,
) -> DuelView {
    let cells = (0..game.height())
        .map(|row| (0..game.width()).map(|col| super::cell(game, Coord::new(col, row))).collect())
        .collect();
    let (outcome_message, end_reason) = match game.stage() {
        Stage::End { outcome, reason, .. } => (Some(outcome.message()), Some(reason.message())),
        _ => (None, None),
    };
    DuelView {
        id: id.to_string(),
        difficulty,
        width: game.width(),
        height: game.height(),
        status: game.status(),
        cells,
        outcome_message,
        end_reason,
        last_move,
        rounds_without_fight,
        history,
        events,
        computer,
    }
}
