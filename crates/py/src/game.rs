//! One game on any rule set: actions as text or indices, observations, records, positions
//! and copies.

use std::sync::Arc;

use numpy::{PyArray1, PyArray3};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use uno::game::Game as Engine;
use uno::{Action, GameRecord, Rules, RulesConfig, Seat};
use uno_env::mapping::{decode, encode, legal_mask};
use uno_env::observe::write_observation;
use uno_env::{action, obs, Progress, MAX_SEATS};

use crate::observation::Observation;
use crate::{load_rules, rlcard, seat_arg, value_error, ObsAndMask};

/// One game of UNO on any rule set: apply actions, read legal actions and observations,
/// record and replay.
#[pyclass(module = "tabletop._core")]
#[derive(Clone)]
pub(crate) struct Game {
    pub(crate) game: Engine,
    /// How the game was dealt and every move since, when known (not for a copy of a vector
    /// environment's game): what `record()`, pickling and copies replay.
    pub(crate) record: Option<GameRecord>,
    /// Dealt by `Game::new_fast` (the vector environment's deal) rather than `Game::new`.
    pub(crate) fast: bool,
    /// How long the round has gone without a hand getting smaller (`uno_env::progress`): what
    /// every adapter truncates an episode on.
    pub(crate) progress: Progress,
}

/// A stall tracker in a pickle: each seat's smallest hand so far, and the stall.
type ProgressParts = (Vec<u16>, u32);

fn resume((lows, stall): ProgressParts) -> PyResult<Progress> {
    let lows: [u16; MAX_SEATS] = lows.try_into().map_err(|_| value_error("a pickled game's progress is malformed"))?;
    Ok(Progress::resume(lows, stall))
}

impl Game {
    /// A game as the module hands it out, its stall tracker started where it stands.
    pub(crate) fn wrap(game: Engine, record: Option<GameRecord>, fast: bool) -> Game {
        let progress = Progress::start(&game);
        Game { game, record, fast, progress }
    }

    /// An action given as an index of the action space (for `seat`) or as text (`play R7`).
    fn action_arg(&self, seat: Seat, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        if let Ok(i) = action.extract::<i64>() {
            let index = usize::try_from(i)
                .ok()
                .filter(|&i| i < action::COUNT)
                .ok_or_else(|| value_error(format!("action {i} is outside the action space 0..{}", action::COUNT)))?;
            return decode(&self.game, seat, index).ok_or_else(|| {
                value_error(format!(
                    "action {index} ({}) means nothing for seat {} now",
                    uno_env::action_name(index).unwrap_or_default(),
                    seat.index()
                ))
            });
        }
        let text: String = action.extract()?;
        text.parse::<Action>().map_err(value_error)
    }
}

#[pymethods]
impl Game {
    /// Deals a game. `fast` deals as the vector environment does (`Game::new_fast`); otherwise
    /// as records do, and the game can be recorded.
    #[new]
    #[pyo3(signature = (rules = "official", players = 4, seed = 0, fast = false))]
    fn new(rules: &str, players: usize, seed: u64, fast: bool) -> PyResult<Game> {
        let rules = load_rules(rules)?;
        let record = GameRecord::new(&rules, players, seed);
        let game = if fast { Engine::new_fast(rules, players, seed) } else { Engine::new(rules, players, seed) }
            .map_err(value_error)?;
        Ok(Game::wrap(game, Some(record), fast))
    }

    /// Deals like `Game(rules, players, seed)` but the deal's draws (hands round by round, seat
    /// 0 first, then the start card) take the cards `draws` gives (card indices, `CARD_NAMES`),
    /// in order; draws past them follow the generator. Returns the game and, for every draw the
    /// deal made, the draw pile before it (card indices): the cards that draw could take. For
    /// front ends that make every card an explicit chance outcome (the OpenSpiel game). The
    /// game has no record.
    #[staticmethod]
    fn with_draws(rules: &str, players: usize, seed: u64, draws: Vec<usize>) -> PyResult<(Game, Vec<Vec<usize>>)> {
        let rules = load_rules(rules)?;
        let draws = cards_arg(&draws)?;
        let mut game = Engine::new(rules, players, seed).map_err(value_error)?;
        let piles = game.restart_with_draws(seed, &draws);
        Ok((Game::wrap(game, None, false), card_indices(piles)))
    }

