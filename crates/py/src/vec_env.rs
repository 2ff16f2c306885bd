//! The batched environment: `N` rounds stepped together on a thread pool, numpy arrays filled
//! in place.

use std::sync::{Mutex, MutexGuard, PoisonError};

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use uno::Seat;
use uno_bots::BotSpec;
use uno_env::mapping::legal_mask;
use uno_env::observe::write_observation;
use uno_env::{action, obs, Buffers, EnvConfig, Progress, VecEnv, MAX_SEATS};

use crate::game::Game;
use crate::{load_rules, seat_arg, value_error, ObsAndMask};

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

/// `N` rounds of UNO stepped together; bots play inside, the arrays are filled in place.
///
/// Usable from any thread; a call made while another thread's call on the same object runs
/// raises `RuntimeError` (the object is borrowed), never a panic.
#[pyclass(module = "tabletop._core")]
pub(crate) struct UnoVecEnv {
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
    #[pyo3(signature = (num_envs, rules = "official", players = 4, learner_seats = vec![0], opponents = vec!["random".to_string()], seed = None, max_actions = uno_env::DEFAULT_MAX_ACTIONS, max_stall = Some(uno_env::DEFAULT_MAX_STALL), auto_reset = true, num_threads = None))]
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
        max_stall: Option<u32>,
        auto_reset: bool,
        num_threads: Option<usize>,
    ) -> PyResult<UnoVecEnv> {
        // `None`: no stall bound (only `max_actions` cuts an episode).
        let max_stall = max_stall.unwrap_or(u32::MAX);
        // Without a seed, one from the operating system's entropy (read it back as `seed`).
        let seed = match seed {
            Some(seed) => seed,
            None => py.import("secrets")?.call_method1("randbits", (64,))?.extract()?,
        };
        let rules = load_rules(rules)?;
        let learners = learner_seats
            .iter()
            .map(|&s| Seat::from_index(s).ok_or_else(|| value_error(format!("no seat {s}"))))
            .collect::<PyResult<Vec<Seat>>>()?;
        let opponents =
            opponents.iter().map(|name| name.parse::<BotSpec>().map_err(value_error)).collect::<PyResult<Vec<_>>>()?;
        let config = EnvConfig { rules, players, learners, opponents, seed, max_actions, max_stall, auto_reset };
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
        // A strided view (every other entry of a larger array) has no slice: copy it.
        let copied: Vec<i64>;
        let actions = match actions.as_slice() {
            Ok(slice) => slice,
            Err(_) => {
                copied = actions.as_array().to_vec();
                &copied
            }
        };
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
            "max_stall": config.max_stall,
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
        let max_stall = u32::try_from(num("max_stall")?).map_err(value_error)?;
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
            Some(max_stall),
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
    /// Engine actions after which an episode is truncated.
    #[getter]
    fn max_actions(&self) -> u32 {
        self.env_ref().config().max_actions
    }
    /// Engine actions without progress (no hand got smaller than it had been this round)
    /// after which an episode is truncated; `None`: no such bound.
    #[getter]
    fn max_stall(&self) -> Option<u32> {
        Some(self.env_ref().config().max_stall).filter(|&s| s != u32::MAX)
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
        legal_mask(game, seat, window, &mut m);
        Ok((PyArray1::from_vec(py, o), PyArray1::from_vec(py, m)))
    }

    /// A copy of the game environment `i` plays.
    fn game(&self, i: usize) -> PyResult<Game> {
        let env = self.env_ref();
        let game = env.game(i).ok_or_else(|| PyIndexError::new_err(format!("no environment {i}")))?;
        let progress = env.progress(i).unwrap_or_else(|| Progress::start(game));
        Ok(Game { game: game.clone(), record: None, fast: true, progress })
    }
}
