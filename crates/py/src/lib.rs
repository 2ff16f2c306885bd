//! `tabletop._core`: the engine, the bots and the batched environment for Python.
//!
//! Thin on purpose: every rule lives in `uno`, every environment promise in `uno-env`; this
//! module converts arguments, fills numpy arrays in place and turns errors into `ValueError`.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use numpy::{ndarray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use uno::game::Game as Engine;
use uno::{Action, GameRecord, Rules, RulesConfig, Seat};
use uno_bots::{Bot as EngineBot, BotSpec};
use uno_env::mapping::{decode, encode, legal_mask};
use uno_env::observe::write_observation;
use uno_env::{action, obs, Buffers, EnvConfig, VecEnv, MAX_SEATS};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A preset name, or the text of a rules file (TOML or JSON).
fn load_rules(rules: &str) -> PyResult<Arc<Rules>> {
    let trimmed = rules.trim();
    let parsed = if uno::PRESET_NAMES.contains(&trimmed) {
        Rules::preset(trimmed)
    } else if trimmed.contains('=') || trimmed.starts_with('{') {
        RulesConfig::parse(trimmed).and_then(Rules::new)
    } else {
        Rules::preset(trimmed)
    };
    parsed.map(Arc::new).map_err(value_error)
}

fn seat_arg(game: &Engine, seat: Option<usize>) -> PyResult<Seat> {
    match seat {
        None => Ok(game.current()),
        Some(s) if s < game.players() => Ok(Seat(s as u8)),
        Some(s) => Err(PyIndexError::new_err(format!("seat {s} is not at a table of {}", game.players()))),
    }
}

/// The environment's numpy arrays, allocated once and filled in place by every step.
struct Arrays {
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<i8>>,
    reward: Py<PyArray1<f32>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    seat: Py<PyArray1<i32>>,
    final_obs: Py<PyArray2<f32>>,
}

impl Arrays {
    fn new(py: Python<'_>, n: usize) -> Arrays {
        Arrays {
            obs: PyArray2::zeros(py, [n, obs::SIZE], false).unbind(),
            mask: PyArray2::zeros(py, [n, action::COUNT], false).unbind(),
            reward: PyArray1::zeros(py, n, false).unbind(),
            rewards: PyArray2::zeros(py, [n, MAX_SEATS], false).unbind(),
            terminated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            truncated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            seat: PyArray1::zeros(py, n, false).unbind(),
            final_obs: PyArray2::zeros(py, [n, obs::SIZE], false).unbind(),
        }
    }

    /// Borrows every array writable and hands them to `f` as the environment's buffers, with
    /// the GIL released (other Python threads run while the environments step).
    fn fill<R: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut Buffers<'_>) -> R + Send) -> PyResult<R> {
        let mut o = self.obs.bind(py).try_readwrite().map_err(value_error)?;
        let mut m = self.mask.bind(py).try_readwrite().map_err(value_error)?;
        let mut r = self.reward.bind(py).try_readwrite().map_err(value_error)?;
        let mut rs = self.rewards.bind(py).try_readwrite().map_err(value_error)?;
        let mut te = self.terminated.bind(py).try_readwrite().map_err(value_error)?;
        let mut tr = self.truncated.bind(py).try_readwrite().map_err(value_error)?;
        let mut s = self.seat.bind(py).try_readwrite().map_err(value_error)?;
        let mut f_o = self.final_obs.bind(py).try_readwrite().map_err(value_error)?;
        let mut buffers = Buffers {
            obs: o.as_slice_mut().map_err(value_error)?,
            mask: m.as_slice_mut().map_err(value_error)?,
            reward: r.as_slice_mut().map_err(value_error)?,
            rewards: rs.as_slice_mut().map_err(value_error)?,
            terminated: te.as_slice_mut().map_err(value_error)?,
            truncated: tr.as_slice_mut().map_err(value_error)?,
            seat: s.as_slice_mut().map_err(value_error)?,
            final_obs: f_o.as_slice_mut().map_err(value_error)?,
        };
        Ok(py.allow_threads(|| f(&mut buffers)))
    }
}

