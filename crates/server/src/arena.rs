//! Arenas: tournaments of 4-seat UNO, one round a game, for a fixed time (lichess's arenas,
//! Board Game Arena's multiplayer Swiss). People join while it runs; every second the arena's
//! timer records the tables that finished (points by place, +6/+5/+3/+1 and a streak bonus) and
//! seats whoever is free with others of similar score; bots fill a table when fewer than four
//! are free and one of them waited a pairing. The pairing and the scoring are
//! `league::arena`'s (pure, simulated with 64 entrants in its tests); this module runs them on
//! real tables: ordinary UNO tables with a turn clock, open to spectators.
//!
//! `POST /api/arenas` opens one, `POST /api/arenas/{id}/join` enters it (an entrant token),
//! `GET /api/arenas/{id}` is its standings and, for the token's holder, their table. An arena
//! lives in the memory of the instance that opened it; in a cluster its id names that instance,
//! whose routes the others forward to, and `GET /api/arenas` lists every instance's
//! (`cluster::queue`, docs/matchmaking.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use league::arena::{Arena, ArenaRules, ArenaTable, EntrantId, Presence, TableId};
use league::Place;
use serde::{Deserialize, Serialize};

use crate::bearer::Asker;
use crate::games::uno::Uno;
use crate::host::seats::{check_name, random_hex, same_name};
use crate::host::table::Lifecycle;
use crate::host::{Seat, TableError, Tables};
use crate::limits;
use crate::messages::{invite_path, CreateTable, SeatKind, SeatSpec};
use crate::{ApiError, AppState};

/// Random bytes of an arena's id (after its home's tag, in a cluster).
pub(crate) const ARENA_ID_BYTES: usize = 6;
/// How often an arena records finished tables and pairs the free.
const TICK: Duration = Duration::from_secs(1);
/// The longest arena, in minutes.
const MAX_MINUTES: u32 = 180;
/// Arenas held at once, at most.
const MAX_ARENAS: usize = 100;
/// Entrants of one arena, at most.
const MAX_ENTRANTS: usize = 256;
/// The bot that fills an arena table.
const FILL_BOT: &str = "heuristic";

/// `POST /api/arenas`.
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct CreateArena {
    pub name: String,
    /// How long it runs (1 to 180 minutes; default 10).
    #[ts(optional)]
    pub minutes: Option<u32>,
    /// Points for 1st to 4th place (four numbers; default 6, 5, 3, 1).
    #[ts(optional)]
    pub place_points: Option<Vec<u32>>,
    /// Seat fewer than four with bots once one of them waited a pairing (default true).
    #[ts(optional)]
    pub bots_fill: Option<bool>,
}

/// `POST /api/arenas/{id}/join`.
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct JoinArena {
    pub name: String,
}

/// One line of the standings.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ArenaLine {
    pub rank: u32,
    pub name: String,
    pub points: u32,
    pub games: u32,
    pub wins: u32,
    pub streak: u32,
    /// `free`, `playing` or `left`.
    pub presence: String,
}

/// The holder's table now.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ArenaSeat {
    pub table: String,
    pub seat: Seat,
    pub token: String,
    pub invite: String,
}

/// An arena as its page shows it: `GET /api/arenas/{id}`.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ArenaView {
    pub id: String,
    pub name: String,
    #[ts(type = "number")]
    pub ends_in_ms: u64,
    pub finished: bool,
    pub place_points: Vec<u32>,
    pub streak_bonus: u32,
    /// Games played to their end so far.
    pub games: u32,
    /// Rises with every change (a join, a table seated, a game recorded).
    #[ts(type = "number")]
    pub version: u64,
    pub standings: Vec<ArenaLine>,
    /// The tables in play: each one's id and who sits there.
    pub tables: Vec<ArenaTableView>,
    /// The asker's name and table, when the token is an entrant's.
    pub you: Option<String>,
    pub your_table: Option<ArenaSeat>,
}

#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ArenaTableView {
    pub table: String,
    pub names: Vec<String>,
}

/// `POST /api/arenas/{id}/join`'s answer.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct ArenaJoined {
    pub token: String,
    pub arena: ArenaView,
}

/// `GET /api/arenas`.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct ArenaList {
    pub arenas: Vec<ArenaView>,
}

struct Entrant {
    name: String,
    seat: Option<ArenaSeat>,
}

