//! A table's life: opened (waiting for its seats, nothing dealt), dealt when every person's
//! seat is taken, seats given up and taken again, a rematch, closed by its owner. Each change
//! is stored before it is answered, and published to every socket through the table's funnel.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use store::{NewGame, Standing};

use super::schedule::make_bots;
use super::seats::{self, check_delay, check_name, check_names_apart, new_token, same_name, Meta, SeatMeta};
use super::table::{Closing, Lifecycle, Table, TableState};
use super::{Hosted, Logged, Person, Refusal, Seat, TableError, Tables, Viewer};
use crate::limits;
use crate::messages::{SeatKind, SeatSpec};

/// A table just opened, as its creator is answered.
pub(crate) struct Opened<V> {
    pub(crate) id: String,
    pub(crate) seat: Option<Seat>,
    pub(crate) token: Option<String>,
    pub(crate) view: Option<V>,
}

/// A seat just taken, as its taker is answered.
pub(crate) struct Seated<V> {
    pub(crate) seat: Seat,
    pub(crate) token: String,
    pub(crate) view: Option<V>,
}

/// The refusal of anything but reading at a table whose game is over.
pub(crate) fn game_over() -> TableError {
    TableError::Illegal(Refusal::new("game_over", true, "the game is over".into()))
}

pub(crate) fn stored_meta<S: serde::Serialize>(meta: &Meta<S>) -> Result<store::Meta, TableError> {
    store::Meta::new(meta).map_err(|e| TableError::Internal(e.to_string()))
}

/// The table's clocks: a turn limit within bounds, and the table's bot pause within the cap.
fn check_timing(turn_seconds: Option<u32>, bot_delay_ms: Option<u32>) -> Result<(), TableError> {
    if let Some(t) = turn_seconds {
        if t == 0 || t > limits::MAX_TURN_SECONDS {
            return Err(TableError::Invalid(format!(
                "turn_seconds must be between 1 and {}",
                limits::MAX_TURN_SECONDS
            )));
        }
    }
    check_delay(bot_delay_ms)
}

/// Each seat as stored: people by their checked names, bots by their canonical name and seed
/// (derived from the table's seed unless given).
fn seat_metas<G: Hosted>(specs: &[SeatSpec], seed: u64) -> Result<Vec<SeatMeta>, TableError> {
    let mut seats = Vec::with_capacity(specs.len());
    for (i, s) in specs.iter().enumerate() {
        seats.push(match s {
            SeatSpec::Human { name } => {
                SeatMeta::open(name.as_deref().map(|n| check_name(n, "name", limits::MAX_NAME_CHARS)).transpose()?)
            }
            SeatSpec::Bot { bot, seed: bot_seed, delay_ms } => {
                // Read once, here: what is stored is the bot's canonical name.
                let (bot, _) = G::bot(&check_name(bot, "bot", limits::MAX_BOT_NAME_CHARS)?, 0)?;
                check_delay(*delay_ms)?;
                SeatMeta::bot(bot, bot_seed.unwrap_or(seeding::table_bot_seed(seed, i)), *delay_ms)
            }
        });
    }
    Ok(seats)
}

/// Seats the creator (at the seat asked for, else the first person's): its token and name.
fn seat_creator(
    asked: Option<Seat>,
    name: Option<&str>,
    seats: &mut [SeatMeta],
) -> Result<(Option<Seat>, Option<String>), TableError> {
    let creator = match asked {
        Some(s) if seats.get(s.index()).is_some_and(|m| m.kind == SeatKind::Human) => Some(s),
        Some(s) => return Err(TableError::Invalid(format!("creator_seat {s} is not a human seat"))),
        None => seats::all(seats.len()).zip(seats.iter()).find(|(_, m)| m.kind == SeatKind::Human).map(|(s, _)| s),
    };
    let Some(s) = creator else { return Ok((None, None)) };
    let (token, hash) = new_token();
    let m = &mut seats[s.index()];
    m.token_hash = Some(hash);
    let name = match (name, &m.name) {
        (Some(n), _) => check_name(n, "name", limits::MAX_NAME_CHARS)?,
        (None, Some(n)) => n.clone(),
        (None, None) => format!("Player {}", s.index() + 1),
    };
    m.name = Some(name);
    Ok((Some(s), Some(token)))
}

