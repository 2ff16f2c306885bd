//! Replay frames: what one viewer had in front of them after a given ply of a game, rebuilt
//! from the game's record and rendered by the same code as live play (`Game::observation`,
//! `Event::redacted_for`, the revealed hands of a finished round).
//!
//! A kept (finished) game may be seen from any perspective, the whole table included. The game
//! a table is still playing only from what its asker sees live: their own seat (with its
//! token), or the spectators' chair; never the whole table.

use serde::{Deserialize, Serialize};
use uno::{Action, Card, Event, Game, GameRecord, Move, Observation, Position, Rules, Seat};

use super::records::kept_game;
use super::{update, Uno};
use crate::host::table::Lifecycle;
use crate::host::{TableError, Tables, Viewer};
use crate::messages::{CreateTable, Occupant, StartFrom, StartedFrom};

/// Whose eyes a frame is seen with: `seatN`, `spectator`, or `all` (every hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    Seat(Seat),
    Spectator,
    All,
}

impl std::str::FromStr for Perspective {
    type Err = TableError;
    fn from_str(s: &str) -> Result<Perspective, TableError> {
        match s {
            "spectator" => Ok(Perspective::Spectator),
            "all" => Ok(Perspective::All),
            _ => s
                .strip_prefix("seat")
                .and_then(|n| n.parse::<u8>().ok())
                .map(|n| Perspective::Seat(Seat(n)))
                .ok_or_else(|| TableError::Invalid(format!("view {s:?}: expected seatN, spectator or all"))),
        }
    }
}

impl std::fmt::Display for Perspective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Perspective::Seat(n) => write!(f, "seat{n}"),
            Perspective::Spectator => f.write_str("spectator"),
            Perspective::All => f.write_str("all"),
        }
    }
}

/// Which frame: of which game of the table (none: its current game), after which ply (none:
/// the last), and whether the timeline comes with it.
#[derive(Clone, Copy, Debug)]
pub struct FrameRequest {
    pub perspective: Perspective,
    pub game: Option<usize>,
    pub ply: Option<usize>,
    pub timeline: bool,
}

/// One action of the timeline, with the round and turn it left the game in.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[ts(rename = "ReplayStep")]
pub struct Step {
    /// The ply this action leads to (1 for the first action).
    pub ply: usize,
    pub seat: Seat,
    pub action: Action,
    pub round: u32,
    pub turn: u32,
}

/// The answer to `GET /api/games/{id}/replay`.
#[derive(Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[ts(rename = "ReplayFrame")]
pub struct Frame {
    pub id: String,
    /// Which kept game of the table; `null` for the game it is playing now.
    pub game: Option<usize>,
    /// Whether the game is still played (so only its asker's live perspectives are offered).
    pub live: bool,
    pub perspective: String,
    /// How many actions were applied (0: the deal).
    pub ply: usize,
    /// The last ply (the number of actions so far).
    pub plies: usize,
    pub rules: String,
    pub seats: Vec<Occupant>,
    /// Whether the game was imported from a record file (`POST /api/records`): its names are
    /// whatever the file says, so the page marks it.
    #[serde(default)]
    pub imported: bool,
    /// The action that led to this ply (`null` at the deal).
    #[serde(rename = "move")]
    pub last_move: Option<Move>,
    /// The viewer's view, as live play gives it (`TableView::view`).
    pub view: Observation,
    /// Every hand, once a round is over (as live play shows them).
    pub revealed_hands: Option<Vec<Vec<Card>>>,
    /// Every hand, for the whole-table perspective only.
    pub all_hands: Option<Vec<Vec<Card>>>,
    /// What this ply's action did (the deal's events at ply 0), as this viewer was told.
    pub events: Vec<Event>,
    /// Every action of the game (when asked for).
    pub timeline: Option<Vec<Step>>,
}

