//! An engine observation handed to Python at one moment: what `Game.observation_snapshot` and the
//! RLCard state give.

use pyo3::prelude::*;

use crate::value_error;

/// An engine observation taken at one moment (`Game.observation_snapshot`).
#[pyclass(module = "tabletop._core", frozen)]
pub(crate) struct Observation(pub(crate) uno::Observation);

#[pymethods]
impl Observation {
    /// The observation as JSON text, the same as `Game.observation_json` gave when it was taken.
    fn json(&self) -> PyResult<String> {
        serde_json::to_string(&self.0).map_err(value_error)
    }
}