/// Opens a table of game `G` for `client` (`person` at the creator's seat: a signed-in one
/// under their account's name): stored, then kept in the registry; dealt at once when no
/// person's seat is left to take.
pub(crate) async fn open<G: Hosted>(
    host: &Tables,
    req: G::Create,
    client: &str,
    person: &Person,
) -> Result<(Arc<Table<G>>, Opened<G::View>), TableError> {
    let mut o = G::open(req, host).await?;
    if G::rated_preset(&o.settings).is_some() {
        // Rated: opened by a signed-in person, for people only, with a turn timer.
        if person.account().is_none() {
            return Err(TableError::SignInRequired);
        }
        if o.seats.iter().any(|s| !matches!(s, SeatSpec::Human { .. })) {
            return Err(TableError::Invalid("a rated table seats people only: no bots".into()));
        }
        o.turn_seconds = Some(o.turn_seconds.unwrap_or(super::rated::RATED_TURN_SECONDS));
    }
    check_timing(o.turn_seconds, o.bot_delay_ms)?;
    let mut seats = seat_metas::<G>(&o.seats, o.seed)?;
    let creator_name = person.account().map(|a| a.name.as_str()).or(o.name.as_deref());
    let (creator_seat, token) = seat_creator(o.creator_seat, creator_name, &mut seats)?;
    if let (Some(s), Some(a)) = (creator_seat, person.account()) {
        let m = &mut seats[s.index()];
        m.name = Some(a.name.clone());
        m.account = Some(a.id.clone());
    }
    check_names_apart(&seats)?;
    // No seat is named after another's account (a signed-in creator's own seat is theirs).
    for m in seats.iter().filter(|m| m.kind == SeatKind::Human) {
        if let Some(name) = &m.name {
            host.check_name_free(name, person).await?;
        }
    }
    host.check_capacity(client, G::KIND, None)?;
    let mut meta = Meta {
        seats,
        spectators: o.spectators,
        turn_seconds: o.turn_seconds,
        bot_delay_ms: o.bot_delay_ms,
        version_base: 0,
        generation: 0,
        creator: client.to_string(),
        owner_seat: creator_seat,
        dealt: false,
        rated_early: None,
        game: o.settings,
    };
    if let (Some(s), Some(a)) = (creator_seat, person.account()) {
        meta.seats[s.index()].rating = super::rated::seat_rating::<G>(host, &meta, &a.id).await;
    }
    let bots = make_bots::<G>(&meta)?;
    let id = seats::random_hex(8);
    let new = NewGame { id: id.clone(), kind: G::KIND, header: G::stored_setup(&o.setup)?, meta: stored_meta(&meta)? };
    host.store().create(new).await?;
    let players = meta.seats.len();
    let st = TableState {
        life: Lifecycle::Waiting(o.setup),
        meta,
        bots,
        recent: VecDeque::new(),
        in_doubt: false,
        watchers: vec![0; players + 1],
        told: vec![G::Told::default(); players],
        last_activity: Instant::now(),
        claimed: vec![false; players],
        said_at: vec![None; players],
        turn_deadline: None,
        bot_retries: 0,
    };
    let table = Arc::new(Table::new(id.clone(), st));
    if let (Some(s), Some(a)) = (creator_seat, person.account()) {
        host.link_seat(&a.id, &id, s).await;
    }
    let view = {
        let mut st = table.state.lock().await;
        if st.meta.seated() {
            let meta = st.meta.clone();
            table.start(host, &mut st, meta).await?;
        }
        table.schedule(host, &mut st, false);
        st.full_view(&id, creator_seat.map(Viewer::Seat).unwrap_or(Viewer::Spectator))
    };
    host.insert(&id, table.clone());
    Ok((table, Opened { id, seat: creator_seat, token, view }))
}

