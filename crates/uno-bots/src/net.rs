//! `net`: the learned Q network of `training/` alone (`docs/model.md`), no search.
//!
//! On each turn it writes its seat's observation from the view it is given (`uno_nn::observe`,
//! the same vector the batched environment and the trainer use), scores every legal action with
//! the network and plays the best. It decides only from its view, and only among the legal
//! actions it is given; an action the encoding has no index for (none the engine lists during a
//! round) is never chosen unless nothing else is legal.
//!
//! Two rules are not the network's: it calls UNO whenever it may, and catches a player who did
//! not whenever it may (as `heuristic` does, and as `flat`, its teacher, does without search:
//! neither is ever worse than not doing it). Without the first, the Deep Monte-Carlo model
//! (trained where a late call was still possible) won 1.5% against three `heuristic` bots
//! (`docs/model.md`); the distilled model never decides either (`flat` does not search them).
//!
//! It plays the model trained at its table's size: the shipped four-seat model, or the one of the
//! other sizes (two, three, five and six seats; [`uno_nn::shipped_models`]). A third rule holds at
//! table sizes no model was trained at ([`QNet::trained_seats`]): there it does not draw or pass
//! when it can play a card, and the network chooses the rest. Its values there are out of range
//! (the four-seat model rates every action near a certain loss at six seats), and drawing won on
//! noise: at two, five and six seats it drew instead of playing at about 40% of the turns it
//! could play, and six of ten rounds of six `net` bots passed 3,000 actions.

use std::sync::Arc;

use uno::game::View;
use uno::{Action, Observation, Seat};
use uno_nn::mapping::encode_at;
use uno_nn::observe::{write_owned_observation, write_view_observation};
use uno_nn::{obs, QNet};

use crate::Bot;

/// The network bot; every copy of a shipped model shares one set of weights.
pub struct NetBot {
    /// The models it may play, the default first ([`uno_nn::trained_at`] chooses by table size).
    nets: Arc<[Arc<QNet>]>,
    /// Each model's table sizes (none: it does not say, trusted everywhere).
    trained: Vec<Option<Vec<usize>>>,
    obs: Vec<f32>,
    legal: Vec<Action>,
    indices: Vec<usize>,
    candidates: Vec<Action>,
    q: Vec<f32>,
}

impl NetBot {
    /// The bot over the shipped models (`uno_nn::shipped_models`).
    pub fn new() -> NetBot {
        NetBot::with_nets(uno_nn::shipped_models())
    }

    /// The bot over any model, at every table size.
    pub fn with_net(net: Arc<QNet>) -> NetBot {
        NetBot::with_nets(Arc::from([net]))
    }

    /// The bot over a list of models: at each table size the first trained at it, else the
    /// first (with the rule for sizes no model learned).
    pub fn with_nets(nets: Arc<[Arc<QNet>]>) -> NetBot {
        NetBot {
            trained: nets.iter().map(|n| n.trained_seats()).collect(),
            nets,
            obs: vec![0.0; obs::SIZE],
            legal: Vec::with_capacity(64),
            indices: Vec::with_capacity(64),
            candidates: Vec::with_capacity(64),
            q: Vec::with_capacity(64),
        }
    }

    /// Each legal action that has an index, with its Q value, in the engine's listing order (a
    /// draw or a pass it would not choose, outside its table sizes, scores −∞).
    pub fn scores(&mut self, view: &View<'_>) -> Vec<(Action, f32)> {
        view.legal_actions_into(&mut self.legal);
        write_view_observation(view, false, &mut self.obs);
        self.score(view.players(), view.seat());
        self.candidates.iter().copied().zip(self.q.iter().copied()).collect()
    }

    /// Scores `self.legal` for the observation in `self.obs`.
    fn score(&mut self, players: usize, seat: Seat) {
        self.indices.clear();
        self.candidates.clear();
        for &action in &self.legal {
            if let Some(i) = encode_at(players, seat, action) {
                self.indices.push(i);
                self.candidates.push(action);
            }
        }
        let model = uno_nn::trained_at(&self.trained, players);
        let Some(net) = self.nets.get(model.unwrap_or(0)) else {
            self.q.clear();
            self.q.resize(self.candidates.len(), 0.0);
            return;
        };
        net.q_values(&self.obs, &self.indices, &mut self.q);
        if model.is_none() && self.candidates.iter().any(|a| matches!(a, Action::Play { .. })) {
            // Outside its table sizes it does not draw or pass when it can play (module doc).
            for (q, a) in self.q.iter_mut().zip(&self.candidates) {
                if matches!(a, Action::Draw | Action::Pass) {
                    *q = f32::NEG_INFINITY;
                }
            }
        }
    }

    /// Its own UNO call when it may make one, else a catch of a player who did not call, else
    /// the best scored action (the first of equals), else the first legal one.
    fn best(&self) -> Action {
        if self.candidates.contains(&Action::CallUno) {
            return Action::CallUno;
        }
        if let Some(&catch) = self.candidates.iter().find(|a| matches!(a, Action::CatchUno { .. })) {
            return catch;
        }
        let mut best: Option<(usize, f32)> = None;
        for (i, &q) in self.q.iter().enumerate() {
            if best.is_none_or(|(_, b)| q > b) {
                best = Some((i, q));
            }
        }
        match best {
            Some((i, _)) => self.candidates[i],
            None => self.legal.first().copied().unwrap_or(Action::Draw),
        }
    }
}

impl Default for NetBot {
    fn default() -> Self {
        NetBot::new()
    }
}

impl Bot for NetBot {
    fn name(&self) -> &str {
        "net"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        self.legal.clone_from(&obs.legal_actions);
        write_owned_observation(obs, false, &mut self.obs);
        self.score(obs.players, obs.viewer.unwrap_or(Seat(0)));
        self.best()
    }

    fn choose_view(&mut self, view: &View<'_>) -> Action {
        view.legal_actions_into(&mut self.legal);
        write_view_observation(view, false, &mut self.obs);
        self.score(view.players(), view.seat());
        self.best()
    }
}