/// An observation vector and its action mask.
type ObsAndMask<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// `N` rounds of UNO stepped together; bots play inside, the arrays are filled in place.
///
/// Usable from any thread; a call made while another thread's call on the same object runs
/// raises `RuntimeError` (the object is borrowed), never a panic.
#[pyclass(module = "tabletop._core")]
struct UnoVecEnv {
    /// Behind a mutex so the object may move between threads (every `&mut self` method reaches
    /// it without locking, through `get_mut`).
    env: Mutex<VecEnv>,
    arrays: Arrays,
}

/// The default number of step threads: the cores available, but no more than one per 256
/// environments (fewer environments per thread cost more in scheduling than they save).
fn default_threads(num_envs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.min(num_envs.div_ceil(256)).max(1)
}

/// The actions of a step as an int64 array: any 1-D integer array or list is converted,
/// anything else is refused with a `TypeError` saying what was given.
fn int64_actions<'py>(actions: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray1<'py, i64>> {
    if let Ok(a) = actions.extract::<PyReadonlyArray1<'py, i64>>() {
        return Ok(a);
    }
    let np = actions.py().import("numpy")?;
    let array = np.call_method1("asarray", (actions,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if ndim != 1 || !(kind == "i" || kind == "u") {
        let dtype = array.getattr("dtype")?.str()?.to_string();
        let shape = array.getattr("shape")?.str()?.to_string();
        return Err(PyTypeError::new_err(format!(
            "actions must be a 1-D array or list of integers, one per environment; got {dtype} values of shape {shape}"
        )));
    }
    array.call_method1("astype", ("int64",))?.extract()
}

impl UnoVecEnv {
    fn env(&mut self) -> &mut VecEnv {
        self.env.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    fn env_ref(&self) -> MutexGuard<'_, VecEnv> {
        self.env.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl UnoVecEnv {
    #[new]
    #[pyo3(signature = (num_envs, rules = "official", players = 4, learner_seats = vec![0], opponents = vec!["random".to_string()], seed = None, max_actions = uno_env::DEFAULT_MAX_ACTIONS, auto_reset = true, num_threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        rules: &str,
        players: usize,
        learner_seats: Vec<usize>,
        opponents: Vec<String>,
        seed: Option<u64>,
        max_actions: u32,
        auto_reset: bool,
        num_threads: Option<usize>,
    ) -> PyResult<UnoVecEnv> {
        // Without a seed, one from the operating system's entropy (read it back as `seed`).
        let seed = match seed {
            Some(seed) => seed,
            None => py.import("secrets")?.call_method1("randbits", (64,))?.extract()?,
        };
        let rules = load_rules(rules)?;
        let learners = learner_seats
            .iter()
            .map(|&s| u8::try_from(s).map(Seat).map_err(|_| value_error(format!("no seat {s}"))))
            .collect::<PyResult<Vec<Seat>>>()?;
        let opponents =
            opponents.iter().map(|name| name.parse::<BotSpec>().map_err(value_error)).collect::<PyResult<Vec<_>>>()?;
        let config = EnvConfig { rules, players, learners, opponents, seed, max_actions, auto_reset };
        let mut env = VecEnv::new(num_envs, config).map_err(value_error)?;
        if num_threads == Some(0) {
            return Err(value_error("num_threads must be at least 1"));
        }
        env.set_threads(num_threads.unwrap_or_else(|| default_threads(num_envs))).map_err(value_error)?;
        Ok(UnoVecEnv { env: Mutex::new(env), arrays: Arrays::new(py, num_envs) })
    }

    /// Deals episode 0 of every environment (from `seed` when given) and fills the arrays.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        let env = self.env.get_mut().unwrap_or_else(PoisonError::into_inner);
        self.arrays.fill(py, |b| env.reset(seed, b))?.map_err(value_error)
    }

    /// Applies one action index per environment (any 1-D integer array or list), plays on,
    /// fills the arrays. The GIL is released while the environments step, on `num_threads`
    /// threads.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions = int64_actions(actions)?;
        let actions = actions.as_slice().map_err(value_error)?;
        let env = self.env.get_mut().unwrap_or_else(PoisonError::into_inner);
        self.arrays.fill(py, |b| env.step(actions, b))?.map_err(value_error)
    }

    /// Deals the next episode of environment `i` (for wrappers that do not auto-reset).
    fn reset_one(&mut self, py: Python<'_>, i: usize) -> PyResult<()> {
        if i >= self.env().len() {
            return Err(PyIndexError::new_err(format!("no environment {i}")));
        }
        self.env().reset_one(i);
        // Rewrite every row: cheap next to a Python call, and keeps one writer of the arrays.
        let env = self.env.get_mut().unwrap_or_else(PoisonError::into_inner);
        self.arrays.fill(py, |b| env.refresh(b))?.map_err(value_error)
    }

    /// Pickles and copies rebuild the batch: its configuration, and for every environment the
    /// episode it plays and the learner actions taken in it (replayed from the episode's seeds,
    /// bots included), then the arrays as they were.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, Vec<(u64, Vec<u8>)>, Vec<Bound<'py, PyAny>>))> {
        let env = self.env_ref();
        let config = env.config();
        let state = serde_json::json!({
            "num_envs": env.len(),
            "rules": config.rules.config(),
            "players": config.players,
            "learner_seats": config.learners.iter().map(|s| s.index()).collect::<Vec<_>>(),
            "opponents": config.opponents.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "seed": config.seed,
            "max_actions": config.max_actions,
            "auto_reset": config.auto_reset,
            "num_threads": env.threads(),
        });
        let a = &self.arrays;
        let arrays = vec![
            a.obs.bind(py).call_method0("copy")?,
            a.mask.bind(py).call_method0("copy")?,
            a.reward.bind(py).call_method0("copy")?,
            a.rewards.bind(py).call_method0("copy")?,
            a.terminated.bind(py).call_method0("copy")?,
            a.truncated.bind(py).call_method0("copy")?,
            a.seat.bind(py).call_method0("copy")?,
            a.final_obs.bind(py).call_method0("copy")?,
        ];
        let restore = py.get_type::<UnoVecEnv>().getattr("_restore")?;
        Ok((restore, (state.to_string(), env.snapshot(), arrays)))
    }

    /// Rebuilds a pickled batch (see `__reduce__`).
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        state: &str,
        snapshot: Vec<(u64, Vec<u8>)>,
        arrays: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<UnoVecEnv> {
        let v: serde_json::Value = serde_json::from_str(state).map_err(value_error)?;
        let field = |name: &str| v.get(name).ok_or_else(|| value_error(format!("pickled batch without '{name}'")));
        let num = |name: &str| field(name).and_then(|x| x.as_u64().ok_or_else(|| value_error(format!("bad '{name}'"))));
        let list = |name: &str| -> PyResult<Vec<serde_json::Value>> {
            field(name)?.as_array().cloned().ok_or_else(|| value_error(format!("bad '{name}'")))
        };
        let rules = field("rules")?.to_string();
        let learners = list("learner_seats")?.iter().filter_map(|x| x.as_u64()).map(|s| s as usize).collect();
        let opponents = list("opponents")?.iter().filter_map(|x| x.as_str().map(str::to_string)).collect();
        let max_actions = u32::try_from(num("max_actions")?).map_err(value_error)?;
        let auto_reset = field("auto_reset")?.as_bool().unwrap_or(true);
        let mut env = UnoVecEnv::new(
            py,
            num("num_envs")? as usize,
            &rules,
            num("players")? as usize,
            learners,
            opponents,
            Some(num("seed")?),
            max_actions,
            auto_reset,
            Some(num("num_threads")?.max(1) as usize),
        )?;
        let inner = env.env.get_mut().unwrap_or_else(PoisonError::into_inner);
        env.arrays.fill(py, |b| inner.restore(&snapshot, b))?.map_err(value_error)?;
        let a = &env.arrays;
        let targets = [
            a.obs.bind(py).as_any(),
            a.mask.bind(py).as_any(),
            a.reward.bind(py).as_any(),
            a.rewards.bind(py).as_any(),
            a.terminated.bind(py).as_any(),
            a.truncated.bind(py).as_any(),
            a.seat.bind(py).as_any(),
            a.final_obs.bind(py).as_any(),
        ];
        let np = py.import("numpy")?;
        for (target, source) in targets.iter().zip(&arrays) {
            np.call_method1("copyto", (target, source))?;
        }
        Ok(env)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env_ref().len()
    }
    /// The threads a step runs on.
    #[getter]
    fn num_threads(&self) -> usize {
        self.env_ref().threads()
    }
    #[getter]
    fn players(&self) -> usize {
        self.env_ref().config().players
    }
    /// The seed the environments' episodes derive from (the last `reset(seed)`'s, or the one
    /// the batch was built with).
    #[getter]
    fn seed(&self) -> u64 {
        self.env_ref().config().seed
    }
    /// Rows whose episode ended in the last step (`terminated | truncated`) hold here the
    /// observation of the seat that acted, at the state the episode ended in; other rows keep
    /// whatever they held.
    #[getter]
    fn final_obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.final_obs.bind(py).clone()
    }
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.obs.bind(py).clone()
    }
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.arrays.mask.bind(py).clone()
    }
    #[getter]
    fn reward<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.arrays.reward.bind(py).clone()
    }
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.rewards.bind(py).clone()
    }
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.arrays.terminated.bind(py).clone()
    }
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.arrays.truncated.bind(py).clone()
    }
    #[getter]
    fn seat<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.arrays.seat.bind(py).clone()
    }

    /// The episode environment `i` plays (0 for the first).
    fn episode(&self, i: usize) -> PyResult<u64> {
        self.env_ref().episode(i).ok_or_else(|| PyIndexError::new_err(format!("no environment {i}")))
    }

    /// Whether environment `i`'s acting seat decides in a reaction window.
    fn in_window(&self, i: usize) -> PyResult<bool> {
        let env = self.env_ref();
        if i >= env.len() {
            return Err(PyIndexError::new_err(format!("no environment {i}")));
        }
        Ok(env.acting(i).is_some_and(|(_, w)| w))
    }

    /// The observation and mask of any `seat` of environment `i` (not only the acting one), as
    /// new arrays; the mask is that of the seat's own turn or, with `window`, of a reaction window.
    #[pyo3(signature = (i, seat, window = false))]
    fn observe<'py>(&self, py: Python<'py>, i: usize, seat: usize, window: bool) -> PyResult<ObsAndMask<'py>> {
        let env = self.env_ref();
        let game = env.game(i).ok_or_else(|| PyIndexError::new_err(format!("no environment {i}")))?;
        let seat = seat_arg(game, Some(seat))?;
        let mut o = vec![0.0; obs::SIZE];
        let mut m = vec![0; action::COUNT];
        write_observation(game, seat, window, &mut o);
        legal_mask(game, seat, window, &mut Vec::new(), &mut m);
        Ok((PyArray1::from_vec(py, o), PyArray1::from_vec(py, m)))
    }

    /// A copy of the game environment `i` plays.
    fn game(&self, i: usize) -> PyResult<Game> {
        let env = self.env_ref();
        let game = env.game(i).ok_or_else(|| PyIndexError::new_err(format!("no environment {i}")))?;
        Ok(Game { game: game.clone(), record: None, fast: true })
    }
}