impl<G: Hosted> Table<G> {
    /// Stores `meta`, dealing the game first when the table waits and every person's seat is
    /// taken in it (the game's header and the meta in one write).
    async fn store_seats(
        self: &Arc<Self>,
        host: &Tables,
        st: &mut TableState<G>,
        meta: Meta<G::Settings>,
    ) -> Result<(), TableError> {
        if matches!(st.life, Lifecycle::Waiting(_)) && meta.seated() {
            return self.start(host, st, meta).await;
        }
        host.store().set_meta(&self.id, stored_meta(&meta)?).await?;
        st.meta = meta;
        Ok(())
    }

    /// Play starts: the game is dealt (a seed nobody chose is drawn now), its header and the
    /// table's meta stored in one write, and the deal's events remembered.
    async fn start(
        self: &Arc<Self>,
        host: &Tables,
        st: &mut TableState<G>,
        meta: Meta<G::Settings>,
    ) -> Result<(), TableError> {
        let Lifecycle::Waiting(setup) = &st.life else {
            return Err(TableError::Internal("a table dealt twice".into()));
        };
        let (game, deal, meta) = self.deal(host, setup, meta).await?;
        self.dealt(st, game, deal, meta);
        Ok(())
    }

    /// Deals from `setup` and stores the game's header with `meta`; nothing changes in memory.
    async fn deal(
        &self,
        host: &Tables,
        setup: &G::Setup,
        mut meta: Meta<G::Settings>,
    ) -> Result<(G, Vec<G::Event>, Meta<G::Settings>), TableError> {
        let (game, deal) = G::deal(setup, &mut meta.game)?;
        meta.dealt = true;
        host.store().reset(&self.id, game.header()?, stored_meta(&meta)?).await?;
        Ok((game, deal, meta))
    }

    /// The dealt game in play, with the deal's events.
    fn dealt(&self, st: &mut TableState<G>, game: G, deal: Vec<G::Event>, meta: Meta<G::Settings>) {
        let version = meta.version_base;
        st.meta = meta;
        st.life = Lifecycle::Playing(game);
        let logged: Vec<Logged<G::Event>> = deal.into_iter().map(|event| Logged { version, event }).collect();
        st.remember(&logged);
    }

    /// Takes an open person's seat (`seat`, or the first open one) under `name`; a signed-in
    /// `person` sits under their account's name, and a guest under no account's.
    pub(crate) async fn join(
        self: &Arc<Self>,
        host: &Tables,
        person: &Person,
        name: &str,
        seat: Option<Seat>,
    ) -> Result<Seated<G::View>, TableError> {
        let name = match person.account() {
            Some(a) => a.name.clone(),
            None => {
                let name = check_name(name, "name", limits::MAX_NAME_CHARS)?;
                host.check_name_free(&name, person).await?;
                name
            }
        };
        let mut st = self.state.lock().await;
        match &st.life {
            Lifecycle::Closed(_) => return Err(TableError::NoSuchTable(self.id.clone())),
            Lifecycle::Finished { .. } => return Err(game_over()),
            Lifecycle::Waiting(_) | Lifecycle::Playing(_) => {}
        }
        if person.account().is_none() && G::rated_preset(&st.meta.game).is_some() {
            return Err(TableError::SignInRequired);
        }
        let open = |s: &SeatMeta| s.kind == SeatKind::Human && s.token_hash.is_none();
        let players = st.players();
        let i = match seat {
            Some(s) if st.meta.seats.get(s.index()).is_some_and(open) => s,
            Some(s) if s.index() >= players => {
                return Err(TableError::Invalid(format!(
                    "seat {s}: the table has seats 0 to {}",
                    players.saturating_sub(1)
                )))
            }
            Some(s) => return Err(TableError::SeatTaken(s)),
            None => seats::all(players)
                .zip(&st.meta.seats)
                .find(|(_, m)| open(m))
                .map(|(s, _)| s)
                .ok_or(TableError::TableFull)?,
        };
        if let Some(id) = person.id() {
            if st
                .meta
                .seats
                .iter()
                .enumerate()
                .any(|(j, s)| j != i.index() && s.taken() && s.account.as_deref() == Some(id))
            {
                return Err(TableError::OneSeatEach);
            }
        }
        let same = |s: &SeatMeta| s.name.as_deref().is_some_and(|n| same_name(n, &name));
        if st.meta.seats.iter().enumerate().any(|(j, s)| j != i.index() && s.taken() && same(s)) {
            return Err(TableError::NameTaken);
        }
        let (token, hash) = new_token();
        let mut meta = st.meta.clone();
        meta.seats[i.index()].token_hash = Some(hash);
        meta.seats[i.index()].name = Some(name);
        meta.seats[i.index()].account = person.id().map(str::to_string);
        meta.seats[i.index()].rating = match person.id() {
            Some(a) => super::rated::seat_rating::<G>(host, &meta, a).await,
            None => None,
        };
        self.store_seats(host, &mut st, meta).await?;
        if let Some(a) = person.account() {
            host.link_seat(&a.id, &self.id, i).await;
        }
        self.bump_epoch(i);
        st.last_activity = Instant::now();
        self.schedule(host, &mut st, false);
        self.publish_state(&mut st);
        Ok(Seated { seat: i, token, view: st.full_view(&self.id, Viewer::Seat(i)) })
    }

