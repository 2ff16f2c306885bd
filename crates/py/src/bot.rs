//! The project's bots, named as the CLI names them.

use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use uno::Action;
use uno_bots::{Bot as EngineBot, BotSpec};
use uno_env::mapping::encode;

use crate::game::Game;
use crate::{seat_arg, value_error};

/// One of the project's bots, named as the CLI names it; call it with a game to get its action.
#[pyclass(module = "tabletop._core")]
pub(crate) struct Bot {
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
