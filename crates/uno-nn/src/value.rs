//! The value network of `training/train_value.py`: `V(obs) = sigmoid(MLP(obs * input_scale))`,
//! the chance that the observing seat wins the round, from what that seat may know.
//!
//! The file holds `input_scale` (`obs::SIZE`) and `layers.{k}.weight` (`out × in`, row-major) /
//! `layers.{k}.bias`, ReLU between the layers and one logit at the end; its `__metadata__`
//! says `format = tabletop-uno-value-1`. The card is `docs/model.md` ("The value network").
//!
//! The first layer is kept by input column, so that an observation (mostly zeros) costs one
//! column per non-zero entry, and so that a caller may change one entry of an observation it
//! has already run ([`ValueNet::add_input`]) and finish it ([`ValueNet::finish`]) without
//! running the whole first layer again: how the lab values every card a draw could have taken.
//!
//! A file may also take the other seats' hands (a *full-state* value, for the lab, which sees
//! every hand): its `input_scale` then has `obs::SIZE + 54 k` entries, the hands of the seats
//! 1..=k places after the viewer as counts by card kind ([`ValueNet::other_hands`]).
//!
//! [`ValueNet::table`] is the lab's view: each seat's value, normalised over the table so that
//! the chances sum to one.

use std::collections::BTreeMap;

use uno::{Card, Game, Seat};

use crate::model::{read_safetensors, ModelError};
use crate::space::obs;

/// The `format` a value file's metadata names.
pub const FORMAT: &str = "tabletop-uno-value-1";

/// A dense layer after the first: `out × inputs` weights, row-major.
#[derive(Clone, Debug)]
struct Dense {
    inputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// The value network, ready to run.
#[derive(Clone, Debug)]
pub struct ValueNet {
    /// Inputs: `obs::SIZE`, then `54` per other hand seen.
    inputs: usize,
    /// The first layer's weights by input, each column pre-multiplied by its input scale:
    /// `inputs × hidden`.
    columns: Vec<f32>,
    first_bias: Vec<f32>,
    rest: Vec<Dense>,
    metadata: BTreeMap<String, String>,
}

impl ValueNet {
    /// Reads a value file written by `training/train_value.py`.
    ///
    /// # Errors
    /// A file `read_safetensors` refuses, another format or observation layout
    /// (`model::check_versions`), a missing tensor, or shapes that do not chain from
    /// `obs::SIZE` inputs to one output.
    pub fn from_safetensors(bytes: &[u8]) -> Result<ValueNet, ModelError> {
        let (mut tensors, metadata) = read_safetensors(bytes)?;
        crate::model::check_versions(&metadata, FORMAT)?;
        let mut take = |name: &str| tensors.remove(name).ok_or_else(|| ModelError::Missing(name.to_string()));
        let scale = take("input_scale")?;
        let shape = |layer: usize, why: String| ModelError::Shape { layer, why };
        let inputs = match scale.shape[..] {
            [n] if n >= obs::SIZE && (n - obs::SIZE).is_multiple_of(Card::KINDS) => n,
            _ => {
                return Err(shape(
                    0,
                    format!("input_scale has shape {:?}, expected [{} + 54 k]", scale.shape, obs::SIZE),
                ))
            }
        };
        let width = inputs;
        let mut layers = Vec::new();
        while let (Ok(w), Ok(b)) =
            (take(&format!("layers.{}.weight", layers.len())), take(&format!("layers.{}.bias", layers.len())))
        {
            layers.push((w, b));
        }
        let mut dense = Vec::with_capacity(layers.len());
        let mut inputs = width;
        for (k, (w, b)) in layers.into_iter().enumerate() {
            let [outputs, cols] = w.shape[..] else { return Err(shape(k, "weight must be a matrix".into())) };
            if cols != inputs || b.shape != [outputs] {
                return Err(shape(k, format!("weight {:?} and bias {:?} after {inputs} inputs", w.shape, b.shape)));
            }
            dense.push(Dense { inputs, weight: w.data, bias: b.data });
            inputs = outputs;
        }
        if dense.len() < 2 || inputs != 1 {
            return Err(shape(dense.len(), "the network needs at least two layers and ends in one output".into()));
        }
        let first = dense.remove(0);
        let hidden = first.bias.len();
        let mut columns = vec![0.0; width * hidden];
        for (j, row) in first.weight.chunks_exact(width).enumerate() {
            for (i, (&w, &s)) in row.iter().zip(&scale.data).enumerate() {
                columns[i * hidden + j] = w * s;
            }
        }
        Ok(ValueNet { inputs: width, columns, first_bias: first.bias, rest: dense, metadata })
    }