    /// Gives the seat up: the token stops working and the seat is open again; the game waits
    /// until someone takes it. Given up before anyone acted, the deal is dropped: the table
    /// waits for its seats again and deals afresh when they are taken, so the hand its leaver
    /// saw is nobody's.
    pub(crate) async fn leave(self: &Arc<Self>, host: &Tables, token: Option<&str>) -> Result<(), TableError> {
        let mut st = self.state.lock().await;
        let i = st.meta.seat(token)?;
        let mut meta = st.meta.clone();
        let in_play = matches!(&st.life, Lifecycle::Playing(g) if g.plies() > 0 && !g.is_over());
        self.rate_leaver(host, in_play, &mut meta, i).await?;
        meta.seats[i.index()].token_hash = None;
        meta.seats[i.index()].name = None;
        meta.seats[i.index()].account = None;
        meta.seats[i.index()].rating = None;
        // The creator who leaves gives the right to close up: whoever sits there next did not
        // create the table, so nobody may close it then.
        if meta.owner_seat == Some(i) {
            meta.owner_seat = None;
        }
        let undealt = match &st.life {
            Lifecycle::Playing(g) if g.plies() == 0 => Some(g.undealt(&meta.game)),
            _ => None,
        };
        match undealt {
            Some(setup) => {
                meta.dealt = false;
                host.store().reset(&self.id, G::stored_setup(&setup)?, stored_meta(&meta)?).await?;
                st.life = Lifecycle::Waiting(setup);
                st.recent.clear();
            }
            None => host.store().set_meta(&self.id, stored_meta(&meta)?).await?,
        }
        st.meta = meta;
        self.bump_epoch(i);
        st.last_activity = Instant::now();
        st.turn_deadline = None;
        self.publish_state(&mut st);
        Ok(())
    }

    /// A person at `seat` acted, or said they are back: the turns their time ran out are
    /// forgotten, and a seat a stand-in bot played while they were away is theirs again (stored,
    /// and every viewer told). Whether it was away.
    pub(crate) async fn present(
        self: &Arc<Self>,
        host: &Tables,
        st: &mut TableState<G>,
        seat: Seat,
    ) -> Result<bool, TableError> {
        st.claim(seat);
        let Some(m) = st.meta.seats.get(seat.index()) else { return Ok(false) };
        if m.timeouts == 0 && !m.away {
            return Ok(false);
        }
        let away = m.away;
        let mut meta = st.meta.clone();
        meta.seats[seat.index()].timeouts = 0;
        meta.seats[seat.index()].away = false;
        if away {
            host.store().set_meta(&self.id, stored_meta(&meta)?).await?;
            if let Some(slot) = st.bots.get_mut(seat.index()) {
                *slot = None;
            }
        }
        st.meta = meta;
        st.last_activity = Instant::now();
        self.publish_state(st);
        Ok(away)
    }

