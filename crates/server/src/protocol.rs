//! The protocol types the pages are typed against, generated into `web/protocol.d.ts` (the
//! UNO table, its replay and the stats page) and `web/duelprotocol.d.ts` (the Duel pages: their
//! names, `Event`, `Action`, `Outcome`, would clash with the UNO engine's in one file).

use ts_rs::{Config, TS};

use uno::rules::{
    DealConfig, DeckConfig, DigitPoints, DrawRule, EndConfig, Exhausted, FirstCard, FirstPlayer, ForcedPlay, JumpIn,
    MultiPlay, PlayConfig, PlayersConfig, RulesConfig, ScoringConfig, SevenZero, Stacking, TwoPlayerRule, UnoCall,
    UnoConfig, WildDrawFourRule,
};
use uno::{Action, Color, Direction, DrawReason, EndReason, Event, Move, Observation, Outcome, Phase};

use crate::messages::{
    CreateTable, HandResult, LiveGames, LoggedEvent, Occupant, Progress, RoundResult, SeatKind, SeatRating, SeatSpec,
    StartFrom, StartedFrom, TableList, TableStatus, TableSummary, TableView,
};

use crate::accounts::passkeys::{PasskeyChallenge, PasskeyFinish, PasskeySignUp, PasskeyView, Passkeys};
use crate::accounts::players::{
    BoardEntry, BotEntry, HistoryPoint, Leaderboard, PlayerView, PoolView, RecentGame, ShownRating,
};
use crate::accounts::{AccountDeleted, AccountView, ClaimRequest, Claimed, HeldSeat, Me, PasswordRequest, SignedOut};
use crate::api::{JoinRequest, Options as UnoOptions, PhraseRequest};
use crate::arena::{ArenaJoined, ArenaLine, ArenaList, ArenaSeat, ArenaTableView, ArenaView, CreateArena, JoinArena};
use crate::error::{ErrorBody, ServerCode};
use crate::games::uno::analysis::Answer as AnalysisAnswer;
use crate::games::uno::records::Imported;
use crate::games::uno::replay::{Frame as ReplayFrame, PositionExport, Step as ReplayStep, UnoFiles};
use crate::games::uno::update::{UpdateDecl as Update, UpdateViewDecl as UpdateView};
use crate::host::phrases::{Phrase, Said as PhraseSaid};
use crate::host::{ActRequest, Created, Joined};
use crate::quick::{QueueRequest, QueueStatus, Queued};
use crate::stats::{Page as StatsPage, PlayerStats};
use crate::ws::SocketError;
use uno::HouseRules;
use uno::IllegalAction;
use uno_lab::analysis::{ActionValue, Analysis, Decision, Method as AnalysisMethod, RoundSummary};

use crate::games::duel::messages::DuelCreated;
use crate::games::duel::records::DuelFrame;
use crate::games::duel::{CellKey, CreateRequest, DuelConfig, DuelView, HistoryEvent, LastMove};
use duel::{
    Action as DuelAction, Actor, Cell, Coord, Difficulty, Dir, EndReason as DuelEndReason, Event as DuelEvent, Key,
    LoggedAction, Outcome as DuelOutcome, Piece, Rank, Side, Stage, Status,
};

fn decl<T: TS>(cfg: &Config) -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}\n", T::decl(cfg))
}

/// The file's text: `head`, then each declaration, one blank line apart.
fn file(head: &str, decls: &[String]) -> String {
    let mut out = format!("{head}\n// Regenerate: UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol\n\n");
    out.push_str(&decls.join("\n"));
    out
}

