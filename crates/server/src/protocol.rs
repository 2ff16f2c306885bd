//! The protocol types the pages are typed against, generated into `web/protocol.d.ts`.

use ts_rs::{Config, TS};

use uno::rules::{
    DealConfig, DeckConfig, DigitPoints, DrawRule, EndConfig, Exhausted, FirstCard, FirstPlayer, ForcedPlay, JumpIn,
    MultiPlay, PlayConfig, PlayersConfig, RulesConfig, ScoringConfig, SevenZero, Stacking, TwoPlayerRule, UnoCall,
    UnoConfig, WildDrawFourRule,
};
use uno::{Action, Color, Direction, DrawReason, EndReason, Event, Move, Observation, Outcome, Phase};

use crate::messages::{
    Created, HandResult, Joined, LoggedEvent, RoundResult, SeatKind, SeatView, StartedFrom, TableList, TableStatus,
    TableSummary, TableView,
};

use crate::stats::{Page as StatsPage, PlayerStats};
use crate::tables::{Frame as ReplayFrame, Step as ReplayStep};
use crate::update::{UpdateDecl as Update, UpdateViewDecl as UpdateView};

fn decl<T: TS>(cfg: &Config) -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}\n", T::decl(cfg))
}

fn declarations() -> String {
    let cfg = Config::new();
    let mut out = String::from(
        "// Generated from the server's Rust types (crates/server/src/types.rs, update.rs, stats.rs, tables/replay.rs; the engine's in crates/uno) by ts-rs: do not edit.\n\
         // Regenerate: UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol\n\n",
    );
    for d in [
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
        decl::<SeatView>(&cfg),
        decl::<HandResult>(&cfg),
        decl::<RoundResult>(&cfg),
        decl::<LoggedEvent>(&cfg),
        decl::<StartedFrom>(&cfg),
        decl::<TableView>(&cfg),
        decl::<TableSummary>(&cfg),
        decl::<TableList>(&cfg),
        decl::<Created>(&cfg),
        decl::<Joined>(&cfg),
        // `GET /api/games/{id}/replay` (crates/server/src/tables/replay.rs).
        decl::<Move>(&cfg),
        decl::<ReplayStep>(&cfg),
        decl::<ReplayFrame>(&cfg),
        // The WebSocket's `update` (crates/server/src/update.rs), what one action changed.
        decl::<UpdateView<'static>>(&cfg),
        decl::<Update<'static>>(&cfg),
        // `GET /api/stats` (crates/server/src/stats.rs).
        decl::<PlayerStats>(&cfg),
        decl::<StatsPage>(&cfg),
    ] {
        out.push_str(&d);
        out.push('\n');
    }
    out.pop();
    out
}

#[test]
fn protocol_declarations_are_generated_from_the_rust_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/web/protocol.d.ts");
    let want = declarations();
    if std::env::var_os("UPDATE_PROTOCOL_TYPES").is_some() {
        std::fs::write(path, &want).expect("write web/protocol.d.ts");
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "web/protocol.d.ts is not what the Rust types declare: regenerate it with \
         UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol\n--- generated:\n{want}"
    );
}