    /// `POST /api/tables/{id}/back`: the person whose seat a stand-in played takes it again.
    pub(crate) async fn back(self: &Arc<Self>, host: &Tables, token: Option<&str>) -> Result<(), TableError> {
        let mut st = self.state.lock().await;
        let seat = st.meta.seat(token)?;
        if self.present(host, &mut st, seat).await? {
            self.schedule(host, &mut st, false);
        }
        Ok(())
    }

    /// The seat of `token` says quick phrase `code` (one of [`super::phrases::PHRASES`]): every
    /// viewer's socket is told; nothing at the table changes.
    pub(crate) async fn say(&self, token: Option<&str>, code: &str) -> Result<(), TableError> {
        use super::phrases::{find, Said, PHRASE_EVERY};
        let phrase = find(code).ok_or_else(|| TableError::Invalid(format!("{code:?} is not a quick phrase")))?;
        let mut st = self.state.lock().await;
        let seat = st.meta.seat(token)?;
        if st.life.closed().is_some() {
            return Err(TableError::NoSuchTable(self.id.clone()));
        }
        let now = Instant::now();
        let last = st.said_at.get(seat.index()).copied().flatten();
        if last.is_some_and(|at| now.duration_since(at) < PHRASE_EVERY) {
            return Err(TableError::TooManyPhrases(PHRASE_EVERY.as_secs()));
        }
        if let Some(at) = st.said_at.get_mut(seat.index()) {
            *at = Some(now);
        }
        let said = Said { kind: "phrase", seat, phrase: phrase.code, text: phrase.text };
        let text = serde_json::to_string(&said).map_err(|e| TableError::Internal(e.to_string()))?;
        let _ = self.tx.send(Arc::new(super::table::Push::Said(crate::text::Text::from(text))));
        Ok(())
    }

    /// Resigns during play: the game's stand-in bot ([`Hosted::STAND_IN`]) takes the seat for
    /// the rest of the game (the seat says whose it was), the token stops working, and the game
    /// goes on. Before anyone acted, after the game, or in a game with no stand-in, it is
    /// [`Table::leave`].
    pub(crate) async fn resign(self: &Arc<Self>, host: &Tables, token: Option<&str>) -> Result<(), TableError> {
        let mut st = self.state.lock().await;
        let i = st.meta.seat(token)?;
        let in_play = matches!(&st.life, Lifecycle::Playing(g) if g.plies() > 0 && !g.is_over());
        let Some(stand_in) = G::STAND_IN.filter(|_| in_play) else {
            drop(st);
            return self.leave(host, token).await;
        };
        self.hand_to_bot(host, &mut st, i, stand_in).await
    }

    /// Seat `i`'s person leaves a rated game in play (leaving, resigning, their seat given to
    /// a bot): the game is rated now, the leaver last (see `rated.rs`), and marked so in `meta`.
    /// A casual table, a game not under way (`!in_play`: nobody acted yet, or it is over) or
    /// one rated already is left as it is.
    async fn rate_leaver(
        &self,
        host: &Tables,
        in_play: bool,
        meta: &mut Meta<G::Settings>,
        i: Seat,
    ) -> Result<(), TableError> {
        if !in_play {
            return Ok(());
        }
        let finishes = super::rated::left(meta.seats.len(), i);
        if let (Some(r), Some(people)) = (super::rated::rated::<G>(&self.id, meta, finishes), host.store().people()) {
            people.rate(r).await?;
            meta.rated_early = Some(meta.generation);
        }
        Ok(())
    }

    /// The seat `i` is bot `bot`'s from now on (the seat says whose it was), its token stops
    /// working, and the game goes on. In a rated game that is leaving it: last place.
    async fn hand_to_bot(
        self: &Arc<Self>,
        host: &Tables,
        st: &mut TableState<G>,
        i: Seat,
        bot: &str,
    ) -> Result<(), TableError> {
        let seed = rand::random::<u64>();
        let (name, player) = G::bot(bot, seed)?;
        let mut meta = st.meta.clone();
        let in_play = matches!(&st.life, Lifecycle::Playing(g) if g.plies() > 0 && !g.is_over());
        self.rate_leaver(host, in_play, &mut meta, i).await?;
        let mut seat = SeatMeta::bot(name, seed, None);
        seat.replaced = meta.seats[i.index()].name.clone();
        meta.seats[i.index()] = seat;
        if meta.owner_seat == Some(i) {
            meta.owner_seat = None;
        }
        self.store_seats(host, st, meta).await?;
        if let Some(slot) = st.bots.get_mut(i.index()) {
            *slot = Some(player);
        }
        self.bump_epoch(i);
        st.last_activity = Instant::now();
        self.schedule(host, st, false);
        self.publish_state(st);
        Ok(())
    }

