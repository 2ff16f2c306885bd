//! What the tables API sends and takes: requests, answers, views and their parts. Plain data, so
//! the host, the games' views and the routes share it without depending on each other.

use serde::{Deserialize, Serialize};
use uno::{Action, Card, EndReason, HouseRules, Observation, Seat};

#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    Human,
    Bot,
}

/// An event and the table version its action produced.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
#[ts(rename = "LoggedEvent", concrete(E = uno::Event))]
pub struct Logged<E> {
    #[ts(type = "number")]
    pub version: u64,
    pub event: E,
}

/// An UNO event and the version its action produced.
pub type LoggedEvent = Logged<uno::Event>;

#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Some human seat is open: nobody acts yet.
    Waiting,
    Playing,
    Finished,
}

/// Who holds a seat, as every viewer sees it: a person's name, or a bot's kind.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct Occupant {
    pub seat: Seat,
    pub kind: SeatKind,
    pub name: Option<String>,
    /// Whether a person holds this seat (always true for a bot).
    pub taken: bool,
    pub bot: Option<String>,
    /// A person's seat whose time ran out twice in a row: a bot plays it until they act again.
    #[serde(default)]
    pub away: bool,
    /// The turns in a row the server played for this person because their time ran out.
    #[serde(default)]
    pub timeouts: u8,
    /// A bot's seat taken over from a person who resigned during play: their name.
    #[serde(default)]
    pub replaced: Option<String>,
    /// The account of the signed-in person at this seat (its profile: `/player.html?id=…`);
    /// `null` for a guest and a bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account: Option<String>,
    /// At a rated table, the signed-in person's rating in its pool when they sat down (or when
    /// its current game was dealt, for a rematch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating: Option<SeatRating>,
}

/// A seat's rating as the lobby and the table show it: `1523`, or `1500?` while provisional.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRating {
    pub points: i32,
    pub provisional: bool,
}

/// The table as one viewer sees it: `GET /api/tables/{id}`, the answer to an action, and every
/// WebSocket message (`type` = `state` for a full view, `update` after a change).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct TableView {
    /// `state` for a full view, `update` for the answer to an action.
    #[serde(rename = "type")]
    #[ts(type = r#""state" | "update""#)]
    pub kind: String,
    pub id: String,
    pub game: String,
    pub status: TableStatus,
    /// Rises by one with every accepted action (and with a rematch); send it back with an action.
    #[ts(type = "number")]
    pub version: u64,
    pub generation: u32,
    pub rules: String,
    pub seats: Vec<Occupant>,
    /// The viewer's seat; `null` for a spectator.
    pub you: Option<Seat>,
    pub spectators: bool,
    /// Whether the creator chose this game's seed: then the creator can work out every hidden
    /// card (every hand, every future draw). Shown to every person before they sit.
    #[serde(default)]
    pub chosen_seed: bool,
    /// Where a "play from here" game started: the kept game and the ply of its position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_from: Option<StartedFrom>,
    pub turn_seconds: Option<u32>,
    /// Milliseconds left on the current turn's timer.
    #[ts(type = "number | null")]
    pub turn_ms_left: Option<u64>,
    /// Whose turn time `turn_ms_left` is (`null` when no clock runs).
    #[serde(default)]
    pub turn_seat: Option<Seat>,
    /// At a table of bots only, after a round: how long the result stays up before the next deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "number | null")]
    pub round_pause_ms: Option<u64>,
    /// After a round or the game: every seat's hand, so everyone sees what was scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revealed_hands: Option<Vec<Vec<uno::Card>>>,
    /// After a round or the game: its result as the engine scored it (the pages show it, they
    /// never count points themselves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_result: Option<RoundResult>,
    /// Everything this viewer may know of the game; `null` while the table waits for its
    /// seats (nothing is dealt before play starts).
    pub view: Option<Observation>,
    /// What the viewer may do now (empty when it may do nothing).
    pub legal_actions: Vec<Action>,
    /// Recent events (on a read), or the events of this change (action answer, push).
    pub events: Vec<LoggedEvent>,
}

/// The result of the round just ended (and of the game, once over), as the engine scored it.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    /// The round, from 1.
    pub round: u32,
    /// Who emptied their hand; `null` when the round ended without a winner (a stalemate, a
    /// turn cap).
    pub winner: Option<Seat>,
    /// What the winner scored this round: the points of every card left in the other hands
    /// (the engine's `round_scored` event); 0 without a winner.
    pub points: u32,
    /// Every seat's hand at the end, in seat order, with what it was worth under these rules.
    pub hands: Vec<HandResult>,
    /// Every seat's match points, this round included.
    pub totals: Vec<u32>,
    /// Whether the game is over (the match decided, or ended without a winner).
    pub game_over: bool,
    /// Who won the game, once it is over; `null` while it goes on or when nobody won.
    pub match_winner: Option<Seat>,
    /// Why the game ended, once it is over.
    pub end_reason: Option<EndReason>,
}

