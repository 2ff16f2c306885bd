//! A table of any game, as the routes, the sockets and the registry hold it: [`Hosting`], the
//! same few calls whatever the game, with its actions and answers as JSON; and [`GameHost`],
//! what opens and restores the tables of one game. Both are written once, here, for every
//! [`Hosted`] game: a game writes neither.

use std::any::Any;
use std::collections::VecDeque;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::lifecycle::{self, Opened, Seated};
use super::schedule::make_bots;
use super::seats::Meta;
use super::table::{keep_recent, Closing, Lifecycle, Push, Table, TableState};
use super::{Hosted, Logged, Person, Seat, TableError, Tables, Viewer};
use crate::messages::TableSummary;
use crate::text::Text;

/// A boxed future: what a call of a table of any game answers.
pub(crate) type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The body of `POST /api/tables/{id}/actions`, for any game's actions.
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ActRequest", concrete(A = uno::Action))]
pub struct ActRequest<A> {
    pub action: A,
    /// The table version the action was based on.
    #[ts(type = "number")]
    pub version: u64,
}

/// What a socket sends: an action (as over HTTP), or a ping.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ClientMessage<A> {
    Action { action: A, version: u64 },
    Ping,
}

/// The answer to `POST /api/tables`: the table, its invite, and the creator's seat and token.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
#[ts(rename = "Created", concrete(V = crate::messages::TableView))]
pub struct Created<V> {
    pub id: String,
    /// Where to send friends: the table's page.
    pub invite: String,
    /// The creator's seat and its secret token (`null` when every seat is a bot).
    pub seat: Option<Seat>,
    pub token: Option<String>,
    pub table: V,
}

/// The answer to `POST /api/tables/{id}/join`.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
#[ts(rename = "Joined", concrete(V = crate::messages::TableView))]
pub struct Joined<V> {
    pub id: String,
    pub seat: Seat,
    pub token: String,
    pub table: V,
}

/// A socket just opened at a table: who it serves, its first message, and its pushes.
pub(crate) struct Socket {
    /// The viewer's place in a push's views.
    pub(crate) index: usize,
    pub(crate) first: Text,
    pub(crate) version: u64,
    pub(crate) rx: broadcast::Receiver<Arc<Push>>,
}

/// What the idle sweep does with a table.
pub(crate) enum Swept {
    Keep,
    /// Finished longer than `finished_ttl` ago: it leaves memory (the store keeps it).
    Forget,
    /// Left idle: closed (abandoned in the store).
    Closed,
}

fn json<T: Serialize>(v: &T) -> Result<Text, TableError> {
    serde_json::to_string(v).map(Text::from).map_err(|e| TableError::Internal(e.to_string()))
}

/// A table's JSON body read as `T`, refused as an HTTP body would be.
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, TableError> {
    serde_json::from_slice(body).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            TableError::MalformedJson(e.to_string())
        } else {
            TableError::InvalidBody(e.to_string())
        }
    })
}

