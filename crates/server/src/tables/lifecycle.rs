//! A table's life: created, seats taken and given up, a rematch, closed by its owner.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use rand::RngCore;
use store::{Kind, NewGame, Status as StoreStatus};
use uno::{Event, Game, GameRecord, Position, Rules, RulesConfig};
use uno_bots::BotSpec;

use super::auth::{hash_token, random_hex};
use super::schedule::make_bots;
use super::{stored_header, stored_meta, Meta, Push, SeatMeta, Table, TableError, TableState, Tables, Viewer};
use crate::limits;
use crate::messages::{invite_path, CreateTable, Created, Joined, LoggedEvent, SeatKind, SeatSpec, TableView};
use crate::registry::Refused;
use crate::update::Told;

/// Characters that take no space: a name of these alone looks empty.
pub(super) const INVISIBLE: &[char] = &[
    '\u{00AD}', '\u{034F}', '\u{061C}', '\u{115F}', '\u{1160}', '\u{17B4}', '\u{17B5}', '\u{180E}', '\u{200B}',
    '\u{200C}', '\u{200D}', '\u{200E}', '\u{200F}', '\u{2060}', '\u{2061}', '\u{2062}', '\u{2063}', '\u{2064}',
    '\u{2800}', '\u{3164}', '\u{FEFF}', '\u{FFA0}',
];

/// Characters no name may hold: bidirectional embeddings, overrides and isolates (they turn the
/// text after them around: "Ann\u{202E}nimda" shows as "Annadmin"), and the tag characters
/// (U+E0000–U+E007F, invisible letters).
fn forbidden_in_name(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{E0000}'..='\u{E007F}')
}

pub(super) fn check_name(name: &str, field: &'static str, max: usize) -> Result<String, TableError> {
    let name = name.trim();
    // Invisible characters alone (zero-width spaces, joiners, marks) show as an empty name.
    let visible = |c: char| !c.is_whitespace() && !c.is_control() && !INVISIBLE.contains(&c);
    if !name.chars().any(visible) {
        return Err(TableError::Invalid(format!("{field} must have a visible character")));
    }
    if name.chars().count() > max {
        return Err(TableError::TooLong { field, max });
    }
    if name.chars().any(char::is_control) {
        return Err(TableError::Invalid(format!("{field} must not contain control characters")));
    }
    if name.chars().any(forbidden_in_name) {
        return Err(TableError::Invalid(format!("{field} must not contain direction overrides or tag characters")));
    }
    Ok(name.to_string())
}

/// Whether two names read as one: case aside, and characters that take no space aside (`Bob`
/// and `Bob` with a zero-width space or a blank Braille cell show alike).
fn same_name(a: &str, b: &str) -> bool {
    let shown = |n: &str| n.chars().filter(|c| !INVISIBLE.contains(c)).collect::<String>().to_lowercase();
    shown(a) == shown(b)
}

pub(super) fn build_rules(req: &CreateTable) -> Result<Rules, TableError> {
    let config = match (&req.preset, &req.rules) {
        (Some(_), Some(_)) => return Err(TableError::Invalid("give either `preset` or `rules`, not both".into())),
        (_, Some(serde_json::Value::String(text))) => RulesConfig::parse(text)?,
        (_, Some(v @ serde_json::Value::Object(_))) => {
            serde_json::from_value(v.clone()).map_err(|e| uno::RulesError::Syntax(e.to_string()))?
        }
        (_, Some(_)) => return Err(TableError::Invalid("`rules` is a rules file's text or a JSON object".into())),
        (Some(p), None) => uno::rules::preset_config(p)?,
        (None, None) => uno::rules::preset_config("official")?,
    };
    Ok(req.house_rules.build(config)?)
}

/// The table's clocks: a turn limit within bounds, and bot delays (the table's) at most the cap.
fn check_timing(req: &CreateTable) -> Result<(), TableError> {
    if let Some(t) = req.turn_seconds {
        if t == 0 || t > limits::MAX_TURN_SECONDS {
            return Err(TableError::Invalid(format!(
                "turn_seconds must be between 1 and {}",
                limits::MAX_TURN_SECONDS
            )));
        }
    }
    check_delay(req.bot_delay_ms)
}