struct Run {
    id: String,
    name: String,
    ends: Instant,
    arena: Arena,
    entrants: HashMap<EntrantId, Entrant>,
    by_token: HashMap<String, EntrantId>,
    /// The tables in play: the UNO table's id and each entrant's seat.
    tables: HashMap<TableId, (String, Seated)>,
    next: u64,
    games: u32,
    version: u64,
}

impl Run {
    fn view(&self, token: Option<&str>) -> ArenaView {
        let me = token.and_then(|t| self.by_token.get(t)).copied();
        let name = |id: &EntrantId| self.entrants.get(id).map(|e| e.name.clone()).unwrap_or_default();
        let standings = self
            .arena
            .standings()
            .into_iter()
            .map(|s| ArenaLine {
                rank: s.rank,
                name: name(&s.entrant),
                points: s.points.0,
                games: s.games,
                wins: s.wins,
                streak: s.streak,
                presence: match s.presence {
                    Presence::Free => "free",
                    Presence::Playing(_) => "playing",
                    Presence::Left => "left",
                }
                .to_string(),
            })
            .collect();
        let mut tables: Vec<ArenaTableView> = self
            .tables
            .values()
            .map(|(t, seats)| ArenaTableView { table: t.clone(), names: seats.iter().map(|(e, _)| name(e)).collect() })
            .collect();
        tables.sort_by(|a, b| a.table.cmp(&b.table));
        let now = Instant::now();
        ArenaView {
            id: self.id.clone(),
            name: self.name.clone(),
            ends_in_ms: self.ends.saturating_duration_since(now).as_millis() as u64,
            finished: now >= self.ends && self.tables.is_empty(),
            place_points: self.arena.rules.place_points.to_vec(),
            streak_bonus: self.arena.rules.streak_bonus,
            games: self.games,
            version: self.version,
            standings,
            tables,
            you: me.map(|m| name(&m)),
            your_table: me.and_then(|m| self.entrants.get(&m)).and_then(|e| e.seat.clone()),
        }
    }
}

/// Every arena of this instance.
#[derive(Clone, Default)]
struct Hall {
    arenas: Arc<Mutex<HashMap<String, Arc<Mutex<Run>>>>>,
}

#[derive(Clone)]
struct ArenaState {
    app: AppState,
    hall: Hall,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub fn routes(app: AppState) -> Router {
    Router::new()
        .route("/api/arenas", post(create).get(list))
        .route("/api/arenas/{id}", get(read))
        .route("/api/arenas/{id}/join", post(join))
        .route("/api/arenas/{id}/leave", post(leave))
        .with_state(ArenaState { app, hall: Hall::default() })
}

fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(v)| v).map_err(ApiError::from)
}

impl Hall {
    fn get(&self, id: &str) -> Result<Arc<Mutex<Run>>, TableError> {
        lock(&self.arenas).get(id).cloned().ok_or_else(|| TableError::NoSuchTable(id.to_string()))
    }
}