/// A table of any game, by its JSON.
pub(crate) trait Hosting: Send + Sync + 'static {
    fn id(&self) -> &str;
    fn kind(&self) -> store::Kind;
    fn creator(&self) -> &str;
    /// Whether the table counts against its creator's limit now; a table busy right now
    /// counts (it is not waited for: the registry asks under its lock).
    fn counts(&self) -> bool;
    fn seat_epoch(&self, viewer: Viewer) -> u64;
    /// `GET /api/tables/{id}`: what the token's holder (none: a spectator) is shown.
    fn read<'a>(&'a self, token: Option<&'a str>) -> Boxed<'a, Result<Text, TableError>>;
    /// An action over HTTP: `body` is an [`ActRequest`]; the asker's answer when `answer`.
    fn act<'a>(
        self: Arc<Self>,
        host: &'a Tables,
        token: &'a str,
        body: &'a [u8],
        answer: bool,
    ) -> Boxed<'a, Result<Option<Text>, TableError>>;
    fn join<'a>(
        self: Arc<Self>,
        host: &'a Tables,
        person: &'a Person,
        name: &'a str,
        seat: Option<Seat>,
    ) -> Boxed<'a, Result<Text, TableError>>;
    fn leave<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>>;
    fn close<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>>;
    /// Resigns during play: a bot takes the seat (else, a leave).
    fn resign<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>>;
    /// The person whose seat a stand-in played while they were away takes it again.
    fn back<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>>;
    /// The seat of `token` says a quick phrase.
    fn say<'a>(&'a self, token: Option<&'a str>, phrase: &'a str) -> Boxed<'a, Result<(), TableError>>;
    fn rematch<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<Text, TableError>>;
    /// Who `token` is here, and the seat's holder generation (a socket's upgrade).
    fn resolve<'a>(&'a self, token: Option<&'a str>) -> Boxed<'a, Result<(Viewer, u64), TableError>>;
    /// Whether its game is over (finished or closed): nothing more happens at it.
    fn finished<'a>(&'a self) -> Boxed<'a, bool>;
    /// The seat `token` holds and the account at it (`None`: a guest's), if it holds one.
    fn holder<'a>(&'a self, token: &'a str) -> Boxed<'a, Option<(Seat, Option<String>)>>;
    /// Opens a socket for `viewer` (resolved at `epoch`): counted, subscribed and its first
    /// state rendered under one lock, so no change is missed or sent twice. `None`: the seat
    /// changed hands since.
    fn watch<'a>(&'a self, viewer: Viewer, epoch: u64) -> Boxed<'a, Option<Socket>>;
    fn unwatch<'a>(&'a self, viewer: Viewer) -> Boxed<'a, ()>;
    /// One message from a socket of `viewer`'s: its answer, if any (an accepted action is
    /// answered by the update every viewer gets).
    fn said<'a>(
        self: Arc<Self>,
        host: &'a Tables,
        viewer: Viewer,
        epoch: u64,
        text: &'a str,
    ) -> Boxed<'a, Result<Option<Text>, TableError>>;
    /// The viewer's full state now and its version, or why the table closed.
    fn full_state<'a>(&'a self, viewer: Viewer) -> Boxed<'a, Result<(Text, u64), Closing>>;
    /// The table in the lobby's list; `None`: not listed, or busy right now (a list is a glance).
    fn summary(&self) -> Option<TableSummary>;
    fn sweep(&self, now: Instant, host: &Tables) -> Swept;
    /// Another instance holds the table now: nothing acts at it here any more.
    fn lost<'a>(&'a self) -> Boxed<'a, ()>;
    /// Sets its bots and timers going (a table put in play from the store).
    fn scheduled<'a>(self: Arc<Self>, host: &'a Tables) -> Boxed<'a, ()>;
    fn as_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
}

impl<G: Hosted> Hosting for Table<G> {
    fn id(&self) -> &str {
        &self.id
    }

    fn kind(&self) -> store::Kind {
        G::KIND
    }

    fn creator(&self) -> &str {
        &self.creator
    }

    fn counts(&self) -> bool {
        self.state.try_lock().map(|st| st.life.unfinished()).unwrap_or(true)
    }

    fn seat_epoch(&self, viewer: Viewer) -> u64 {
        Table::seat_epoch(self, viewer)
    }

    fn read<'a>(&'a self, token: Option<&'a str>) -> Boxed<'a, Result<Text, TableError>> {
        Box::pin(async move {
            let mut st = self.state.lock().await;
            if let Some(gone) = st.life.gone(&self.id) {
                return Err(gone);
            }
            let viewer = st.meta.viewer(token)?;
            if let Viewer::Seat(s) = viewer {
                st.claim(s);
            }
            if G::READS_ARE_ACTIVITY {
                st.last_activity = Instant::now();
            }
            Ok(st.full_text(&self.id, viewer))
        })
    }

