//! The Q network of `training/` (Deep Monte-Carlo, `docs/model.md`), run by hand: a multilayer
//! perceptron with ReLU between dense layers, read from a safetensors file.
//!
//! `Q(s, a) = MLP([obs(s) * input_scale, action_features[a]])` estimates the acting seat's round
//! reward (+1 win, -1 loss) after action index `a`. The file holds every tensor this needs, so
//! the features of an action are stated once, by the trainer:
//!
//! * `input_scale` (`obs::SIZE`), `action_features` (`action::COUNT × F`);
//! * `layers.{k}.weight` (`out × in`, row-major) and `layers.{k}.bias` (`out`), the last layer
//!   with one output.
//!
//! The safetensors format is read by hand (an 8-byte little-endian header length, a JSON header,
//! raw little-endian data); only `F32` tensors are taken. The first layer is split: its
//! observation part runs once per decision, its action part is a table computed at load time,
//! so each candidate action costs only the layers after the first.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::space::{action, obs};

/// Why a model file was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    #[error("the file is too short for a safetensors header")]
    Truncated,
    #[error("the safetensors header is not valid JSON: {0}")]
    Header(String),
    #[error("tensor '{name}': {why}")]
    Tensor { name: String, why: String },
    #[error("tensor '{0}' is missing")]
    Missing(String),
    #[error("layer {layer}: {why}")]
    Shape { layer: usize, why: String },
    #[error("not a {expected} model file (its format is {found})")]
    Format { expected: &'static str, found: String },
    #[error(
        "the model was trained on observation layout {found}, this build observes layout {expected}: retrain it or use the build it was made for"
    )]
    ObsLayout { expected: u32, found: String },
}

/// The `format` a Q model file's metadata names (the trailing number is the format's version).
pub const FORMAT: &str = "tabletop-uno-dmc-1";

/// Refuses a file whose metadata names another format than `format`, or another observation
/// layout than [`obs::LAYOUT_VERSION`] (or none): its numbers would mean other things here.
///
/// # Errors
/// [`ModelError::Format`], [`ModelError::ObsLayout`].
pub fn check_versions(metadata: &BTreeMap<String, String>, format: &'static str) -> Result<(), ModelError> {
    let found = |key: &str| metadata.get(key).cloned().unwrap_or_else(|| "not stated".to_string());
    if metadata.get("format").map(String::as_str) != Some(format) {
        return Err(ModelError::Format { expected: format, found: found("format") });
    }
    if metadata.get("obs_layout") != Some(&obs::LAYOUT_VERSION.to_string()) {
        return Err(ModelError::ObsLayout { expected: obs::LAYOUT_VERSION, found: found("obs_layout") });
    }
    Ok(())
}

/// One tensor: its shape and values.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}

/// A file's tensors by name, and its `__metadata__` strings.
pub type SafeTensors = (BTreeMap<String, Tensor>, BTreeMap<String, String>);

/// Reads every `F32` tensor of a safetensors file, and its `__metadata__` strings.
///
/// # Errors
/// A short file, a header that is not JSON, a tensor of another dtype, offsets outside the
/// data or a shape that does not match its bytes.
pub fn read_safetensors(bytes: &[u8]) -> Result<SafeTensors, ModelError> {
    let len_bytes: [u8; 8] = bytes.get(..8).and_then(|b| b.try_into().ok()).ok_or(ModelError::Truncated)?;
    let header_len = usize::try_from(u64::from_le_bytes(len_bytes)).map_err(|_| ModelError::Truncated)?;
    let header = bytes.get(8..8usize.saturating_add(header_len)).ok_or(ModelError::Truncated)?;
    let data = &bytes[8 + header_len..];
    let header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(header).map_err(|e| ModelError::Header(e.to_string()))?;
    let mut tensors = BTreeMap::new();
    let mut metadata = BTreeMap::new();
    for (name, info) in header {
        let bad = |why: &str| ModelError::Tensor { name: name.clone(), why: why.to_string() };
        if name == "__metadata__" {
            for (k, v) in info.as_object().into_iter().flatten() {
                metadata.insert(k.clone(), v.as_str().unwrap_or_default().to_string());
            }
            continue;
        }
        if info.get("dtype").and_then(|d| d.as_str()) != Some("F32") {
            return Err(bad("only F32 tensors are read"));
        }
        let numbers = |key: &str| -> Result<Vec<usize>, ModelError> {
            info.get(key)
                .and_then(|v| v.as_array())
                .ok_or_else(|| bad(&format!("no {key}")))?
                .iter()
                .map(|n| n.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| bad(&format!("bad {key}"))))
                .collect()
        };
        let shape = numbers("shape")?;
        let offsets = numbers("data_offsets")?;
        let [start, end] = offsets[..] else { return Err(bad("data_offsets must hold two numbers")) };
        let raw = data.get(start..end).filter(|_| start <= end).ok_or_else(|| bad("data_offsets outside the data"))?;
        let count: usize = shape.iter().product();
        if raw.len() != count * 4 {
            return Err(bad("shape does not match the bytes"));
        }
        let values = raw.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        tensors.insert(name, Tensor { shape, data: values });
    }
    Ok((tensors, metadata))
}

/// A dense layer: `out × inputs` weights, row-major.
#[derive(Clone, Debug)]
struct Dense {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    /// `out = W x + b`, then ReLU when `relu`.
    fn apply(&self, x: &[f32], out: &mut Vec<f32>, relu: bool) {
        out.clear();
        for (row, &b) in self.weight.chunks_exact(self.inputs).zip(&self.bias) {
            let v = row.iter().zip(x).map(|(w, x)| w * x).sum::<f32>() + b;
            out.push(if relu { v.max(0.0) } else { v });
        }
    }
}