    /// The file's `__metadata__` (seed, epochs, …).
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }

    /// Learned parameters (weights and biases).
    pub fn parameters(&self) -> usize {
        self.columns.len()
            + self.first_bias.len()
            + self.rest.iter().map(|d| d.weight.len() + d.bias.len()).sum::<usize>()
    }

    /// The input's length: `obs::SIZE`, then 54 per other hand.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// How many other seats' hands the network reads (0: the seat's observation alone).
    pub fn other_hands(&self) -> usize {
        (self.inputs - obs::SIZE) / Card::KINDS
    }

    /// Where the hand of the seat `offset` places after the viewer starts in the input, if the
    /// network reads it.
    pub fn other_hand(&self, offset: usize) -> Option<usize> {
        (1..=self.other_hands()).contains(&offset).then(|| obs::SIZE + (offset - 1) * Card::KINDS)
    }

    /// Writes the input of `seat` as the lab sees it: its observation, then the other hands the
    /// network reads.
    pub fn write_input(&self, game: &Game, seat: Seat, out: &mut Vec<f32>) {
        out.clear();
        out.resize(self.inputs, 0.0);
        crate::observe::write_observation(game, seat, false, &mut out[..obs::SIZE]);
        let players = game.players();
        for k in 1..players {
            if let Some(at) = self.other_hand(k) {
                for card in game.hand(seat.step(uno::Direction::Clockwise, players, k)) {
                    out[at + card.index()] += 1.0;
                }
            }
        }
    }

    /// The first layer's width.
    pub fn hidden(&self) -> usize {
        self.first_bias.len()
    }

    /// The first layer before its ReLU, for an input of length [`ValueNet::inputs`].
    ///
    /// # Panics
    /// An input of another length.
    pub fn first_layer(&self, observation: &[f32], out: &mut Vec<f32>) {
        assert_eq!(observation.len(), self.inputs, "an input has ValueNet::inputs entries");
        out.clear();
        out.extend_from_slice(&self.first_bias);
        for (i, &x) in observation.iter().enumerate() {
            if x != 0.0 {
                self.add_input(out, i, x);
            }
        }
    }

    /// Adds `amount` to input `index` of an observation whose first layer is `hidden`.
    pub fn add_input(&self, hidden: &mut [f32], index: usize, amount: f32) {
        let n = self.first_bias.len();
        for (h, &w) in hidden.iter_mut().zip(&self.columns[index * n..(index + 1) * n]) {
            *h += amount * w;
        }
    }

    /// The win chance from a first layer ([`ValueNet::first_layer`]).
    pub fn finish(&self, hidden: &[f32]) -> f32 {
        let mut x: Vec<f32> = hidden.iter().map(|h| h.max(0.0)).collect();
        let mut y = Vec::with_capacity(x.len());
        for (k, layer) in self.rest.iter().enumerate() {
            y.clear();
            for (row, &b) in layer.weight.chunks_exact(layer.inputs).zip(&layer.bias) {
                let v = row.iter().zip(&x).map(|(w, x)| w * x).sum::<f32>() + b;
                y.push(if k + 1 < self.rest.len() { v.max(0.0) } else { v });
            }
            std::mem::swap(&mut x, &mut y);
        }
        1.0 / (1.0 + (-x[0]).exp())
    }

    /// The chance the observing seat wins the round, from its input.
    pub fn win_chance(&self, observation: &[f32]) -> f32 {
        let mut hidden = Vec::with_capacity(self.hidden());
        self.first_layer(observation, &mut hidden);
        self.finish(&hidden)
    }

    /// Every seat's chance of winning the round as the lab sees it: each seat's own value,
    /// normalised so that the table's chances sum to one (uniform if every value is zero).
    pub fn table(&self, game: &Game, out: &mut Vec<f64>) {
        let mut vector = Vec::with_capacity(self.inputs);
        out.clear();
        for s in Seat::all(game.players()) {
            self.write_input(game, s, &mut vector);
            out.push(f64::from(self.win_chance(&vector)));
        }
        normalise(out);
    }
}

/// Scales `values` to sum to one (uniform when they sum to zero).
pub fn normalise(values: &mut [f64]) {
    let total: f64 = values.iter().sum();
    let n = values.len().max(1) as f64;
    for v in values.iter_mut() {
        *v = if total > 0.0 { *v / total } else { 1.0 / n };
    }
}