    /// Applies an action like `play`, its draws taking the cards `draws` gives, in order;
    /// returns the draw pile before each draw it made (card indices). See `with_draws`.
    #[pyo3(signature = (action, seat = None, draws = Vec::new()))]
    fn play_with_draws(
        &mut self,
        action: &Bound<'_, PyAny>,
        seat: Option<usize>,
        draws: Vec<usize>,
    ) -> PyResult<Vec<Vec<usize>>> {
        let seat = seat_arg(&self.game, seat)?;
        let action = self.action_arg(seat, action)?;
        let draws = cards_arg(&draws)?;
        let piles = self.game.apply_with_draws(seat, action, &draws).map_err(value_error)?;
        self.progress.record(&self.game);
        // The draws did not follow the generator: the record would not replay.
        self.record = None;
        Ok(card_indices(piles))
    }

    /// Rebuilds a pickled game: deals it as it was dealt and replays its moves; `progress` is
    /// its stall tracker as it stood (`Progress::parts`).
    #[staticmethod]
    fn _restore(json: &str, fast: bool, progress: ProgressParts) -> PyResult<Game> {
        let record: GameRecord = serde_json::from_str(json).map_err(value_error)?;
        let game = if fast {
            let rules = Rules::new(record.rules.clone()).map_err(value_error)?;
            let mut game = Engine::new_fast(rules, record.players, record.seed).map_err(value_error)?;
            for m in &record.actions {
                game.apply(m.seat, m.action).map_err(value_error)?;
            }
            game
        } else {
            record.replay().map_err(value_error)?
        };
        Ok(Game { game, record: Some(record), fast, progress: resume(progress)? })
    }

    /// Rebuilds a pickled game without a record from its position and its rules (JSON).
    #[staticmethod]
    fn _restore_position(position: &str, rules: &str, progress: ProgressParts) -> PyResult<Game> {
        let rules = RulesConfig::parse(rules).and_then(Rules::new).map_err(value_error)?;
        let pos: uno::Position = serde_json::from_str(position).map_err(value_error)?;
        let game = Engine::from_position(Arc::new(rules), &pos).map_err(value_error)?;
        Ok(Game { game, record: None, fast: false, progress: resume(progress)? })
    }