async fn create(
    State(s): State<ArenaState>,
    req: Result<Json<CreateArena>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = body(req)?;
    let name = check_name(&req.name, "name", limits::MAX_NAME_CHARS)?;
    let minutes = req.minutes.unwrap_or(10);
    if minutes == 0 || minutes > MAX_MINUTES {
        return Err(TableError::Invalid(format!("an arena runs 1 to {MAX_MINUTES} minutes")).into());
    }
    let place_points = match req.place_points.as_deref() {
        None => ArenaRules::default().place_points,
        Some(&[a, b, c, d]) => [a, b, c, d],
        Some(_) => return Err(TableError::Invalid("place_points are four numbers, 1st place first".into()).into()),
    };
    let rules = ArenaRules { place_points, bots_fill: req.bots_fill.unwrap_or(true), ..ArenaRules::default() };
    if rules.place_points.iter().any(|&p| p > 100) {
        return Err(TableError::Invalid("a place's points are at most 100".into()).into());
    }
    // In a cluster the id starts with this instance's tag: every instance forwards the
    // arena's routes here (`cluster::queue`).
    let id = format!("{}{}", s.app.inner.quick.home_tag(), random_hex(ARENA_ID_BYTES));
    let run = Run {
        id: id.clone(),
        name,
        ends: Instant::now() + Duration::from_secs(u64::from(minutes) * 60),
        arena: Arena::new(rules),
        entrants: HashMap::new(),
        by_token: HashMap::new(),
        tables: HashMap::new(),
        next: 0,
        games: 0,
        version: 0,
    };
    let view = run.view(None);
    let run = Arc::new(Mutex::new(run));
    {
        let mut all = lock(&s.hall.arenas);
        // Finished arenas make room.
        all.retain(|_, r| !lock(r).view(None).finished);
        if all.len() >= MAX_ARENAS {
            return Err(TableError::ServerFull.into());
        }
        all.insert(id.clone(), run.clone());
    }
    tokio::spawn(ticks(Arc::downgrade(&run), s.app.tables().clone()));
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

async fn list(State(s): State<ArenaState>) -> Json<ArenaList> {
    let runs: Vec<Arc<Mutex<Run>>> = lock(&s.hall.arenas).values().cloned().collect();
    let mut arenas: Vec<ArenaView> = runs.iter().map(|r| lock(r).view(None)).collect();
    arenas.sort_by(|a, b| a.finished.cmp(&b.finished).then(b.ends_in_ms.cmp(&a.ends_in_ms)));
    Json(ArenaList { arenas })
}

async fn read(State(s): State<ArenaState>, Path(id): Path<String>, asker: Asker) -> Result<Json<ArenaView>, ApiError> {
    let run = s.hall.get(&id)?;
    let view = lock(&run).view(asker.token());
    Ok(Json(view))
}

async fn join(
    State(s): State<ArenaState>,
    Path(id): Path<String>,
    req: Result<Json<JoinArena>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = body(req)?;
    let name = check_name(&req.name, "name", limits::MAX_NAME_CHARS)?;
    let run = s.hall.get(&id)?;
    let mut r = lock(&run);
    if Instant::now() >= r.ends {
        return Err(
            TableError::Illegal(crate::host::Refusal::new("game_over", true, "the arena is over".into())).into()
        );
    }
    if r.entrants.len() >= MAX_ENTRANTS {
        return Err(TableError::TableFull.into());
    }
    if r.entrants.values().any(|e| same_name(&e.name, &name)) {
        return Err(TableError::NameTaken.into());
    }
    r.next += 1;
    let entrant = EntrantId(r.next);
    r.arena.join(entrant).map_err(|e| TableError::Invalid(e.to_string()))?;
    let token = random_hex(16);
    r.entrants.insert(entrant, Entrant { name, seat: None });
    r.by_token.insert(token.clone(), entrant);
    r.version += 1;
    let arena = r.view(Some(&token));
    Ok((StatusCode::CREATED, Json(ArenaJoined { token, arena })).into_response())
}

async fn leave(State(s): State<ArenaState>, Path(id): Path<String>, asker: Asker) -> Result<StatusCode, ApiError> {
    let run = s.hall.get(&id)?;
    let mut r = lock(&run);
    let token = asker.token().ok_or(ApiError::MissingToken)?;
    let entrant = *r.by_token.get(token).ok_or(ApiError::BadToken)?;
    r.arena.leave(entrant).map_err(|e| TableError::Invalid(e.to_string()))?;
    r.version += 1;
    Ok(StatusCode::NO_CONTENT)
}

/// The places of a finished arena table, by seat: the winner first, then fewest card points
/// left (equal points share a place); a seat a person resigned (a bot's now) is last. `None`
/// while it is played.
async fn places(tables: &Tables, id: &str, seats: usize) -> Option<Vec<u8>> {
    let Some(table) = tables.typed_in_memory::<Uno>(id) else {
        // Gone (closed idle): every entrant last.
        return Some(vec![4; seats]);
    };
    let st = table.state.lock().await;
    let game = match &st.life {
        Lifecycle::Finished { game, .. } => game,
        Lifecycle::Closed(_) => return Some(vec![4; seats]),
        _ => return None,
    };
    let result = game.game.round_result()?;
    let left: Vec<u32> = result.hands.iter().map(|h| h.points).collect();
    let score = |s: usize| if result.winner.map(|w| w.index()) == Some(s) { 0 } else { left[s] + 1 };
    let resigned = |s: usize| st.meta.seats.get(s).is_some_and(|m| m.kind == SeatKind::Bot && m.replaced.is_some());
    Some(
        (0..left.len())
            .map(|s| {
                if resigned(s) {
                    return 4;
                }
                let better = (0..left.len()).filter(|&o| !resigned(o) && score(o) < score(s)).count();
                (better + 1) as u8
            })
            .collect(),
    )
}

/// Each entrant of a table and its seat.
type Seated = Vec<(EntrantId, Seat)>;

/// The arena's timer: records finished tables, then seats the free, every [`TICK`].
async fn ticks(run: Weak<Mutex<Run>>, tables: Tables) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(run) = run.upgrade() else { return };
        // Finished tables, recorded.
        let playing: Vec<(TableId, String, Seated)> =
            lock(&run).tables.iter().map(|(k, (t, s))| (*k, t.clone(), s.clone())).collect();
        for (tid, table, seats) in playing {
            let Some(by_seat) = places(&tables, &table, 4).await else { continue };
            let mut r = lock(&run);
            let given: Vec<(EntrantId, Place)> = seats
                .iter()
                .filter_map(|(e, s)| {
                    let p = by_seat.get(s.index()).copied().unwrap_or(4);
                    Place::new(p).ok().map(|p| (*e, p))
                })
                .collect();
            if let Err(e) = r.arena.record(tid, &given) {
                tracing::warn!(error = %e, "an arena table's result was refused");
            }
            r.tables.remove(&tid);
            for (e, _) in &seats {
                if let Some(x) = r.entrants.get_mut(e) {
                    x.seat = None;
                }
            }
            r.games += 1;
            r.version += 1;
        }
        // The free, seated (until the arena's time is up).
        let pairs: Vec<(ArenaTable, Vec<String>)> = {
            let mut r = lock(&run);
            if Instant::now() >= r.ends {
                if r.tables.is_empty() {
                    return;
                }
                continue;
            }
            let pairs = r.arena.pair();
            pairs
                .into_iter()
                .map(|t| {
                    let names = t
                        .entrants
                        .iter()
                        .map(|e| r.entrants.get(e).map(|x| x.name.clone()).unwrap_or_default())
                        .collect();
                    (t, names)
                })
                .collect()
        };
        for (t, names) in pairs {
            match seat(&tables, &t, &names).await {
                Ok((id, seats)) => {
                    let mut r = lock(&run);
                    let mut at = Vec::new();
                    for (e, (s, token)) in t.entrants.iter().zip(seats) {
                        at.push((*e, s));
                        if let Some(x) = r.entrants.get_mut(e) {
                            x.seat = Some(ArenaSeat { table: id.clone(), seat: s, token, invite: invite_path(&id) });
                        }
                    }
                    r.tables.insert(t.id, (id, at));
                    r.version += 1;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "an arena table could not be made");
                    // Recorded as a table nobody finished, so its entrants are free again.
                    let mut r = lock(&run);
                    let given: Vec<(EntrantId, Place)> =
                        t.entrants.iter().filter_map(|e| Place::new(4).ok().map(|p| (*e, p))).collect();
                    let _ = r.arena.record(t.id, &given);
                }
            }
        }
    }
}