/// The Q network, ready to score the actions of one decision.
#[derive(Clone, Debug)]
pub struct QNet {
    scale: Vec<f32>,
    /// The first layer's observation columns, `hidden × obs::SIZE`.
    first_obs: Dense,
    /// The first layer's action part for each action index, `action::COUNT × hidden`.
    first_action: Vec<f32>,
    rest: Vec<Dense>,
    metadata: BTreeMap<String, String>,
}

impl QNet {
    /// Reads a model file written by `training/netlib.py`.
    ///
    /// # Errors
    /// A file [`read_safetensors`] refuses, another format or observation layout
    /// ([`check_versions`]), a missing tensor, or shapes that do not chain (observation size,
    /// action count, layer sizes, one output).
    pub fn from_safetensors(bytes: &[u8]) -> Result<QNet, ModelError> {
        let (mut tensors, metadata) = read_safetensors(bytes)?;
        check_versions(&metadata, FORMAT)?;
        let mut take = |name: &str| tensors.remove(name).ok_or_else(|| ModelError::Missing(name.to_string()));
        let scale = take("input_scale")?;
        let features = take("action_features")?;
        let mut layers = Vec::new();
        while let (Ok(w), Ok(b)) =
            (take(&format!("layers.{}.weight", layers.len())), take(&format!("layers.{}.bias", layers.len())))
        {
            layers.push((w, b));
        }
        let shape = |layer: usize, why: String| ModelError::Shape { layer, why };
        if scale.shape != [obs::SIZE] {
            return Err(shape(0, format!("input_scale has shape {:?}, expected [{}]", scale.shape, obs::SIZE)));
        }
        let [actions, feature_len] = features.shape[..] else {
            return Err(shape(0, "action_features must be a matrix".into()));
        };
        if actions != action::COUNT {
            return Err(shape(0, format!("action_features has {actions} rows, expected {}", action::COUNT)));
        }
        let mut dense = Vec::with_capacity(layers.len());
        let mut inputs = obs::SIZE + feature_len;
        for (k, (w, b)) in layers.into_iter().enumerate() {
            let [outputs, cols] = w.shape[..] else { return Err(shape(k, "weight must be a matrix".into())) };
            if cols != inputs || b.shape != [outputs] {
                return Err(shape(k, format!("weight {:?} and bias {:?} after {inputs} inputs", w.shape, b.shape)));
            }
            dense.push(Dense { inputs, outputs, weight: w.data, bias: b.data });
            inputs = outputs;
        }
        if dense.is_empty() || inputs != 1 {
            return Err(shape(dense.len(), "the network needs at least one layer and ends in one output".into()));
        }
        let first = dense.remove(0);
        let hidden = first.outputs;
        let mut first_obs = Dense { inputs: obs::SIZE, outputs: hidden, weight: Vec::new(), bias: first.bias };
        let mut first_action = vec![0.0; action::COUNT * hidden];
        for (j, row) in first.weight.chunks_exact(first.inputs).enumerate() {
            first_obs.weight.extend_from_slice(&row[..obs::SIZE]);
            for (a, feats) in features.data.chunks_exact(feature_len).enumerate() {
                first_action[a * hidden + j] = row[obs::SIZE..].iter().zip(feats).map(|(w, f)| w * f).sum();
            }
        }
        Ok(QNet { scale: scale.data, first_obs, first_action, rest: dense, metadata })
    }

    /// The file's `__metadata__` (training seed, updates, …).
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }

    /// The table sizes the model was trained at (its file's `seats` entry, e.g. `"4"` or
    /// `"2,3,4"`), or `None` when the file does not say. Elsewhere its values are out of the range
    /// it learned: the shipped model, trained at four seats, rates every action near a certain
    /// loss at six, and its best there is drawing rather than playing.
    pub fn trained_seats(&self) -> Option<Vec<usize>> {
        let list = self.metadata.get("seats")?;
        list.split(',').map(|n| n.trim().parse().ok()).collect()
    }

    /// Learned parameters (weights and biases).
    pub fn parameters(&self) -> usize {
        let first = self.first_obs.weight.len() + self.first_obs.bias.len();
        first + self.rest.iter().map(|d| d.weight.len() + d.bias.len()).sum::<usize>()
    }

    /// Q of each action index in `actions` (each below `action::COUNT`) for observation `obs`
    /// (length `obs::SIZE`), written to `out` in the same order.
    ///
    /// # Panics
    /// An observation of another length or an action index out of range (callers pass
    /// [`crate::observe`]'s vectors and [`crate::mapping`]'s indices).
    pub fn q_values(&self, observation: &[f32], actions: &[usize], out: &mut Vec<f32>) {
        assert_eq!(observation.len(), obs::SIZE, "an observation has obs::SIZE entries");
        let scaled: Vec<f32> = observation.iter().zip(&self.scale).map(|(x, s)| x * s).collect();
        let mut base = Vec::with_capacity(self.first_obs.outputs);
        self.first_obs.apply(&scaled, &mut base, false);
        let hidden = self.first_obs.outputs;
        let (mut x, mut y) = (Vec::with_capacity(hidden), Vec::with_capacity(hidden));
        out.clear();
        for &a in actions {
            let part = &self.first_action[a * hidden..(a + 1) * hidden];
            x.clear();
            x.extend(base.iter().zip(part).map(|(b, p)| (b + p).max(0.0)));
            for (k, layer) in self.rest.iter().enumerate() {
                layer.apply(&x, &mut y, k + 1 < self.rest.len());
                std::mem::swap(&mut x, &mut y);
            }
            out.push(x[0]);
        }
    }
}