fn declarations() -> String {
    let cfg = Config::new();
    let decls = [
        // The engine's: what a viewer is told, what happened, what one may do.
        decl::<Color>(&cfg),
        decl::<Direction>(&cfg),
        decl::<Phase>(&cfg),
        decl::<Action>(&cfg),
        decl::<DrawReason>(&cfg),
        decl::<EndReason>(&cfg),
        decl::<Outcome>(&cfg),
        decl::<Event>(&cfg),
        decl::<Observation>(&cfg),
        // The rules, as their configuration (what a rules file holds).
        decl::<RulesConfig>(&cfg),
        decl::<PlayersConfig>(&cfg),
        decl::<DealConfig>(&cfg),
        decl::<FirstPlayer>(&cfg),
        decl::<FirstCard>(&cfg),
        decl::<DeckConfig>(&cfg),
        decl::<PlayConfig>(&cfg),
        decl::<DrawRule>(&cfg),
        decl::<ForcedPlay>(&cfg),
        decl::<Stacking>(&cfg),
        decl::<WildDrawFourRule>(&cfg),
        decl::<TwoPlayerRule>(&cfg),
        decl::<JumpIn>(&cfg),
        decl::<SevenZero>(&cfg),
        decl::<MultiPlay>(&cfg),
        decl::<Exhausted>(&cfg),
        decl::<UnoConfig>(&cfg),
        decl::<UnoCall>(&cfg),
        decl::<ScoringConfig>(&cfg),
        decl::<DigitPoints>(&cfg),
        decl::<EndConfig>(&cfg),
        // The server's: the table and its parts.
        decl::<SeatKind>(&cfg),
        decl::<TableStatus>(&cfg),
        decl::<Occupant>(&cfg),
        decl::<SeatRating>(&cfg),
        decl::<HandResult>(&cfg),
        decl::<RoundResult>(&cfg),
        decl::<LoggedEvent>(&cfg),
        decl::<StartedFrom>(&cfg),
        decl::<TableView>(&cfg),
        decl::<Progress>(&cfg),
        decl::<TableSummary>(&cfg),
        decl::<TableList>(&cfg),
        // `GET /api/games/live`: the games to watch.
        decl::<LiveGames>(&cfg),
        // Quick match (crates/server/src/quick.rs): `POST /api/queue` and what the queue says.
        decl::<QueueRequest>(&cfg),
        decl::<QueueStatus>(&cfg),
        decl::<Queued>(&cfg),
        // Quick phrases (crates/server/src/host/phrases.rs): the list, the body, the socket's message.
        decl::<Phrase>(&cfg),
        decl::<PhraseRequest>(&cfg),
        decl::<PhraseSaid>(&cfg),
        // Arenas (crates/server/src/arena.rs): the bodies and the standings page's view.
        decl::<CreateArena>(&cfg),
        decl::<JoinArena>(&cfg),
        decl::<ArenaLine>(&cfg),
        decl::<ArenaSeat>(&cfg),
        decl::<ArenaTableView>(&cfg),
        decl::<ArenaView>(&cfg),
        decl::<ArenaJoined>(&cfg),
        decl::<ArenaList>(&cfg),
        decl::<Created<TableView>>(&cfg),
        decl::<Joined<TableView>>(&cfg),
        // `GET /api/uno/options` (crates/server/src/api.rs): what the create form offers.
        decl::<UnoOptions>(&cfg),
        // `POST /api/tables`: the create form's body.
        decl::<HouseRules>(&cfg),
        decl::<SeatSpec>(&cfg),
        decl::<StartFrom>(&cfg),
        decl::<CreateTable>(&cfg),
        // `GET /api/games/{id}/replay` (crates/server/src/games/uno/replay.rs).
        decl::<Move>(&cfg),
        decl::<ReplayStep>(&cfg),
        decl::<ReplayFrame>(&cfg),
        // `GET /api/games/{id}/analysis` (crates/server/src/games/uno/analysis.rs; the analysis is
        // uno-lab's).
        decl::<ActionValue>(&cfg),
        decl::<Decision>(&cfg),
        decl::<RoundSummary>(&cfg),
        decl::<AnalysisMethod>(&cfg),
        decl::<Analysis>(&cfg),
        decl::<AnalysisAnswer<'static>>(&cfg),
        // `POST /api/tables/{id}/join` and `.../actions`: the bodies the table page sends.
        decl::<JoinRequest>(&cfg),
        decl::<ActRequest<Action>>(&cfg),
        // `GET /api/games/{id}/position` (crates/server/src/games/uno/replay.rs): a position saved.
        decl::<UnoFiles>(&cfg),
        decl::<PositionExport>(&cfg),
        // `POST /api/records` (crates/server/src/games/uno/records.rs): a record file opened.
        decl::<Imported>(&cfg),
        // Every refusal's body, and the codes the pages word (crates/server/src/error.rs, the
        // engine's `IllegalAction`).
        decl::<ErrorBody>(&cfg),
        decl::<ServerCode>(&cfg),
        decl::<IllegalAction>(&cfg),
        // The WebSocket's `update` (crates/server/src/games/uno/update.rs), what one action changed.
        decl::<UpdateView<'static>>(&cfg),
        decl::<Update<'static>>(&cfg),
        // The WebSocket's answer to a refused message (crates/server/src/ws.rs).
        decl::<SocketError<'static>>(&cfg),
        // `GET /api/stats` (crates/server/src/stats.rs).
        decl::<PlayerStats>(&cfg),
        decl::<StatsPage>(&cfg),
        // Accounts (crates/server/src/accounts): `GET /api/account`, the sign-in and sign-up
        // bodies, signing out everywhere, deleting.
        decl::<AccountView>(&cfg),
        decl::<Me>(&cfg),
        decl::<PasswordRequest>(&cfg),
        decl::<SignedOut>(&cfg),
        decl::<AccountDeleted>(&cfg),
        decl::<HeldSeat>(&cfg),
        decl::<ClaimRequest>(&cfg),
        decl::<Claimed>(&cfg),
        // Passkeys (accounts/passkeys.rs): a ceremony's start and finish, the list.
        decl::<PasskeySignUp>(&cfg),
        decl::<PasskeyChallenge>(&cfg),
        decl::<PasskeyFinish>(&cfg),
        decl::<PasskeyView>(&cfg),
        decl::<Passkeys>(&cfg),
        // `GET /api/players/{id}` and `GET /api/leaderboard/{preset}` (accounts/players.rs).
        decl::<ShownRating>(&cfg),
        decl::<HistoryPoint>(&cfg),
        decl::<PoolView>(&cfg),
        decl::<RecentGame>(&cfg),
        decl::<PlayerView>(&cfg),
        decl::<BoardEntry>(&cfg),
        decl::<BotEntry>(&cfg),
        decl::<Leaderboard>(&cfg),
    ];
    file(
        "// Generated from the server's Rust types (crates/server/src/messages.rs, api.rs, host/, games/uno/, ws.rs, stats.rs; the engine's in crates/uno, the analysis in crates/uno-lab) by ts-rs: do not edit.",
        &decls,
    )
}