/// Makes an arena table: its entrants' seats (in the arena's order), bots after; one round.
async fn seat(tables: &Tables, t: &ArenaTable, names: &[String]) -> Result<(String, Vec<(Seat, String)>), TableError> {
    let seats: Vec<SeatSpec> = names
        .iter()
        .map(|n| SeatSpec::Human { name: Some(n.clone()) })
        .chain((0..t.bots).map(|_| SeatSpec::Bot { bot: FILL_BOT.into(), seed: None, delay_ms: None }))
        .collect();
    let req = CreateTable {
        preset: Some("official".into()),
        house_rules: uno::HouseRules { match_target: Some(0), ..uno::HouseRules::default() },
        seats,
        name: names.first().cloned(),
        creator_seat: Some(Seat(0)),
        spectators: Some(true),
        turn_seconds: Some(tables.config().quick_turn_seconds),
        ..CreateTable::default()
    };
    let creator = format!("arena:{}", random_hex(4));
    let (table, opened) = crate::host::open::<Uno>(tables, req, &creator, &crate::host::Person::Guest).await?;
    let mut out = vec![(Seat(0), opened.token.ok_or_else(|| TableError::Internal("no creator's token".into()))?)];
    for (i, name) in names.iter().enumerate().skip(1) {
        let seated = table.join(tables, &crate::host::Person::Guest, name, Some(Seat(i as u8))).await?;
        out.push((seated.seat, seated.token));
    }
    Ok((opened.id, out))
}