fn check_delay(d: Option<u32>) -> Result<(), TableError> {
    match d {
        Some(ms) if ms > limits::MAX_BOT_DELAY_MS => {
            Err(TableError::Invalid(format!("a bot delay is at most {} ms", limits::MAX_BOT_DELAY_MS)))
        }
        _ => Ok(()),
    }
}

/// Each seat as stored: people by their checked names, bots by their spec's canonical name and
/// seed (derived from the table's seed unless given).
fn seat_metas(req: &CreateTable, seed: u64) -> Result<Vec<SeatMeta>, TableError> {
    let mut seats = Vec::with_capacity(req.seats.len());
    for (i, s) in req.seats.iter().enumerate() {
        seats.push(match s {
            SeatSpec::Human { name } => SeatMeta {
                kind: SeatKind::Human,
                name: name.as_deref().map(|n| check_name(n, "name", limits::MAX_NAME_CHARS)).transpose()?,
                token_hash: None,
                bot: None,
                bot_seed: 0,
                delay_ms: None,
            },
            SeatSpec::Bot { bot, seed: bot_seed, delay_ms } => {
                // Parsed once, here: what is stored is the spec's own canonical name.
                let bot = check_name(bot, "bot", limits::MAX_BOT_NAME_CHARS)?.parse::<BotSpec>()?.to_string();
                check_delay(*delay_ms)?;
                let bot_seed = bot_seed.unwrap_or(seeding::table_bot_seed(seed, i));
                SeatMeta {
                    kind: SeatKind::Bot,
                    name: Some(bot.clone()),
                    token_hash: None,
                    bot: Some(bot),
                    bot_seed,
                    delay_ms: *delay_ms,
                }
            }
        });
    }
    Ok(seats)
}

/// The creator's seat (the one asked for, else the first person's) with its token and name.
fn seat_creator(req: &CreateTable, seats: &mut [SeatMeta]) -> Result<(Option<usize>, Option<String>), TableError> {
    let creator_seat = match req.creator_seat {
        Some(i) if seats.get(i).is_some_and(|s| s.kind == SeatKind::Human) => Some(i),
        Some(i) => return Err(TableError::Invalid(format!("creator_seat {i} is not a human seat"))),
        None => seats.iter().position(|s| s.kind == SeatKind::Human),
    };
    let token = creator_seat.map(|_| random_hex(16));
    if let (Some(i), Some(t)) = (creator_seat, &token) {
        seats[i].token_hash = Some(hash_token(t));
        let name = match (&req.name, &seats[i].name) {
            (Some(n), _) => check_name(n, "name", limits::MAX_NAME_CHARS)?,
            (None, Some(n)) => n.clone(),
            (None, None) => format!("Player {}", i + 1),
        };
        seats[i].name = Some(name);
    }
    Ok((creator_seat, token))
}

/// People are told apart by name: a person's is no other seat's (bots of a kind share theirs).
fn check_names_apart(seats: &[SeatMeta]) -> Result<(), TableError> {
    for (i, s) in seats.iter().enumerate().filter(|(_, s)| s.kind == SeatKind::Human) {
        let Some(name) = &s.name else { continue };
        if seats.iter().enumerate().any(|(j, o)| j != i && o.name.as_deref().is_some_and(|m| same_name(m, name))) {
            return Err(TableError::NameTaken);
        }
    }
    Ok(())
}

/// The table's first game and its record: from a kept position, or dealt from `seed` (with the
/// deal's events, which the table logs).
fn first_game(
    rules: Rules,
    position: Option<Position>,
    players: usize,
    seed: u64,
) -> Result<(GameRecord, Game, Vec<Event>), TableError> {
    let mut deal = Vec::new();
    let (record, game) = match position {
        Some(position) => {
            let game =
                Game::from_position(rules.clone(), &position).map_err(|e| TableError::Internal(e.to_string()))?;
            (GameRecord::from_position(&rules, position), game)
        }
        None => (GameRecord::new(&rules, players, seed), {
            let mut game = Game::new(rules, players, seed).map_err(|e| TableError::Invalid(e.to_string()))?;
            game.restart_with_events(seed, &mut deal);
            game
        }),
    };
    Ok((record, game, deal))
}