/// A frame of table `id`'s current game (live or finished) or of one of its kept games.
pub(crate) async fn frame(
    tables: &Tables,
    id: &str,
    req: FrameRequest,
    token: Option<&str>,
) -> Result<Frame, TableError> {
    let table = match req.game {
        Some(_) => None,
        None => tables.typed_in_memory::<Uno>(id),
    };
    let mut live = None;
    let mut imported = false;
    if let Some(table) = table {
        let st = table.state.lock().await;
        // A game that ended meanwhile is answered from its kept record.
        if let Lifecycle::Playing(uno) = &st.life {
            let viewer = st.meta.viewer(token)?;
            match (req.perspective, viewer) {
                (Perspective::All, _) => return Err(TableError::GameNotOver),
                (Perspective::Seat(n), Viewer::Seat(s)) if n == s => {}
                (Perspective::Seat(_), Viewer::Spectator) => return Err(TableError::MissingToken),
                (Perspective::Seat(_), Viewer::Seat(_)) => return Err(TableError::BadToken),
                (Perspective::Spectator, _) => {}
            }
            live = Some((uno.record.clone(), st.facts(id).occupants()));
        } else if let Lifecycle::Waiting(_) = &st.life {
            // Nothing is dealt yet: there is no frame to show.
            return Err(TableError::NotStarted);
        }
    }
    let (record, seats, game) = match live {
        Some((record, seats)) => (record, seats, None),
        None => {
            let kept = kept_game(tables, id, req.game).await?;
            imported = kept.kept.imported;
            (kept.kept.record, kept.kept.seats, Some(kept.game))
        }
    };
    let mut frame = render(id, &record, seats, game, req)?;
    frame.imported = imported;
    Ok(frame)
}

/// "Play from here": the position a new table starts at, and where it comes from. Only a kept
/// (finished) game: its whole deal is known to whoever read it, so the cards no seat could see
/// at that point (the draw pile) are shuffled again, and later draws come from a fresh seed.
pub(crate) async fn position_at(
    tables: &Tables,
    from: &StartFrom,
    req: &CreateTable,
) -> Result<(Rules, Position, StartedFrom), TableError> {
    if req.preset.is_some() || req.rules.is_some() || req.seed.is_some() || req.house_rules != Default::default() {
        return Err(TableError::Invalid(
            "a table started `from` a position plays its rules: give no preset, rules, house_rules nor seed".into(),
        ));
    }
    let kept = kept_game(tables, &from.table, from.game).await?;
    let game = replay_upto(&from.table, &kept.kept.record, from.ply)?;
    if game.is_over() {
        return Err(TableError::Illegal(uno::IllegalAction::GameOver.into()));
    }
    let mut position = game.position();
    let mut rng = rand::rngs::OsRng;
    let imported = kept.kept.imported;
    if imported {
        // The hands of a file are whatever its sender wrote: dealt afresh, each as large as it
        // was, from the hands and the draw pile together (the discard pile is in sight).
        redeal(&mut position, &mut rng)?;
    }
    rand::seq::SliceRandom::shuffle(position.draw_pile.as_mut_slice(), &mut rng);
    position.seed = rand::RngCore::next_u64(&mut rng);
    position.rng = None;
    let started = StartedFrom { table: from.table.clone(), game: kept.game, ply: from.ply, imported };
    Ok((game.rules().clone(), position, started))
}

/// Deals the hidden cards of `position` afresh: the hands and the draw pile pooled and shuffled,
/// each hand dealt as many cards as it held. Only where nothing in the position names a card of
/// a hand (the play phase, no card just drawn, no challenge): elsewhere refused, so a chosen
/// hand is never played as it was chosen.
fn redeal(position: &mut Position, rng: &mut impl rand::RngCore) -> Result<(), TableError> {
    if position.phase != uno::Phase::Play || position.drawn_card.is_some() || position.first_card_to_turn {
        return Err(TableError::Invalid(
            "a position from an imported record is dealt afresh, and this ply is mid-decision: choose a ply where someone is to play".into(),
        ));
    }
    let sizes: Vec<usize> = position.hands.iter().map(Vec::len).collect();
    let mut hidden: Vec<uno::Card> = position.hands.drain(..).flatten().collect();
    hidden.append(&mut position.draw_pile);
    rand::seq::SliceRandom::shuffle(hidden.as_mut_slice(), rng);
    for n in sizes {
        let rest = hidden.split_off(n.min(hidden.len()));
        position.hands.push(std::mem::replace(&mut hidden, rest));
    }
    position.draw_pile = hidden;
    Ok(())
}

/// The position of a kept game after `ply` (none: the last), in the engine's JSON and text
/// forms, for `GET /api/games/{id}/position`.
pub(crate) async fn position_export(
    tables: &Tables,
    id: &str,
    game: Option<usize>,
    ply: Option<usize>,
) -> Result<PositionExport, TableError> {
    // The kept game is read once: the position and the seed's files both come from it.
    let kept = kept_game(tables, id, game).await?;
    let (record, game_no) = (&kept.kept.record, kept.game);
    let ply = ply.unwrap_or(record.actions.len());
    let g = replay_upto(id, record, ply)?;
    let position = g.position();
    // Seed 000's files, for a game of its rules at a point where someone plays or draws.
    let (uno, uno_refused) = if uno::courses::export::writes(g.rules()) {
        match uno::courses::export::export(record, ply) {
            Ok(files) => (
                Some(UnoFiles { deck: files.write_deck(), discard: files.write_discard(), hands: files.write_hands() }),
                None,
            ),
            Err(e) => (None, Some(e.to_string())),
        }
    } else {
        (None, Some(uno::courses::export::ExportError::NotSeed000(g.rules().name().to_string()).to_string()))
    };
    Ok(PositionExport {
        id: id.to_string(),
        game: game_no,
        ply,
        rules: g.rules().name().to_string(),
        rules_config: g.rules().config().clone(),
        text: position.to_string(),
        position,
        uno,
        uno_refused,
    })
}