/// The Duel pages' declarations: `GET /api/duel/{id}` and every action's answer, a replay frame,
/// the page's defaults and the bodies it sends.
fn duel_declarations() -> String {
    let cfg = Config::new();
    let decls = [
        // The engine's (crates/duel): the grid, the stage, what happened, what was done.
        decl::<Side>(&cfg),
        decl::<Rank>(&cfg),
        decl::<Piece>(&cfg),
        decl::<Cell>(&cfg),
        decl::<Coord>(&cfg),
        decl::<Key>(&cfg),
        decl::<Dir>(&cfg),
        decl::<DuelOutcome>(&cfg),
        decl::<DuelEndReason>(&cfg),
        decl::<Stage>(&cfg),
        decl::<Status>(&cfg),
        decl::<DuelEvent>(&cfg),
        decl::<DuelAction>(&cfg),
        decl::<Actor>(&cfg),
        decl::<LoggedAction>(&cfg),
        decl::<Difficulty>(&cfg),
        // The server's (crates/server/src/games/duel, duel_api.rs).
        decl::<LastMove>(&cfg),
        decl::<HistoryEvent>(&cfg),
        decl::<DuelView>(&cfg),
        decl::<DuelCreated>(&cfg),
        decl::<DuelFrame>(&cfg),
        decl::<DuelConfig>(&cfg),
        decl::<CreateRequest>(&cfg),
        decl::<CellKey>(&cfg),
    ];
    file(
        "// Generated from the Duel engine's Rust types (crates/duel) and the server's Duel answers (crates/server/src/games/duel, duel_api.rs) by ts-rs: do not edit.",
        &decls,
    )
}

