//! The learned network (`uno_nn`) that guides an [`IsmctsBot`](super::IsmctsBot)'s search when
//! its configuration asks for it (`net_prune`, `net_prior`): it scores the root's moves.

use std::sync::Arc;

use uno::{Action, Observation};

/// The learned network that guides a search, with its buffers.
pub(super) struct NetGuide {
    /// The shipped models and the table sizes each was trained at: the one of the table's
    /// size scores (as the `net` bot chooses it).
    nets: Arc<[Arc<uno_nn::QNet>]>,
    trained: Vec<Option<Vec<usize>>>,
    obs: Vec<f32>,
    indices: Vec<usize>,
    scored: Vec<(f32, Action)>,
    q: Vec<f32>,
}

impl NetGuide {
    pub(super) fn new() -> NetGuide {
        let nets = uno_nn::shipped_models();
        NetGuide {
            trained: nets.iter().map(|n| n.trained_seats()).collect(),
            nets,
            obs: vec![0.0; uno_nn::obs::SIZE],
            indices: Vec::new(),
            scored: Vec::new(),
            q: Vec::new(),
        }
    }

    /// Scores `moves` for `obs`'s seat; keeps in `moves` (in their order) only the `keep` best
    /// (0: all), and returns the best. Moves without an action index are kept and unscored.
    pub(super) fn rank(&mut self, obs: &Observation, moves: &mut Vec<Action>, keep: usize) -> Option<Action> {
        uno_nn::observe::write_owned_observation(obs, false, &mut self.obs);
        let seat = obs.viewer.unwrap_or(obs.current);
        self.indices.clear();
        self.scored.clear();
        for &a in moves.iter() {
            if let Some(i) = uno_nn::mapping::encode_at(obs.players, seat, a) {
                self.indices.push(i);
                self.scored.push((0.0, a));
            }
        }
        let model = uno_nn::trained_at(&self.trained, obs.players).unwrap_or(0);
        match self.nets.get(model) {
            Some(net) => net.q_values(&self.obs, &self.indices, &mut self.q),
            None => self.q = vec![0.0; self.indices.len()],
        }
        for (s, &q) in self.scored.iter_mut().zip(&self.q) {
            s.0 = q;
        }
        // Best first; equal scores keep the engine's order.
        self.scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let best = self.scored.first().map(|&(_, a)| a);
        if keep > 0 && self.scored.len() > keep {
            let cut = &self.scored[keep..];
            moves.retain(|a| !cut.iter().any(|&(_, c)| c == *a));
        }
        best
    }
}