/// The game of table `id`'s kept `record` after its first `ply` actions.
fn replay_upto(id: &str, record: &GameRecord, ply: usize) -> Result<Game, TableError> {
    if ply > record.actions.len() {
        return Err(TableError::NoSuchPly { ply, last: record.actions.len() });
    }
    let upto = GameRecord { actions: record.actions[..ply].to_vec(), ..record.clone() };
    upto.replay().map_err(|e| TableError::Internal(format!("table {id}: {e}")))
}

/// Seed 000's three `.uno` files of a position (`uno::courses::export`): Player 1 is the seat to
/// move, the others follow in the order of play.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct UnoFiles {
    pub deck: String,
    pub discard: String,
    pub hands: String,
}

/// The answer to `GET /api/games/{id}/position`: the whole position (`Position::from_json` and
/// `str::parse` read its two forms back) and the rules it is played under.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PositionExport {
    pub id: String,
    pub game: usize,
    pub ply: usize,
    /// The rule set's name.
    pub rules: String,
    /// The rules, as configured (a rules file of them plays the position).
    pub rules_config: uno::RulesConfig,
    /// `Position::to_json`'s form (its seed and generator state decimal strings): the page saves
    /// it and reads none of it.
    #[ts(type = "Record<string, unknown>")]
    pub position: Position,
    /// The position's compact text form (`uno-position 1`).
    pub text: String,
    /// The position as seed 000's `.uno` files: only for the `csce322` rules, where someone is
    /// to play or draw (`null` otherwise, and `uno_refused` says why).
    pub uno: Option<UnoFiles>,
    pub uno_refused: Option<String>,
}

/// The frame of `record` after the asked ply, for the asked perspective.
fn render(
    id: &str,
    record: &GameRecord,
    seats: Vec<Occupant>,
    game_no: Option<usize>,
    req: FrameRequest,
) -> Result<Frame, TableError> {
    let plies = record.actions.len();
    let ply = req.ply.unwrap_or(plies);
    if ply > plies {
        return Err(TableError::NoSuchPly { ply, last: plies });
    }
    let seat = match req.perspective {
        Perspective::Seat(n) if n.index() >= record.players => {
            return Err(TableError::Invalid(format!("seat {n}: the game has seats 0 to {}", record.players - 1)))
        }
        Perspective::Seat(n) => Some(n),
        Perspective::Spectator | Perspective::All => None,
    };
    let upto = GameRecord { actions: record.actions[..ply].to_vec(), ..record.clone() };
    let mut events = Vec::new();
    let game = upto
        .replay_with_events(|step, evs| {
            if step == ply {
                events = evs;
            }
        })
        .map_err(|e| TableError::Internal(format!("table {id}: its record does not replay: {e}")))?;
    let all = req.perspective == Perspective::All;
    let events = if all { events } else { events.iter().map(|e| e.redacted_for(seat)).collect() };
    Ok(Frame {
        id: id.to_string(),
        game: game_no,
        live: game_no.is_none(),
        perspective: req.perspective.to_string(),
        ply,
        plies,
        rules: game.rules().name().to_string(),
        seats,
        imported: false,
        last_move: ply.checked_sub(1).map(|i| record.actions[i]),
        view: game.observation(seat),
        revealed_hands: update::revealed_hands(&game),
        all_hands: all.then(|| game.hands().iter().map(|h| h.to_vec()).collect()),
        events,
        timeline: req.timeline.then(|| timeline(id, record)).transpose()?,
    })
}

/// Every action with the round and turn after it.
fn timeline(id: &str, record: &GameRecord) -> Result<Vec<Step>, TableError> {
    let broken = |e: String| TableError::Internal(format!("table {id}: its record does not replay: {e}"));
    let mut game: Game = record.start().map_err(|e| broken(e.to_string()))?;
    let mut steps = Vec::with_capacity(record.actions.len());
    for (i, m) in record.actions.iter().enumerate() {
        game.apply(m.seat, m.action).map_err(|e| broken(e.to_string()))?;
        steps.push(Step { ply: i + 1, seat: m.seat, action: m.action, round: game.round(), turn: game.turns() });
    }
    Ok(steps)
}