    fn act<'a>(
        self: Arc<Self>,
        host: &'a Tables,
        token: &'a str,
        body: &'a [u8],
        answer: bool,
    ) -> Boxed<'a, Result<Option<Text>, TableError>> {
        Box::pin(async move {
            let req: ActRequest<G::Action> = read_json(body)?;
            let mut st = self.state.lock().await;
            let seat = st.meta.seat(Some(token))?;
            let acted = self.act_in_request(host, &mut st, seat, req.action, Some(req.version)).await?;
            match answer {
                true => st
                    .change_view(&self.id, Viewer::Seat(seat), &acted.events, &acted.answered)
                    .map(|v| json(&v))
                    .transpose(),
                false => Ok(None),
            }
        })
    }

    fn join<'a>(
        self: Arc<Self>,
        host: &'a Tables,
        person: &'a Person,
        name: &'a str,
        seat: Option<Seat>,
    ) -> Boxed<'a, Result<Text, TableError>> {
        Box::pin(async move {
            let Seated { seat, token, view } = Table::join(&self, host, person, name, seat).await?;
            json(&Joined { id: self.id.clone(), seat, token, table: view })
        })
    }

    fn leave<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>> {
        Box::pin(async move { Table::leave(&self, host, token).await })
    }

    fn close<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>> {
        Box::pin(async move { self.close_by(host, token).await })
    }

    fn resign<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>> {
        Box::pin(async move { Table::resign(&self, host, token).await })
    }

    fn back<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<(), TableError>> {
        Box::pin(async move { Table::back(&self, host, token).await })
    }

    fn say<'a>(&'a self, token: Option<&'a str>, phrase: &'a str) -> Boxed<'a, Result<(), TableError>> {
        Box::pin(async move { Table::say(self, token, phrase).await })
    }

    fn rematch<'a>(self: Arc<Self>, host: &'a Tables, token: Option<&'a str>) -> Boxed<'a, Result<Text, TableError>> {
        Box::pin(async move { json(&Table::rematch(&self, host, token).await?) })
    }

    fn resolve<'a>(&'a self, token: Option<&'a str>) -> Boxed<'a, Result<(Viewer, u64), TableError>> {
        Box::pin(async move {
            let st = self.state.lock().await;
            let viewer = st.meta.viewer(token)?;
            Ok((viewer, self.seat_epoch(viewer)))
        })
    }

    fn finished<'a>(&'a self) -> Boxed<'a, bool> {
        Box::pin(
            async move { matches!(self.state.lock().await.life, Lifecycle::Finished { .. } | Lifecycle::Closed(_)) },
        )
    }

    fn holder<'a>(&'a self, token: &'a str) -> Boxed<'a, Option<(Seat, Option<String>)>> {
        Box::pin(async move {
            let st = self.state.lock().await;
            let seat = st.meta.seat_of(token)?;
            Some((seat, st.meta.seats.get(seat.index())?.account.clone()))
        })
    }

    fn watch<'a>(&'a self, viewer: Viewer, epoch: u64) -> Boxed<'a, Option<Socket>> {
        Box::pin(async move {
            let mut st = self.state.lock().await;
            // The seat changed hands between the upgrade and now: nothing of it is shown.
            if Table::seat_epoch(self, viewer) != epoch || st.life.closed().is_some() {
                return None;
            }
            st.watch(&self.id, viewer, 1);
            let first = st.full_text(&self.id, viewer);
            Some(Socket { index: st.viewer_index(viewer), first, version: st.version(), rx: self.tx.subscribe() })
        })
    }

    fn unwatch<'a>(&'a self, viewer: Viewer) -> Boxed<'a, ()> {
        Box::pin(async move { self.state.lock().await.watch(&self.id, viewer, -1) })
    }

    fn said<'a>(
        self: Arc<Self>,
        host: &'a Tables,
        viewer: Viewer,
        epoch: u64,
        text: &'a str,
    ) -> Boxed<'a, Result<Option<Text>, TableError>> {
        Box::pin(async move {
            match read_json::<ClientMessage<G::Action>>(text.as_bytes())? {
                ClientMessage::Ping => Ok(Some(Text::from("{\"type\":\"pong\"}"))),
                ClientMessage::Action { action, version } => {
                    let Viewer::Seat(seat) = viewer else { return Err(TableError::MissingToken) };
                    let mut st = self.state.lock().await;
                    if Table::seat_epoch(&self, viewer) != epoch {
                        return Err(TableError::BadToken);
                    }
                    self.act_in_request(host, &mut st, seat, action, Some(version)).await?;
                    Ok(None)
                }
            }
        })
    }

    fn full_state<'a>(&'a self, viewer: Viewer) -> Boxed<'a, Result<(Text, u64), Closing>> {
        Box::pin(async move {
            let st = self.state.lock().await;
            if let Some(why) = st.life.closed() {
                return Err(why);
            }
            Ok((st.full_text(&self.id, viewer), st.version()))
        })
    }

    fn summary(&self) -> Option<TableSummary> {
        let st = self.state.try_lock().ok()?;
        // A table closed to spectators is not public: it is not listed (players have its invite).
        if !st.meta.spectators {
            return None;
        }
        let facts = st.facts(&self.id);
        match &st.life {
            Lifecycle::Waiting(setup) => G::summary(&facts, None, Some(setup)),
            Lifecycle::Playing(g) | Lifecycle::Finished { game: g, .. } => G::summary(&facts, Some(g), None),
            Lifecycle::Closed(_) => None,
        }
    }

    fn sweep(&self, now: Instant, host: &Tables) -> Swept {
        let c = host.config();
        let Ok(mut st) = self.state.try_lock() else { return Swept::Keep };
        if let Lifecycle::Finished { at, .. } = st.life {
            return if now.duration_since(at) >= c.finished_ttl { Swept::Forget } else { Swept::Keep };
        }
        if st.life.closed().is_some() {
            return Swept::Forget;
        }
        // A seat's socket keeps its table; a spectator's only a table of bots alone (which
        // plays on by itself, and whose match ends): a spectator left at a table whose people
        // have gone does not keep it waiting for them for ever.
        let players = st.players();
        let seated = st.watchers.iter().take(players).any(|&w| w > 0);
        let bots_only = st.facts(&self.id).bots_only();
        let connected = seated || (bots_only && st.watchers.get(players).is_some_and(|&w| w > 0));
        // Bots alone with nobody watching would think for nobody: they stop sooner.
        let idle_after = if bots_only { c.idle_timeout.min(c.unwatched_bots_timeout) } else { c.idle_timeout };
        if connected || now.duration_since(st.last_activity) < idle_after {
            return Swept::Keep;
        }
        // Under the lock: no bot or timer acts at the table after this.
        self.close(&mut st, Closing::Idle);
        Swept::Closed
    }

    fn lost<'a>(&'a self) -> Boxed<'a, ()> {
        Box::pin(async move {
            let mut st = self.state.lock().await;
            self.close(&mut st, Closing::Moved);
        })
    }

    fn scheduled<'a>(self: Arc<Self>, host: &'a Tables) -> Boxed<'a, ()> {
        Box::pin(async move {
            let mut st = self.state.lock().await;
            self.schedule(host, &mut st, false);
        })
    }

    fn as_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync> {
        self
    }
}