/// One seat's hand at a round's end.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    pub cards: Vec<Card>,
    /// The points these cards are worth to the round's winner (the rules' scoring table).
    pub points: u32,
}

/// A table in a list.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct TableSummary {
    pub id: String,
    pub status: TableStatus,
    pub rules: String,
    pub seats: Vec<Occupant>,
    pub open_seats: usize,
    pub spectators: bool,
    /// Whether the creator chose the seed (and so can work out every hidden card).
    #[serde(default)]
    pub chosen_seed: bool,
    /// Where a "play from here" table started (a kept game's position, maybe an imported
    /// record's): its creator chose the position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_from: Option<StartedFrom>,
    #[ts(type = "number")]
    pub version: u64,
    /// How far the dealt game is; `null` before the deal.
    #[serde(default)]
    pub progress: Option<Progress>,
    /// People's seats (not bots'), held or open.
    #[serde(default)]
    pub people: usize,
}

/// How far a game in play is: its round (from 1), the turns played in it, every seat's match
/// points and the target (`null`: one round).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub round: u32,
    pub turns: u32,
    pub scores: Vec<u32>,
    pub target: Option<u32>,
}

/// The kept game a "play from here" table started from: table `table`'s `game`th game (from 0)
/// after `ply` actions. The cards no seat could see there (the draw pile) were shuffled again
/// with a fresh seed; from an imported record (`imported`: a file someone sent in, its hands
/// whatever the file says) the hands were dealt afresh too, each as large as it was. Shown in
/// the lobby and the table's view before anyone sits, as a chosen seed is: whoever read the
/// kept game knows where the position came from.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartedFrom {
    pub table: String,
    pub game: usize,
    pub ply: usize,
    #[serde(default)]
    pub imported: bool,
}

/// `GET /api/games/live`: the games being played now that anyone may watch, people's first.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct LiveGames {
    pub games: Vec<TableSummary>,
}

/// `GET /api/tables`: the tables open to spectators (the lobby).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct TableList {
    pub tables: Vec<TableSummary>,
}

/// `POST /api/tables`.
#[derive(ts_rs::TS, Clone, Debug, Default, Deserialize)]
#[ts(optional_fields)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// A preset name (`official` when neither this nor `rules` is given).
    pub preset: Option<String>,
    /// A rules file: its text (TOML or JSON) as a string, or the rules as a JSON object.
    #[ts(optional, type = "unknown")]
    pub rules: Option<serde_json::Value>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub house_rules: HouseRules,
    pub seats: Vec<SeatSpec>,
    /// The creator's display name (for the first human seat unless `creator_seat` says another).
    pub name: Option<String>,
    pub creator_seat: Option<Seat>,
    /// Whether people without a seat may watch (public view only). Default true.
    pub spectators: Option<bool>,
    /// Seconds a human has for a turn; on timeout the server plays the default (draw, then pass).
    pub turn_seconds: Option<u32>,
    /// Milliseconds a bot waits before acting (default: the server's).
    pub bot_delay_ms: Option<u32>,
    /// Fixes the shuffle (tests, replays); random otherwise. A decimal string or a number.
    #[serde(default, with = "uno::wide::option")]
    #[ts(optional, type = "string | number")]
    pub seed: Option<u64>,
    /// Starts from a kept game's position instead of a deal ("play from here"): its rules and
    /// hands, as many seats as it had; `preset`, `rules`, `house_rules` and `seed` are not given.
    pub from: Option<StartFrom>,
    /// A rated table (docs/accounts.md): its games change its players' ratings. Only a
    /// signed-in person opens one, every seat is a signed-in person's (no bots, no guests), it
    /// plays a preset as it ships, and it has a turn timer (60 s unless `turn_seconds` says).
    pub rated: Option<bool>,
}

/// A position of a kept game: table `table`'s `game`th game (its last without one) after `ply`
/// actions.
#[derive(ts_rs::TS, Clone, Debug, Deserialize)]
#[ts(optional_fields)]
#[serde(deny_unknown_fields)]
pub struct StartFrom {
    pub table: String,
    pub game: Option<usize>,
    pub ply: usize,
}

#[derive(ts_rs::TS, Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatSpec {
    Human {
        #[serde(default)]
        #[ts(optional)]
        name: Option<String>,
    },
    Bot {
        bot: String,
        #[serde(default, with = "uno::wide::option")]
        #[ts(optional, type = "string | number")]
        seed: Option<u64>,
        #[serde(default)]
        #[ts(optional)]
        delay_ms: Option<u32>,
    },
}

pub fn invite_path(id: &str) -> String {
    format!("/uno.html?table={id}")
}