impl Tables {
    /// Creates a table; `client` identifies the creator for the per-client limit.
    pub async fn create_table(&self, req: CreateTable, client: &str) -> Result<Created, TableError> {
        let start = match &req.from {
            Some(from) => Some(self.position_at(from, &req).await?),
            None => None,
        };
        let rules = match &start {
            Some((rules, _, _)) => rules.clone(),
            None => build_rules(&req)?,
        };
        let players = req.seats.len();
        rules.check_players(players)?;
        if let Some((_, p, _)) = &start {
            if p.hands.len() != players {
                return Err(TableError::Invalid(format!("the position has {} seats, not {players}", p.hands.len())));
            }
        }
        check_timing(&req)?;
        let seed = req.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
        let mut seats = seat_metas(&req, seed)?;
        let (creator_seat, token) = seat_creator(&req, &mut seats)?;
        check_names_apart(&seats)?;
        self.check_capacity(client)?;

        let meta = Meta {
            seats,
            spectators: req.spectators.unwrap_or(true),
            turn_seconds: req.turn_seconds,
            bot_delay_ms: req.bot_delay_ms,
            version_base: 0,
            generation: 0,
            creator: client.to_string(),
            owner_seat: creator_seat,
            chosen_seed: req.seed.is_some(),
            started_from: start.as_ref().map(|(_, _, from)| from.clone()),
        };
        let (record, game, deal) = first_game(rules, start.map(|(_, position, _)| position), players, seed)?;
        let bots = make_bots(&meta)?;
        let id = random_hex(8);
        let new =
            NewGame { id: id.clone(), kind: Kind::Uno, record: stored_header(&record)?, meta: stored_meta(&meta)? };
        self.inner.store.create(new).await?;
        let mut st = TableState {
            record,
            game,
            meta,
            bots,
            events: VecDeque::new(),
            watchers: vec![0; players + 1],
            told: vec![Told::default(); players],
            last_activity: Instant::now(),
            finished_at: None,
            turn_deadline: None,
        };
        let logged: Vec<LoggedEvent> = deal.into_iter().map(|event| LoggedEvent { version: 0, event }).collect();
        st.remember(&logged);
        let viewer = creator_seat.map(Viewer::Seat).unwrap_or(Viewer::Spectator);
        let view = st.full_view(&id, viewer, "state");
        let table = Arc::new(Table::new(id.clone(), client.to_string(), st));
        {
            let mut st = table.state.lock().await;
            self.schedule(&table, &mut st);
        }
        self.inner.tables.insert(&id, table);
        Ok(Created { invite: invite_path(&id), id, seat: creator_seat, token, table: view })
    }

    pub(super) fn check_capacity(&self, client: &str) -> Result<(), TableError> {
        let c = &self.inner.config;
        self.inner.tables.admit(client, c.max_tables, c.max_tables_per_client).map_err(|r| match r {
            Refused::Full => TableError::ServerFull,
            Refused::TooMany(n) => TableError::TooManyTables(n),
        })
    }

    pub async fn join(&self, id: &str, name: &str, seat: Option<usize>) -> Result<Joined, TableError> {
        let name = check_name(name, "name", limits::MAX_NAME_CHARS)?;
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        if st.game.is_over() {
            return Err(TableError::Illegal(uno::IllegalAction::GameOver));
        }
        let open = |s: &SeatMeta| s.kind == SeatKind::Human && s.token_hash.is_none();
        let i = match seat {
            Some(i) if st.meta.seats.get(i).is_some_and(open) => i,
            Some(i) if i >= st.meta.seats.len() => {
                return Err(TableError::Invalid(format!(
                    "seat {i}: the table has seats 0 to {}",
                    st.meta.seats.len().saturating_sub(1)
                )))
            }
            Some(i) => return Err(TableError::SeatTaken(i)),
            None => st.meta.seats.iter().position(open).ok_or(TableError::TableFull)?,
        };
        let taken = |s: &SeatMeta| s.kind == SeatKind::Bot || s.token_hash.is_some();
        let same = |s: &SeatMeta| s.name.as_deref().is_some_and(|n| same_name(n, &name));
        if st.meta.seats.iter().enumerate().any(|(j, s)| j != i && taken(s) && same(s)) {
            return Err(TableError::NameTaken);
        }
        let token = random_hex(16);
        let mut meta = st.meta.clone();
        meta.seats[i].token_hash = Some(hash_token(&token));
        meta.seats[i].name = Some(name);
        self.inner.store.set_meta(id, stored_meta(&meta)?).await?;
        st.meta = meta;
        table.bump_epoch(i);
        st.last_activity = Instant::now();
        self.schedule(&table, &mut st);
        self.publish_state(&table, &mut st);
        Ok(Joined { id: id.to_string(), seat: i, token, table: st.full_view(id, Viewer::Seat(i), "state") })
    }