    /// Pickles and copies: a recorded game replays its record; any other (a vector
    /// environment's, one with scripted draws) is rebuilt from its position, generator
    /// included, so it plays on exactly as the original. Both carry the stall tracker.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, PyObject, ProgressParts))> {
        let ty = py.get_type::<Game>();
        let (lows, stall) = self.progress.parts();
        let progress = (lows.to_vec(), stall);
        if let Some(record) = &self.record {
            let json = serde_json::to_string(record).map_err(value_error)?;
            let fast = self.fast.into_pyobject(py)?.to_owned().into_any().unbind();
            return Ok((ty.getattr("_restore")?, (json, fast, progress)));
        }
        let position = serde_json::to_string(&self.game.position()).map_err(value_error)?;
        let rules = serde_json::to_string(self.game.rules().config()).map_err(value_error)?;
        Ok((ty.getattr("_restore_position")?, (position, rules.into_pyobject(py)?.into_any().unbind(), progress)))
    }

    /// Replays a record (the JSON of `record()`, or of the CLI and the server).
    #[staticmethod]
    fn replay(json: &str) -> PyResult<Game> {
        let record: GameRecord = serde_json::from_str(json).map_err(value_error)?;
        let game = record.replay().map_err(value_error)?;
        Ok(Game::wrap(game, Some(record), false))
    }

    /// Engine actions since a hand last got smaller than it had been this round (every
    /// hand's size at the deal, or at the position the game started from, counts as its
    /// smallest so far): the measure of a stall every adapter truncates an episode on.
    #[getter]
    fn stall(&self) -> u32 {
        self.progress.stall()
    }

    /// The game's position as JSON: every field of its state, the generator included, so a
    /// game started from it plays on exactly as this one would (`docs/positions.md`).
    fn position(&self) -> PyResult<String> {
        serde_json::to_string(&self.game.position()).map_err(value_error)
    }

    /// Starts a game from a position: its JSON (as `position()` gives) or its text form. The
    /// position is checked against the rules (every card of the deck once, colours, phase, hand
    /// sizes); a refusal raises `ValueError` naming what is wrong. The game is recorded from
    /// that position, so `record()` replays it.
    #[staticmethod]
    #[pyo3(signature = (position, rules = "official"))]
    fn from_position(position: &str, rules: &str) -> PyResult<Game> {
        let rules = load_rules(rules)?;
        let pos: uno::Position = if position.trim_start().starts_with('{') {
            serde_json::from_str(position).map_err(value_error)?
        } else {
            position.parse().map_err(value_error)?
        };
        let game = Engine::from_position(rules.clone(), &pos).map_err(value_error)?;
        let record = GameRecord::from_position(&rules, pos);
        Ok(Game::wrap(game, Some(record), false))
    }

    /// The record of this game as JSON: rules, seats, seed and every move (what the CLI and
    /// the server replay).
    fn record(&self) -> PyResult<String> {
        let record =
            self.record.as_ref().filter(|_| !self.fast).ok_or_else(|| {
                value_error("only a game dealt with fast=False has a record the CLI and server replay")
            })?;
        serde_json::to_string(record).map_err(value_error)
    }

    /// Applies an action (text such as `"play R7"`, or an index of the action space) for `seat`
    /// (the player to act by default); returns the events it caused, as JSON texts.
    #[pyo3(signature = (action, seat = None))]
    fn apply(&mut self, action: &Bound<'_, PyAny>, seat: Option<usize>) -> PyResult<Vec<String>> {
        let seat = seat_arg(&self.game, seat)?;
        let action = self.action_arg(seat, action)?;
        let events = self.game.apply(seat, action).map_err(value_error)?;
        self.progress.record(&self.game);
        if let Some(record) = &mut self.record {
            record.push(seat, action);
        }
        events.iter().map(|e| serde_json::to_string(e).map_err(value_error)).collect()
    }

    /// Applies an action like `apply` but returns no events: the adapters' per-step path, which
    /// never reads them (turning every event into JSON costs more than the move itself).
    #[pyo3(signature = (action, seat = None))]
    fn play(&mut self, action: &Bound<'_, PyAny>, seat: Option<usize>) -> PyResult<()> {
        let seat = seat_arg(&self.game, seat)?;
        let action = self.action_arg(seat, action)?;
        self.game.check(seat, action).map_err(value_error)?;
        self.game.apply_unchecked(seat, action);
        self.progress.record(&self.game);
        if let Some(record) = &mut self.record {
            record.push(seat, action);
        }
        Ok(())
    }

    /// The observation vector and legal-action mask of `seat` in one call (`window`: in a
    /// reaction window, which adds `DECLINE`).
    #[pyo3(signature = (seat, window = false))]
    fn observe<'py>(&self, py: Python<'py>, seat: usize, window: bool) -> PyResult<ObsAndMask<'py>> {
        let seat = seat_arg(&self.game, Some(seat))?;
        let mut o = vec![0.0; obs::SIZE];
        let mut m = vec![0; action::COUNT];
        write_observation(&self.game, seat, window, &mut o);
        legal_mask(&self.game, seat, window, &mut m);
        Ok((PyArray1::from_vec(py, o), PyArray1::from_vec(py, m)))
    }

    /// The legal actions of `seat` (the player to act by default), as text.
    #[pyo3(signature = (seat = None))]
    fn legal_actions(&self, seat: Option<usize>) -> PyResult<Vec<String>> {
        let seat = seat_arg(&self.game, seat)?;
        Ok(self.game.legal_actions_for(seat).iter().map(|a| a.to_string()).collect())
    }

    /// The legal indices of the action space for `seat`; `window` adds `DECLINE`.
    #[pyo3(signature = (seat = None, window = false))]
    fn legal_mask<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
        window: bool,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let seat = seat_arg(&self.game, seat)?;
        let mut mask = vec![0; action::COUNT];
        legal_mask(&self.game, seat, window, &mut mask);
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The index of an action text in the action space, as `seat` would take it.
    #[pyo3(signature = (action, seat = None))]
    fn action_index(&self, action: &str, seat: Option<usize>) -> PyResult<usize> {
        let seat = seat_arg(&self.game, seat)?;
        let action: Action = action.parse().map_err(value_error)?;
        encode(&self.game, seat, action).ok_or_else(|| value_error(format!("'{action}' has no index now")))
    }

    /// What `seat` may know, as the engine's observation (a dict; `None`: a spectator).
    #[pyo3(signature = (seat = None))]
    fn observation<'py>(&self, py: Python<'py>, seat: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        let viewer = seat.map(|s| seat_arg(&self.game, Some(s))).transpose()?;
        let json = serde_json::to_string(&self.game.observation(viewer)).map_err(value_error)?;
        py.import("json")?.call_method1("loads", (json,))
    }

    /// The legal indices of the action space for `seat` on its turn, ascending.
    #[pyo3(signature = (seat = None))]
    fn legal_indices(&self, seat: Option<usize>) -> PyResult<Vec<usize>> {
        let seat = seat_arg(&self.game, seat)?;
        let mut mask = [0; action::COUNT];
        legal_mask(&self.game, seat, false, &mut mask);
        Ok((0..action::COUNT).filter(|&i| mask[i] != 0).collect())
    }

    /// The engine's observation of `seat` as JSON text (`None`: a spectator).
    #[pyo3(signature = (seat = None))]
    fn observation_json(&self, seat: Option<usize>) -> PyResult<String> {
        let viewer = seat.map(|s| seat_arg(&self.game, Some(s))).transpose()?;
        serde_json::to_string(&self.game.observation(viewer)).map_err(value_error)
    }

    /// The engine's observation of `seat` kept as it is now, turned into JSON only when read:
    /// the RLCard-compatible state carries one per step, and most steps never read it.
    #[pyo3(signature = (seat = None))]
    fn observation_snapshot(&self, seat: Option<usize>) -> PyResult<Observation> {
        let viewer = seat.map(|s| seat_arg(&self.game, Some(s))).transpose()?;
        Ok(Observation(self.game.observation(viewer)))
    }

    /// RLCard's 4×4×15 planes for `seat`: planes 0–2 mark the kinds held 0, 1 and 2+ times,
    /// plane 3 the top card; rows are RLCard's colours r, g, b, y, columns its traits (0–9,
    /// skip, reverse, draw 2, wild, wild draw 4). A wild in hand marks every row; a wild on top
    /// marks the colour in play (every row while a first-card wild waits for one).
    fn rlcard_planes<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray3<i64>>> {
        let seat = seat_arg(&self.game, Some(seat))?;
        Ok(PyArray3::from_owned_array(py, rlcard::planes(&self.game, seat)))
    }

    /// One RLCard state of `seat` in one call (the RLCard-compatible environment's path):
    /// its planes (`rlcard_planes`), its legal ids (`legal_indices`) and their RLCard names
    /// (`rlcard_action_names`), and the engine's observation (`observation_snapshot`). The
    /// legal lists are empty unless `seat` is to act: not after the round ended, nor when
    /// `capped` (the environment's action cap was reached).
    fn rlcard_state<'py>(&self, py: Python<'py>, seat: usize, capped: bool) -> PyResult<rlcard::State<'py>> {
        let seat = seat_arg(&self.game, Some(seat))?;
        rlcard::state(py, &self.game, seat, capped)
    }

    /// `play(index)` for the player to act, then the next player to act and its RLCard state
    /// (`rlcard_state(next, capped)`): the RLCard-compatible environment's step in one call.
    /// The state is capped when `last_action` (the environment's action cap is reached) or
    /// when the move left the round stalled for `max_stall` engine actions.
    fn rlcard_play<'py>(
        &mut self,
        py: Python<'py>,
        index: &Bound<'_, PyAny>,
        last_action: bool,
        max_stall: u32,
    ) -> PyResult<(usize, rlcard::State<'py>)> {
        self.play(index, None)?;
        let next = self.game.current();
        let capped = last_action || self.progress.stall() >= max_stall;
        Ok((next.index(), rlcard::state(py, &self.game, next, capped)?))
    }

    /// One state of the faithful RLCard mode for `seat`: RLCard's own planes
    /// (`rlcard/envs/uno.py`), its legal action ids (0–60, in RLCard's order) and their names,
    /// the hand and the target as RLCard names them, and every seat's hand size. The legal
    /// lists are empty unless `seat` is to act and not `capped`. Refused (`ValueError`) under
    /// rules with decisions RLCard's game lacks.
    fn rlcard_faithful_state<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
        capped: bool,
    ) -> PyResult<rlcard::FaithfulState<'py>> {
        let seat = seat_arg(&self.game, Some(seat))?;
        rlcard::faithful_state(py, &self.game, seat, capped)
    }

    /// Plays RLCard action `id` (0–60) for the player to act, then the next player to act and
    /// its faithful state (capped as `rlcard_play`'s), in one call. An id that is not legal
    /// now raises `ValueError` and changes nothing.
    fn rlcard_faithful_play<'py>(
        &mut self,
        py: Python<'py>,
        id: usize,
        last_action: bool,
        max_stall: u32,
    ) -> PyResult<(usize, rlcard::FaithfulState<'py>)> {
        let seat = self.game.current();
        let action = rlcard::faithful_action(id)
            .ok_or_else(|| value_error(format!("RLCard's UNO has actions 0..{}, not {id}", rlcard::RLCARD_ACTIONS)))?;
        self.game.check(seat, action).map_err(value_error)?;
        self.game.apply_unchecked(seat, action);
        self.progress.record(&self.game);
        if let Some(record) = &mut self.record {
            record.push(seat, action);
        }
        let next = self.game.current();
        let capped = last_action || self.progress.stall() >= max_stall;
        Ok((next.index(), rlcard::faithful_state(py, &self.game, next, capped)?))
    }

    /// The observation vector, the legal-action mask and the same mask as `bytes` of `seat` at
    /// a selection, in one call: the PettingZoo environments hand the arrays out and judge the
    /// action against the bytes, which nobody else holds. `window`: a reaction window (adds
    /// `DECLINE`); `decline_only`: the window of the seat whose turn is next, where it can only
    /// let the window go by.
    #[pyo3(signature = (seat, window, decline_only = false))]
    #[allow(clippy::type_complexity)]
    fn selection<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
        window: bool,
        decline_only: bool,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>, Bound<'py, PyBytes>)> {
        let seat = seat_arg(&self.game, Some(seat))?;
        let mut o = vec![0.0; obs::SIZE];
        let mut m = vec![0; action::COUNT];
        write_observation(&self.game, seat, window, &mut o);
        if decline_only {
            m[action::DECLINE] = 1;
        } else {
            legal_mask(&self.game, seat, window, &mut m);
        }
        let bytes: Vec<u8> = m.iter().map(|&x| u8::from(x != 0)).collect();
        Ok((PyArray1::from_vec(py, o), PyArray1::from_vec(py, m), PyBytes::new(py, &bytes)))
    }

    /// What `seat` may know, as the environment's observation vector.
    #[pyo3(signature = (seat = None, window = false))]
    fn observation_vector<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
        window: bool,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = seat_arg(&self.game, seat)?;
        let mut out = vec![0.0; obs::SIZE];
        write_observation(&self.game, seat, window, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    #[getter]
    fn players(&self) -> usize {
        self.game.players()
    }
    #[getter]
    fn current(&self) -> usize {
        self.game.current().index()
    }
    #[getter]
    fn phase(&self) -> PyResult<String> {
        let value = serde_json::to_value(self.game.phase()).map_err(value_error)?;
        Ok(value.get("phase").and_then(|p| p.as_str()).unwrap_or_default().to_string())
    }
    #[getter]
    fn rules_name(&self) -> String {
        self.game.rules().name().to_string()
    }
    /// Each seat's hand, as card texts (the whole truth: for referees and tests, not agents).
    fn hands(&self) -> Vec<Vec<String>> {
        self.game.hands().iter().map(|h| h.iter().map(|c| c.to_string()).collect()).collect()
    }
    fn is_round_over(&self) -> bool {
        self.game.is_round_over()
    }
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    fn round_winner(&self) -> Option<usize> {
        self.game.round_winner().map(|s| s.index())
    }
    /// Each seat's reward for a finished round (+1 winner, -1 others, 0 without a winner).
    fn round_rewards(&self) -> Vec<f32> {
        let mut r = vec![0.0; self.game.players()];
        if self.game.is_round_over() {
            uno_env::round_rewards(&self.game, &mut r);
        }
        r
    }
    /// The number of cards in the discard pile (the top card included).
    #[getter]
    fn discard_size(&self) -> usize {
        self.game.discard_pile().len()
    }
    fn state_hash(&self) -> u64 {
        self.game.state_hash()
    }
    fn copy(&self) -> Game {
        self.clone()
    }
    fn __copy__(&self) -> Game {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> Game {
        self.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "Game(rules={:?}, players={}, current={}, phase={:?})",
            self.game.rules().name(),
            self.game.players(),
            self.game.current().index(),
            self.game.phase()
        )
    }
}

/// Cards given as indices (`CARD_NAMES`).
fn cards_arg(indices: &[usize]) -> PyResult<Vec<uno::Card>> {
    indices
        .iter()
        .map(|&i| uno::Card::from_index(i).ok_or_else(|| value_error(format!("no card has index {i}"))))
        .collect()
}

fn card_indices(piles: Vec<Vec<uno::Card>>) -> Vec<Vec<usize>> {
    piles.into_iter().map(|pile| pile.into_iter().map(uno::Card::index).collect()).collect()
}