/// A table rebuilt from the store, and whether its game is over.
pub(crate) struct Rebuilt {
    pub(crate) table: Arc<dyn Hosting>,
    pub(crate) over: bool,
}

/// What opens and restores the tables of one game.
pub(crate) trait GameHost: Send + Sync + 'static {
    fn kind(&self) -> store::Kind;
    /// Opens a table from the game's create body for `person` (at the creator's seat); its
    /// answer ([`Created`]), `invite` under `origin` (`http://host:port`) when one is known.
    fn open<'a>(
        &'a self,
        host: &'a Tables,
        body: serde_json::Value,
        client: &'a str,
        person: &'a Person,
        origin: Option<&'a str>,
    ) -> Boxed<'a, Result<Text, TableError>>;
    /// A stored table, rebuilt as it stands (dealt or waiting; finished or not).
    fn rebuild(&self, g: &store::StoredGame) -> Result<Rebuilt, String>;
    /// Keeps the result of a stored game found over, unless it is kept already; whether it is
    /// kept now.
    fn mend<'a>(&'a self, host: &'a Tables, g: &'a store::StoredGame) -> Boxed<'a, Result<bool, TableError>>;
}

/// The [`GameHost`] of game `G`.
pub(crate) struct Host<G>(PhantomData<fn() -> G>);