/// An engine observation taken at one moment (`Game.observation_snapshot`).
#[pyclass(module = "tabletop._core", frozen)]
struct Observation(uno::Observation);

#[pymethods]
impl Observation {
    /// The observation as JSON text, the same as `Game.observation_json` gave when it was taken.
    fn json(&self) -> PyResult<String> {
        serde_json::to_string(&self.0).map_err(value_error)
    }
}

/// One game of UNO on any rule set: apply actions, read legal actions and observations,
/// record and replay.
#[pyclass(module = "tabletop._core")]
#[derive(Clone)]
struct Game {
    game: Engine,
    /// How the game was dealt and every move since, when known (not for a copy of a vector
    /// environment's game): what `record()`, pickling and copies replay.
    record: Option<GameRecord>,
    /// Dealt by `Game::new_fast` (the vector environment's deal) rather than `Game::new`.
    fast: bool,
}

impl Game {
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
        Ok(Game { game, record: Some(record), fast })
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
        Ok((Game { game, record: None, fast: false }, card_indices(piles)))
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
        // The draws did not follow the generator: the record would not replay.
        self.record = None;
        Ok(card_indices(piles))
    }

    /// Rebuilds a pickled game: deals it as it was dealt and replays its moves.
    #[staticmethod]
    fn _restore(json: &str, fast: bool) -> PyResult<Game> {
        let record: GameRecord = serde_json::from_str(json).map_err(value_error)?;
        if !fast {
            let game = record.replay().map_err(value_error)?;
            return Ok(Game { game, record: Some(record), fast });
        }
        let rules = Rules::new(record.rules.clone()).map_err(value_error)?;
        let mut game = Engine::new_fast(rules, record.players, record.seed).map_err(value_error)?;
        for m in &record.actions {
            game.apply(m.seat, m.action).map_err(value_error)?;
        }
        Ok(Game { game, record: Some(record), fast })
    }

    /// Rebuilds a pickled game without a record from its position and its rules (JSON).
    #[staticmethod]
    fn _restore_position(position: &str, rules: &str) -> PyResult<Game> {
        let rules = RulesConfig::parse(rules).and_then(Rules::new).map_err(value_error)?;
        let pos: uno::Position = serde_json::from_str(position).map_err(value_error)?;
        let game = Engine::from_position(Arc::new(rules), &pos).map_err(value_error)?;
        Ok(Game { game, record: None, fast: false })
    }

    /// Pickles and copies: a recorded game replays its record; any other (a vector
    /// environment's, one with scripted draws) is rebuilt from its position, generator
    /// included, so it plays on exactly as the original.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, PyObject))> {
        let ty = py.get_type::<Game>();
        if let Some(record) = &self.record {
            let json = serde_json::to_string(record).map_err(value_error)?;
            return Ok((ty.getattr("_restore")?, (json, self.fast.into_pyobject(py)?.to_owned().into_any().unbind())));
        }
        let position = serde_json::to_string(&self.game.position()).map_err(value_error)?;
        let rules = serde_json::to_string(self.game.rules().config()).map_err(value_error)?;
        Ok((ty.getattr("_restore_position")?, (position, rules.into_pyobject(py)?.into_any().unbind())))
    }

    /// Replays a record (the JSON of `record()`, or of the CLI and the server).
    #[staticmethod]
    fn replay(json: &str) -> PyResult<Game> {
        let record: GameRecord = serde_json::from_str(json).map_err(value_error)?;
        let game = record.replay().map_err(value_error)?;
        Ok(Game { game, record: Some(record), fast: false })
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
        Ok(Game { game, record: Some(record), fast: false })
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
        legal_mask(&self.game, seat, window, &mut Vec::new(), &mut m);
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
        legal_mask(&self.game, seat, window, &mut Vec::new(), &mut mask);
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
        legal_mask(&self.game, seat, false, &mut Vec::new(), &mut mask);
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
        const ROW: [usize; 4] = [0, 3, 1, 2]; // red, yellow, green, blue → r, g, b, y
        let seat = seat_arg(&self.game, Some(seat))?;
        let mut counts = [[0u8; 15]; 4];
        for &card in self.game.hand(seat) {
            match card.color() {
                Some(c) => counts[ROW[c.index()]][card.face_index()] += 1,
                None => counts.iter_mut().for_each(|row| row[card.face_index()] += 1),
            }
        }
        let mut planes = ndarray::Array3::<i64>::zeros((4, 4, 15));
        for (r, row) in counts.iter().enumerate() {
            for (t, &n) in row.iter().enumerate() {
                planes[[usize::from(n.min(2)), r, t]] = 1;
            }
        }
        let top = self.game.top();
        match self.game.color() {
            Some(c) => planes[[3, ROW[c.index()], top.face_index()]] = 1,
            // A first-card Wild waiting for its colour: every row.
            None => (0..4).for_each(|r| planes[[3, r, top.face_index()]] = 1),
        }
        Ok(PyArray3::from_owned_array(py, planes))
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

/// One of the project's bots, named as the CLI names it; call it with a game to get its action.
#[pyclass(module = "tabletop._core")]
struct Bot {
    /// Behind a mutex so the bot may move between threads (reached through `get_mut`).
    bot: Mutex<Box<dyn EngineBot>>,
    name: String,
    spec: BotSpec,
    seed: u64,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name = "random", seed = 0))]
    fn new(name: &str, seed: u64) -> PyResult<Bot> {
        let spec: BotSpec = name.parse().map_err(value_error)?;
        Ok(Bot { bot: Mutex::new(spec.build(seed)), name: spec.to_string(), spec, seed })
    }

    /// The action this bot takes for `seat` (the player to act by default), as text.
    #[pyo3(signature = (game, seat = None))]
    fn __call__(&mut self, game: &Game, seat: Option<usize>) -> PyResult<String> {
        let seat = seat_arg(&game.game, seat)?;
        if game.game.legal_actions_for(seat).is_empty() {
            return Err(value_error(format!("seat {} has nothing to do", seat.index())));
        }
        let bot = self.bot.get_mut().unwrap_or_else(PoisonError::into_inner);
        Ok(bot.choose_view(&game.game.view(seat)).to_string())
    }

    /// The same decision as an index of the action space.
    #[pyo3(signature = (game, seat = None))]
    fn act_index(&mut self, game: &Game, seat: Option<usize>) -> PyResult<usize> {
        let text = self.__call__(game, seat)?;
        let seat = seat_arg(&game.game, seat)?;
        let action: Action = text.parse().map_err(value_error)?;
        encode(&game.game, seat, action).ok_or_else(|| value_error(format!("'{action}' has no index")))
    }

    fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.bot.get_mut().unwrap_or_else(PoisonError::into_inner).reseed(seed);
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Pickles and copies rebuild the bot from its name and its last seed (`Bot(name, seed)`
    /// or `reseed`): the copy is the bot as it was then, before the decisions since.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, u64))> {
        Ok((py.get_type::<Bot>().into_any(), (self.spec.to_string(), self.seed)))
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

/// The text of each card index (`colour × 13 + face`, then Wild and Wild Draw Four).
#[pyfunction]
fn card_names() -> Vec<String> {
    (0..uno_env::space::KINDS).filter_map(uno::Card::from_index).map(|c| c.to_string()).collect()
}

/// The name of each action index.
#[pyfunction]
fn action_names() -> Vec<String> {
    (0..action::COUNT).map(|i| uno_env::action_name(i).unwrap_or_default()).collect()
}

/// The deal seed of episode `episode` of environment `env` in a vector env seeded `seed`.
#[pyfunction]
fn episode_seed(seed: u64, env: u64, episode: u64) -> u64 {
    seeding::episode_seed(seed, env, episode)
}

/// The observation layout: block name → (offset, length).
#[pyfunction]
fn observation_layout() -> Vec<(&'static str, usize, usize)> {
    use uno_env::space::{COLORS, KINDS};
    vec![
        ("hand", obs::HAND, KINDS),
        ("top", obs::TOP, KINDS),
        ("color", obs::COLOR, COLORS),
        ("hand_sizes", obs::HAND_SIZES, MAX_SEATS),
        ("uno_called", obs::UNO_CALLED, MAX_SEATS),
        ("uno_exposed", obs::UNO_EXPOSED, MAX_SEATS),
        ("seated", obs::SEATED, MAX_SEATS),
        ("current", obs::CURRENT, MAX_SEATS),
        ("direction", obs::DIRECTION, 1),
        ("pending", obs::PENDING, 1),
        ("phase", obs::PHASE, obs::PHASES),
        ("role", obs::ROLE, 2),
        ("drawn", obs::DRAWN, KINDS),
        ("discard", obs::DISCARD, KINDS),
        ("draw_pile", obs::DRAW_PILE, 1),
    ]
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UnoVecEnv>()?;
    m.add_class::<Game>()?;
    m.add_class::<Observation>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(action_names, m)?)?;
    m.add_function(wrap_pyfunction!(card_names, m)?)?;
    m.add_function(wrap_pyfunction!(episode_seed, m)?)?;
    m.add_function(wrap_pyfunction!(observation_layout, m)?)?;
    m.add("OBS_SIZE", obs::SIZE)?;
    m.add("NUM_ACTIONS", action::COUNT)?;
    m.add("MAX_SEATS", MAX_SEATS)?;
    m.add("DECLINE", action::DECLINE)?;
    m.add("PRESET_NAMES", uno::PRESET_NAMES.to_vec())?;
    m.add("BOT_NAMES", uno_bots::BOT_NAMES.to_vec())?;
    Ok(())
}