/// Writes `want` to `web/{name}` when asked to, then fails unless the file holds exactly it.
fn check_generated(name: &str, want: &str) {
    let path = format!("{}/web/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_PROTOCOL_TYPES").is_some() {
        std::fs::write(&path, want).expect("write the generated declarations");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "web/{name} is not what the Rust types declare: regenerate it with \
         UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol\n--- generated:\n{want}"
    );
}

#[test]
fn protocol_declarations_are_generated_from_the_rust_types() {
    check_generated("protocol.d.ts", &declarations());
}

#[test]
fn duel_protocol_declarations_are_generated_from_the_rust_types() {
    check_generated("duelprotocol.d.ts", &duel_declarations());
}

#[test]
fn a_socket_error_is_sent_as_declared() {
    let text = crate::ws::error_text(&crate::ApiError::MissingToken);
    let v: serde_json::Value = serde_json::from_str(text.as_str()).expect("json");
    let obj = v.as_object().expect("an object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["code", "message", "type"], "{v}");
    assert_eq!(v["type"], "error");
    assert_eq!(v["code"], crate::ApiError::MissingToken.body().code);
    assert!(
        declarations().contains(r#"export type SocketError = { "type": "error", code: string, message: string, };"#)
    );
}

/// The fields of a struct's declaration, each with whether it may be left out (`name?:`).
#[cfg(test)]
fn declared_fields(decl: &str) -> Vec<(String, bool)> {
    let code: Vec<&str> =
        decl.lines().map(str::trim).filter(|l| !(l.starts_with("/**") || l.starts_with('*'))).collect();
    let code = code.join(" ");
    let body = code.split_once('{').and_then(|(_, rest)| rest.rsplit_once('}')).map_or("", |(b, _)| b);
    body.split(", ")
        .filter_map(|part| part.split_once(':'))
        .map(|(name, _)| name.trim())
        .filter(|name| !name.is_empty())
        .map(|name| (name.trim_end_matches('?').to_string(), name.ends_with('?')))
        .collect()
}

#[test]
fn the_create_body_is_declared_as_the_server_reads_it() {
    // The declaration the lobby types its body by: only `seats` must be sent.
    let declared = declared_fields(&decl::<CreateTable>(&Config::new()));
    let required: Vec<&str> = declared.iter().filter(|(_, optional)| !optional).map(|(n, _)| n.as_str()).collect();
    assert_eq!(required, ["seats"], "{declared:?}");
    assert!(declared.len() > 10 && declared.iter().any(|(n, _)| n == "house_rules"), "{declared:?}");
    // The server takes a body with only those, a string seed, and every seat's optional fields
    // left out; it refuses a field the declaration does not name.
    let body = r#"{"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random", "seed": "18446744073709551557"}],
                   "house_rules": {"match_target": 0}, "seed": "18446744073709551557"}"#;
    let create: CreateTable = serde_json::from_str(body).expect("the declared minimum");
    assert_eq!((create.seats.len(), create.seed, create.house_rules.match_target), (2, Some(u64::MAX - 58), Some(0)));
    assert!(serde_json::from_str::<CreateTable>(r#"{"seats": [], "bot_delay": 1}"#).is_err());
    let seat = decl::<SeatSpec>(&Config::new());
    assert!(seat.contains(r#"{ "kind": "human", name?: string, }"#), "{seat}");
    let house = declared_fields(&decl::<HouseRules>(&Config::new()));
    assert!(house.iter().all(|(_, optional)| *optional), "{house:?}");
}