impl<G> Host<G> {
    pub(crate) fn new() -> Host<G> {
        Host(PhantomData)
    }
}

impl<G: Hosted> Host<G> {
    /// A stored table as it stands, typed.
    fn rebuilt(g: &store::StoredGame) -> Result<Table<G>, String> {
        let meta: Meta<G::Settings> = match g.meta.decode() {
            Ok(m) => m,
            Err(e) => G::settle_old(&g.header).ok_or_else(|| e.to_string())?,
        };
        let mut recent = VecDeque::new();
        let life = if meta.dealt {
            let (game, events) = G::restore(&g.header, &g.actions)?;
            let base = meta.version_base;
            keep_recent::<G>(&mut recent, events.into_iter().map(|(ply, event)| Logged { version: base + ply, event }));
            if game.is_over() {
                Lifecycle::Finished { game, at: Instant::now() }
            } else {
                Lifecycle::Playing(game)
            }
        } else {
            Lifecycle::Waiting(G::unstored_setup(&g.header, &meta.game)?)
        };
        let bots = make_bots::<G>(&meta).map_err(|e| e.to_string())?;
        let players = meta.seats.len();
        Ok(Table::new(
            g.id.clone(),
            TableState {
                life,
                meta,
                bots,
                recent,
                in_doubt: false,
                watchers: vec![0; players + 1],
                told: vec![G::Told::default(); players],
                last_activity: Instant::now(),
                // Restored: whoever holds a seat took it before.
                claimed: vec![true; players],
                said_at: vec![None; players],
                turn_deadline: None,
                bot_retries: 0,
            },
        ))
    }
}

impl<G: Hosted> GameHost for Host<G> {
    fn kind(&self) -> store::Kind {
        G::KIND
    }

    fn open<'a>(
        &'a self,
        host: &'a Tables,
        body: serde_json::Value,
        client: &'a str,
        person: &'a Person,
        origin: Option<&'a str>,
    ) -> Boxed<'a, Result<Text, TableError>> {
        Box::pin(async move {
            let req: G::Create = serde_json::from_value(body).map_err(|e| TableError::InvalidBody(e.to_string()))?;
            let (_, Opened { id, seat, token, view }) = lifecycle::open::<G>(host, req, client, person).await?;
            let invite = format!("{}{}", origin.unwrap_or(""), G::page(&id));
            json(&Created { id, invite, seat, token, table: view })
        })
    }

    fn rebuild(&self, g: &store::StoredGame) -> Result<Rebuilt, String> {
        let table = Host::<G>::rebuilt(g)?;
        let over = table.state.try_lock().map(|st| matches!(st.life, Lifecycle::Finished { .. })).unwrap_or(false);
        Ok(Rebuilt { table: Arc::new(table), over })
    }

    fn mend<'a>(&'a self, host: &'a Tables, g: &'a store::StoredGame) -> Boxed<'a, Result<bool, TableError>> {
        Box::pin(async move {
            let table = Host::<G>::rebuilt(g).map_err(TableError::Internal)?;
            let st = table.state.lock().await;
            let Lifecycle::Finished { game, .. } = &st.life else { return Ok(false) };
            let kept = super::store_read(host.store().results_of(&g.id)).await?;
            if !kept.iter().rev().find(|r| r.kind == G::KIND).is_some_and(|r| game.is_kept_as(r)) {
                let k = game.kept(&st.facts(&g.id))?;
                host.store().add_result(host.new_result::<G>(&g.id, game.plies(), k)).await?;
            }
            Ok(true)
        })
    }
}