    /// The people's seats among `seats` that nobody took (see `TableState::claimed`), or whose
    /// holder is known to be gone (`gone`), go to the game's stand-in bot: a table made for
    /// people who were not there plays on rather than waiting for them. Answers the seats given.
    pub(crate) async fn stand_in_for(self: &Arc<Self>, host: &Tables, seats: &[Seat], gone: bool) -> Vec<Seat> {
        let Some(stand_in) = G::STAND_IN else { return Vec::new() };
        let mut st = self.state.lock().await;
        let mut given = Vec::new();
        for &s in seats {
            if st.life.closed().is_some() || matches!(st.life, Lifecycle::Finished { .. }) {
                break;
            }
            let person = st.meta.seats.get(s.index()).is_some_and(|m| m.kind == SeatKind::Human);
            let unclaimed = !st.claimed.get(s.index()).copied().unwrap_or(true);
            if person && (gone || unclaimed) {
                match self.hand_to_bot(host, &mut st, s, stand_in).await {
                    Ok(()) => given.push(s),
                    Err(e) => {
                        tracing::warn!(table = %self.id, seat = %s, error = %e, "a seat nobody took was not given to a bot")
                    }
                }
            }
        }
        given
    }

    /// The owner (the creator's seat) closes the table: it is kept in the store as abandoned,
    /// it leaves memory, its bots stop, and its sockets close. This frees a slot of the
    /// creator's table limit.
    pub(crate) async fn close_by(self: &Arc<Self>, host: &Tables, token: Option<&str>) -> Result<(), TableError> {
        let mut st = self.state.lock().await;
        let i = st.meta.seat(token)?;
        if st.meta.owner_seat != Some(i) {
            return Err(TableError::NotOwner);
        }
        if st.life.unfinished() {
            host.store().set_standing(&self.id, Standing::Abandoned).await?;
        }
        host.remove(&self.id);
        self.close(&mut st, Closing::Owner);
        Ok(())
    }

    /// A new game at a finished table: same seats and rules, a fresh deal (dealt at once when
    /// every person's seat is still held, else when it is again).
    pub(crate) async fn rematch(
        self: &Arc<Self>,
        host: &Tables,
        token: Option<&str>,
    ) -> Result<Option<G::View>, TableError> {
        let mut st = self.state.lock().await;
        let seat = st.meta.seat(token)?;
        let Lifecycle::Finished { game, .. } = &st.life else { return Err(TableError::NotFinished) };
        // A rematch is an unfinished table again: it counts against its creator's limit.
        host.check_capacity(&self.creator, G::KIND, Some(&self.id))?;
        let mut meta = st.meta.clone();
        let setup = game.rematch(&mut meta.game)?;
        meta.version_base = st.version() + 1;
        meta.generation += 1;
        super::rated::mark_seats::<G>(host, &mut meta).await;
        if meta.seated() {
            let (game, deal, meta) = self.deal(host, &setup, meta).await?;
            st.recent.clear();
            self.dealt(&mut st, game, deal, meta);
        } else {
            meta.dealt = false;
            host.store().reset(&self.id, G::stored_setup(&setup)?, stored_meta(&meta)?).await?;
            st.recent.clear();
            st.meta = meta;
            st.life = Lifecycle::Waiting(setup);
        }
        st.last_activity = Instant::now();
        self.schedule(host, &mut st, false);
        self.publish_state(&mut st);
        Ok(st.full_view(&self.id, Viewer::Seat(seat)))
    }
}