    /// Gives the seat up: the token stops working and the seat is open again; the game waits
    /// until someone takes it.
    pub async fn leave(&self, id: &str, token: Option<&str>) -> Result<(), TableError> {
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        let Viewer::Seat(i) = self.resolve(&st, Some(token.ok_or(TableError::MissingToken)?))? else {
            return Err(TableError::BadToken);
        };
        let mut meta = st.meta.clone();
        meta.seats[i].token_hash = None;
        meta.seats[i].name = None;
        // The creator who leaves gives the right to close up: whoever sits there next did not
        // create the table, so nobody may close it then.
        if meta.owner_seat == Some(i) {
            meta.owner_seat = None;
        }
        self.inner.store.set_meta(id, stored_meta(&meta)?).await?;
        st.meta = meta;
        table.bump_epoch(i);
        st.last_activity = Instant::now();
        st.turn_deadline = None;
        self.publish_state(&table, &mut st);
        Ok(())
    }

    /// The owner (the creator's seat) closes the table: it is kept in the store as abandoned, it
    /// leaves memory, its bots stop, and its sockets close (4002). This frees a slot of the
    /// creator's table limit.
    pub async fn close(&self, id: &str, token: Option<&str>) -> Result<(), TableError> {
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        let Viewer::Seat(i) = self.resolve(&st, Some(token.ok_or(TableError::MissingToken)?))? else {
            return Err(TableError::BadToken);
        };
        if st.meta.owner_seat != Some(i) {
            return Err(TableError::NotOwner);
        }
        if !st.game.is_over() {
            self.inner.store.set_status(id, StoreStatus::Abandoned).await?;
        }
        table.closed.store(true, Ordering::Release);
        table.done.store(true, Ordering::Relaxed);
        st.turn_deadline = None;
        self.inner.tables.remove(id);
        // Every socket sees the close on this push.
        let _ = table.tx.send(Arc::new(Push { version: st.version(), update: false, views: Vec::new() }));
        Ok(())
    }

    /// A new game at a finished table, same seats and rules, new shuffle.
    pub async fn rematch(&self, id: &str, token: Option<&str>) -> Result<TableView, TableError> {
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        let Viewer::Seat(seat) = self.resolve(&st, Some(token.ok_or(TableError::MissingToken)?))? else {
            return Err(TableError::BadToken);
        };
        if !st.game.is_over() {
            return Err(TableError::NotFinished);
        }
        // A rematch is an unfinished table again: it counts against its creator's limit.
        self.check_capacity(&table.creator)?;
        let seed = rand::rngs::OsRng.next_u64();
        let rules = st.game.rules_arc().clone();
        let record = GameRecord::new(&rules, st.players(), seed);
        let mut deal = Vec::new();
        let mut game = Game::new(rules, st.players(), seed).map_err(|e| TableError::Internal(e.to_string()))?;
        game.restart_with_events(seed, &mut deal);
        let mut meta = st.meta.clone();
        meta.version_base = st.version() + 1;
        meta.generation += 1;
        // A fresh deal from a seed nobody chose.
        meta.chosen_seed = false;
        meta.started_from = None;
        self.inner.store.reset(id, stored_header(&record)?, stored_meta(&meta)?).await?;
        st.record = record;
        st.game = game;
        st.meta = meta;
        st.finished_at = None;
        st.last_activity = Instant::now();
        table.done.store(false, Ordering::Relaxed);
        st.events.clear();
        let logged: Vec<LoggedEvent> =
            deal.into_iter().map(|event| LoggedEvent { version: st.meta.version_base, event }).collect();
        st.remember(&logged);
        self.schedule(&table, &mut st);
        self.publish_state(&table, &mut st);
        Ok(st.full_view(id, Viewer::Seat(seat), "state"))
    }
}
