//! `ismcts`: single-observer information-set Monte Carlo tree search (Cowling, Powley and
//! Whitehouse 2012, "Information Set Monte Carlo Tree Search", algorithm SO-ISMCTS).
//!
//! Each iteration deals one world the observation allows ([`uno::sample::Sampler`]: the unseen
//! cards shuffled into the other hands and the draw pile), walks one tree shared by all the
//! worlds from the root down, and plays the round out:
//!
//! * **selection**: at a node where every move legal in this world already has a child, take
//!   the child with the best UCB1 score `wins / visits + c * sqrt(ln(availability) / visits)`,
//!   where a child's availability counts the iterations in which its move was legal (moves of
//!   other seats depend on their hidden cards, so they are not always there);
//! * **expansion**: otherwise add one untried legal move, at random;
//! * **playout**: by default the fast random policy ([`RandomBot`], the simulation's) on the
//!   sampled game's [`SimRng`], through `apply_unchecked`, to the end of the round;
//! * **backpropagation**: every node on the path counts a visit and, for the seat that made
//!   its move, a win when that seat won the round (a share of a draw when nobody did).
//!
//! The tree holds every seat's moves, each chosen for that seat's own wins. Calling UNO for
//! oneself and catching a player who did not are never worse than not doing so, so they are
//! played without search, in the tree and at the root. The move played is the root child
//! visited most.
//!
//! The worlds are not dealt uniformly: the bot remembers, over a round, what the other seats'
//! public moves revealed (the `infer` module: a seat that drew had nothing playable, a seat
//! that played a wild from its hand had nothing else) and keeps those card kinds out of their
//! hands ([`Sampler::set_beliefs`]).
//!
//! Two options change the model of the other players: [`Playout::Heuristic`] plays the rounds
//! out with the `heuristic` bot's rules, and `search_opponents: false` lets that policy, not
//! the tree, choose the other seats' moves. Neither measured significantly stronger against
//! `heuristic` opponents in the tree (see `docs/bots.md`). `flat` searches no tree (the `flat`
//! module); with heuristic playouts and worlds fitted to the others' plays
//! ([`IsmctsConfig::flat_model`], the `flat` bot) it measured best against `heuristic`
//! bots, though short of the 31% asked.
//!
//! The budget is a number of iterations (reproducible: the same seed and observations give the
//! same moves) and, optionally, a wall-clock limit that stops the search earlier (not
//! reproducible; not for simulations).
//!
//! The search reads the rules from the observation (or the view), which carries them.

mod config;
mod dealt;
mod flat;
mod guide;
mod infer;
mod particles;
mod plays;
mod stop;

use std::sync::Arc;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use uno::game::{SimRng, View};
use uno::sample::Sampler;
use uno::{Action, Card, Game, Observation, Phase, Rules, Seat, TURN_DECISIONS};

use crate::any_view::AnyViewExt;
use crate::heuristic::{self, HeuristicConfig, HeuristicTurn};
use crate::{Bot, RandomBot};

pub use config::{IsmctsConfig, Playout, FLAT_ITERATIONS};
use dealt::Dealt;
use guide::NetGuide;

const NONE: u32 = u32::MAX;

/// A tree node: the move that leads to it and the statistics of that move.
#[derive(Clone, Debug)]
struct Node {
    action: Action,
    /// The seat that made `action`: the node's wins are that seat's.
    mover: Seat,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    available: u32,
    wins: f64,
}

/// Totals over the decisions a bot searched, for measuring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub searches: u64,
    pub iterations: u64,
    pub nodes: u64,
    /// Worlds dealt again because they did not fit the other seats' last plays.
    pub resamples: u64,
    /// Worlds searched that still did not fit every such play (none of the deals did).
    pub unfit: u64,
}

pub struct IsmctsBot {
    config: IsmctsConfig,
    rng: SimRng,
    /// The model of the other seats, and the weights of the bot's own seat.
    heuristic: HeuristicConfig,
    own: HeuristicConfig,
    /// The seat of the search under way.
    me: Seat,
    /// Cards known to be in other hands, for the next decision only.
    known: Vec<(Seat, Vec<Card>)>,
    // Buffers kept between decisions.
    nodes: Vec<Node>,
    path: Vec<u32>,
    legal: Vec<Action>,
    untried: Vec<Action>,
    world: Option<Game>,
    playout: RandomBot,
    stats: SearchStats,
    tracker: infer::Tracker,
    particles: particles::Particles,
    dealt: Dealt,
    hand_buf: Vec<Card>,
    /// Whether a flat search keeps its root estimates ([`IsmctsBot::record_estimates`]).
    record_estimates: bool,
    /// The last decision's flat root estimates: each searched move with its share of won
    /// worlds; empty when that decision was not searched.
    estimates: Vec<(Action, f64)>,
    /// How many worlds each move of `estimates` was played out on.
    estimate_worlds: u32,
    /// The learned network, when the configuration asks for it (`net_prune`, `net_prior`).
    net: Option<NetGuide>,
    /// The network's best move at the decision under way, for `net_prior`.
    net_choice: Option<Action>,
}

impl IsmctsBot {
    pub fn new(config: IsmctsConfig, seed: u64) -> IsmctsBot {
        let guided = config.net_prune > 0 || config.net_prior;
        IsmctsBot {
            own: config.own_weights.clone().unwrap_or_default(),
            me: Seat(0),
            config,
            rng: SimRng::seed_from_u64(seed),
            heuristic: HeuristicConfig::default(),
            known: Vec::new(),
            nodes: Vec::new(),
            path: Vec::new(),
            legal: Vec::new(),
            untried: Vec::new(),
            world: None,
            playout: RandomBot::new(seed),
            stats: SearchStats::default(),
            tracker: infer::Tracker::default(),
            particles: particles::Particles::default(),
            dealt: Dealt::default(),
            hand_buf: Vec::new(),
            record_estimates: false,
            estimates: Vec::new(),
            estimate_worlds: 0,
            net: guided.then(NetGuide::new),
            net_choice: None,
        }
    }

    pub fn config(&self) -> &IsmctsConfig {
        &self.config
    }

    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Tells the search, for its next decision only, that `seat` holds `cards` (seen in a 7–0
    /// swap, say, which an observation does not remember): every world deals them there.
    /// Cards that do not fit the observation are ignored.
    pub fn know_cards(&mut self, seat: Seat, cards: Vec<Card>) {
        self.known.push((seat, cards));
    }

    /// What the bot believes of `seat`'s hidden cards from the public history of this round:
    /// `(count, kinds)` groups as [`Sampler::set_beliefs`] takes them.
    pub fn beliefs(&self, seat: Seat) -> &[(usize, u64)] {
        self.tracker.beliefs(seat)
    }

    /// How many of the other seats' plays since they last took a card the hands of `game`
    /// could not have made, were they `heuristic` bots (what `infer_plays` counts in every
    /// dealt world; see the `plays` module).
    pub fn misfits(&mut self, game: &Game) -> u32 {
        self.tracker.plays().misfits(game, &self.heuristic, &mut self.hand_buf)
    }

    /// Counts, from now on, the cards each search's worlds deal to each seat, for
    /// [`IsmctsBot::dealt_share`].
    pub fn watch_beliefs(&mut self) {
        self.dealt.on = true;
    }

    /// The share of the worlds the last search played on that dealt `card` to `seat`: what it
    /// believed of that hand. `None` before any search, or unless [`IsmctsBot::watch_beliefs`]
    /// was called.
    pub fn dealt_share(&self, seat: Seat, card: Card) -> Option<f64> {
        self.dealt.share(seat, card)
    }

    /// The share of the particles (by weight) that deal `card` to `seat`, at the last decision;
    /// `None` when no particles are kept (see [`IsmctsConfig::particles`]).
    pub fn particle_share(&self, seat: Seat, card: Card) -> Option<f64> {
        self.particles.share(seat, card)
    }

    /// How many times the public history since the previous decision was explained by the
    /// replay, and how many times it was not (and the beliefs were dropped).
    pub fn replays(&self) -> (u64, u64) {
        (self.tracker.explained, self.tracker.unexplained)
    }

    /// Keeps, from now on, the root estimates of each flat search for [`IsmctsBot::estimates`]
    /// (the moves played stay the same).
    pub fn record_estimates(&mut self) {
        self.record_estimates = true;
    }

    /// What the last decision's flat search measured, when [`IsmctsBot::record_estimates`] is
    /// on: each move it compared with the share of its dealt worlds that move won (a round
    /// without a winner counts a share), and the number of worlds, the same for every move.
    /// `None` when that decision was not searched (one move, an UNO call, a catch, a reaction
    /// out of turn) or recording is off.
    pub fn estimates(&self) -> Option<(&[(Action, f64)], u32)> {
        (!self.estimates.is_empty()).then_some((&self.estimates[..], self.estimate_worlds))
    }

    /// The decision for `obs`, remembered for the next decision's inference.
    fn decide(&mut self, obs: &Observation) -> Action {
        self.estimates.clear();
        if self.config.infer_draws {
            let (wilds, colours) = (self.config.infer_wilds, self.config.infer_colours);
            self.tracker.observe(obs, &obs.rules, wilds, colours, &mut self.rng);
        } else {
            self.tracker.reset();
        }
        self.follow_particles(obs);
        let action = self.decide_now(obs);
        if self.config.infer_draws {
            self.tracker.acted(obs, action);
        }
        action
    }

    /// Carries the particles (when on) through what happened since the previous decision.
    fn follow_particles(&mut self, obs: &Observation) {
        let count = self.config.particles as usize;
        let on = count > 0 && self.config.infer_draws && infer::supported(&obs.rules) && obs.viewer.is_some();
        let Some(mut sampler) = on.then(|| Sampler::new(obs).ok()).flatten() else {
            return self.particles.clear();
        };
        for s in Seat::all(obs.players) {
            sampler.set_beliefs(s, self.tracker.beliefs(s));
        }
        let (generation, steps) = (self.tracker.generation(), self.tracker.steps());
        self.particles.follow(count, generation, steps, obs, &mut sampler, &self.heuristic, &mut self.rng);
    }

    fn decide_now(&mut self, obs: &Observation) -> Action {
        let known = std::mem::take(&mut self.known);
        let Some(&first) = obs.legal_actions.first() else { return Action::Draw };
        let fallback = || heuristic::decide(&self.own, obs, || first);
        let searchable = obs.viewer == Some(obs.current)
            && !matches!(obs.phase, Phase::RoundOver | Phase::GameOver)
            && !obs.can_call_own_uno()
            && obs.catch_target().is_none();
        if !searchable {
            return fallback();
        }
        let mut moves: Vec<Action> = obs.legal_actions.iter().copied().filter(|&a| !is_uno_call(a)).collect();
        match moves.as_slice() {
            [] => return fallback(),
            [only] => return *only,
            _ => {}
        }
        self.net_choice = None;
        if let Some(guide) = &mut self.net {
            self.net_choice = guide.rank(obs, &mut moves, self.config.net_prune as usize);
            if let [only] = moves.as_slice() {
                return *only;
            }
        }
        let rules = obs.rules.clone();
        let Ok(mut sampler) = Sampler::new(obs) else { return fallback() };
        // An offender believed to have had nothing else to play is innocent by that belief; a
        // prior would fight it (and the sampler would redeal in vain for a guilty hand).
        let believed_innocent = match obs.phase {
            Phase::Challenge { offender } => self.tracker.honest_wd4() == Some(offender),
            _ => false,
        };
        // Particles' hands decide a pending challenge themselves.
        let prior = if believed_innocent || self.particles.len() > 0 { None } else { self.config.wd4_guilt };
        sampler.set_wd4_guilt(prior);
        for s in Seat::all(obs.players) {
            sampler.set_beliefs(s, self.tracker.beliefs(s));
        }
        for (seat, cards) in &known {
            // A claim the observation contradicts is dropped, not trusted.
            let _ = sampler.set_known(*seat, cards);
        }
        self.search(obs.current, &rules, &mut sampler, &moves)
    }

    fn search(&mut self, me: Seat, rules: &Arc<Rules>, sampler: &mut Sampler, moves: &[Action]) -> Action {
        self.me = me;
        self.dealt.clear();
        if self.config.flat {
            return self.search_flat(me, rules, sampler, moves);
        }
        let started = self.config.time_limit.map(|_| Instant::now());
        self.nodes.clear();
        self.nodes.push(Node {
            action: Action::Draw,
            mover: me,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            wins: 0.0,
        });
        let mut world = self.first_world(sampler, rules);
        self.playout.reseed(self.rng.gen());
        let check_plays = self.check_plays();
        let mut done = 0u32;
        // The generator state that dealt the world found to fit the plays, while it is reused.
        let mut fitted: Option<SimRng> = None;
        for i in 0..self.config.iterations {
            if let (Some(limit), Some(t0)) = (self.config.time_limit, started) {
                // Reading the clock costs more than an iteration's bookkeeping: every 16th.
                if i % 16 == 0 && t0.elapsed() >= limit {
                    break;
                }
            }
            if check_plays || i > 0 {
                self.deal(sampler, &mut world, i, &mut fitted);
            }
            self.dealt.count(&world, me);
            self.iterate(&mut world, me, moves);
            done += 1;
            if self.config.early_stop
                && done.is_multiple_of(stop::CHECK_EVERY)
                && stop::settled(self.root_children().map(|n| n.visits), self.config.iterations - done)
            {
                break;
            }
        }
        self.world = Some(world);
        self.stats.searches += 1;
        self.stats.iterations += done as u64;
        self.stats.nodes += self.nodes.len() as u64;
        // The most visited root move (ties: more wins, then the earlier child).
        let mut best: Option<(u32, f64, Action)> = None;
        for n in self.root_children() {
            if best.is_none_or(|(v, w, _)| (n.visits, n.wins) > (v, w)) {
                best = Some((n.visits, n.wins, n.action));
            }
        }
        match best {
            Some((_, _, a)) if moves.contains(&a) => a,
            _ => moves[0],
        }
    }

    /// A first dealt world, in the buffer kept from the previous search when it fits the rules.
    fn first_world(&mut self, sampler: &mut Sampler, rules: &Arc<Rules>) -> Game {
        match self.world.take() {
            Some(mut w) if Arc::ptr_eq(w.rules_arc(), rules) => {
                sampler.sample_into(&mut self.rng, &mut w);
                w
            }
            _ => sampler.sample(&mut self.rng),
        }
    }

    /// Whether dealt worlds are tested against the other seats' plays (`infer_plays`), or drawn
    /// from the particles: either way the first world is dealt again.
    fn check_plays(&self) -> bool {
        self.particles.len() > 0
            || (self.config.infer_draws && self.config.infer_plays && self.tracker.plays().testable())
    }

    /// Deals the `i`-th world of a search into `world`: a fresh one, or with `infer_plays` one
    /// fitting the other seats' plays (reused `world_reuse` times from `fitted`, the generator
    /// state that dealt it).
    fn deal(&mut self, sampler: &mut Sampler, world: &mut Game, i: u32, fitted: &mut Option<SimRng>) {
        if let Some(hands) = self.particles.hands_for_world(&mut self.rng) {
            for (s, hand) in Seat::all(hands.len()).zip(hands.iter()) {
                if !hand.is_empty() {
                    // A particle fitted to this observation always fits; were it not, that
                    // hand would be dealt at random.
                    let _ = sampler.set_known(s, hand);
                }
            }
            sampler.sample_into(&mut self.rng, world);
            return;
        }
        if !self.check_plays() {
            sampler.sample_into(&mut self.rng, world);
            return;
        }
        match fitted {
            Some(state) if !i.is_multiple_of(self.config.world_reuse.max(1)) => {
                sampler.sample_into(&mut state.clone(), world);
            }
            _ => {
                let (tries, state, misfits) = plays::deal_fitting(
                    sampler,
                    &mut self.rng,
                    world,
                    self.tracker.plays(),
                    &self.heuristic,
                    &mut self.hand_buf,
                    self.config.resamples,
                );
                self.stats.resamples += tries as u64;
                self.stats.unfit += u64::from(misfits > 0);
                *fitted = Some(state);
            }
        }
    }

    /// The root's children, the moves of this decision.
    fn root_children(&self) -> impl Iterator<Item = &Node> {
        let mut c = self.nodes.first().map_or(NONE, |root| root.first_child);
        std::iter::from_fn(move || {
            let n = self.nodes.get(c as usize)?;
            c = n.next_sibling;
            Some(n)
        })
    }

    /// One iteration on a freshly sampled `world`.
    fn iterate(&mut self, world: &mut Game, me: Seat, root_moves: &[Action]) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        loop {
            auto_calls(world);
            if world.is_round_over() {
                break;
            }
            let seat = world.current();
            if seat != me && !self.config.search_opponents {
                // The policy's move, kept in the tree: what the bot decides next depends on
                // what it saw the others do, so its later nodes are not shared across worlds
                // where they did different things.
                let a = self.policy_move(world);
                let mut child = self.child(node, seat, a);
                if child == NONE {
                    child = self.add_child(node, seat, a);
                }
                world.apply_unchecked(seat, a);
                node = child;
                self.path.push(node);
                continue;
            }
            if node == 0 {
                // The root's moves are the observation's: the same in every world.
                self.legal.clear();
                self.legal.extend_from_slice(root_moves);
            } else {
                world.legal_actions_into(seat, &mut self.legal);
                self.legal.retain(|&a| !is_uno_call(a));
            }
            if self.legal.is_empty() {
                break;
            }
            self.untried.clear();
            for &a in &self.legal {
                if self.child(node, seat, a) == NONE {
                    self.untried.push(a);
                }
            }
            if !self.untried.is_empty() {
                let a = self.untried[self.rng.below(self.untried.len())];
                let child = self.add_child(node, seat, a);
                world.apply_unchecked(seat, a);
                self.path.push(child);
                break;
            }
            let c = self.config.exploration;
            let mut best = (f64::NEG_INFINITY, NONE, Action::Draw);
            for i in 0..self.legal.len() {
                let a = self.legal[i];
                let ch = self.child(node, seat, a);
                let n = &mut self.nodes[ch as usize];
                n.available += 1;
                let visits = n.visits.max(1) as f64;
                let ucb = n.wins / visits + c * ((n.available as f64).ln() / visits).sqrt();
                if ucb > best.0 {
                    best = (ucb, ch, a);
                }
            }
            world.apply_unchecked(seat, best.2);
            node = best.1;
            self.path.push(node);
        }
        self.play_out(world);
        let winner = world.round_winner();
        let share = 1.0 / world.players() as f64;
        for &n in &self.path[1..] {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.wins += match winner {
                Some(w) if w == node.mover => 1.0,
                Some(_) => 0.0,
                None => share,
            };
        }
    }

    /// Plays `world` out with the playout policy, a whole turn at a time ([`Game::play_turn`],
    /// the same game as [`IsmctsBot::policy_move`] one decision at a time) while the cap is
    /// more than a turn away, then one decision at a time up to the cap.
    fn play_out(&mut self, world: &mut Game) {
        let cap = self.config.playout_cap;
        let mut n = 0;
        while !world.is_round_over() && n < cap {
            if n + TURN_DECISIONS > cap {
                let seat = world.current();
                let a = self.policy_move(world);
                world.apply_unchecked(seat, a);
                n += 1;
                continue;
            }
            n += match self.config.playout {
                Playout::Random => world.play_turn(&mut self.playout),
                Playout::Heuristic => {
                    let playout = &mut self.playout;
                    let cfg = if world.current() == self.me { &self.own } else { &self.heuristic };
                    world.play_turn(&mut HeuristicTurn::new(cfg, |view: &View<'_>| playout.choose_view(view)))
                }
            };
        }
    }

    /// The playout policy's move for the current seat of `world`.
    fn policy_move(&mut self, world: &Game) -> Action {
        let view = world.view(world.current());
        match self.config.playout {
            Playout::Random => self.playout.choose_view(&view),
            Playout::Heuristic => {
                let playout = &mut self.playout;
                let cfg = if world.current() == self.me { &self.own } else { &self.heuristic };
                heuristic::decide(cfg, &view, || playout.choose_view(&view))
            }
        }
    }

    fn child(&self, node: u32, mover: Seat, action: Action) -> u32 {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.action == action && n.mover == mover {
                return c;
            }
            c = n.next_sibling;
        }
        NONE
    }

    fn add_child(&mut self, parent: u32, mover: Seat, action: Action) -> u32 {
        let id = self.nodes.len() as u32;
        let next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(Node { action, mover, first_child: NONE, next_sibling, visits: 0, available: 1, wins: 0.0 });
        self.nodes[parent as usize].first_child = id;
        id
    }
}

/// Plays the UNO calls nobody should skip: a seat's own call, and the current player catching
/// the one who forgot (what the heuristic and careful humans do).
fn auto_calls(world: &mut Game) {
    for _ in 0..2 {
        if world.is_round_over() {
            return;
        }
        let seat = world.current();
        let view = world.view(seat);
        let call = if view.can_call_own_uno() {
            Action::CallUno
        } else if let Some(v) = view.uno_exposed().filter(|&v| v != seat && view.is_legal(Action::CatchUno { seat: v }))
        {
            Action::CatchUno { seat: v }
        } else {
            return;
        };
        world.apply_unchecked(seat, call);
    }
}

/// Whether an action is an UNO call or catch, which the search leaves to `auto_calls`.
fn is_uno_call(a: Action) -> bool {
    matches!(a, Action::CallUno | Action::CatchUno { .. })
}

impl Bot for IsmctsBot {
    fn name(&self) -> &str {
        "ismcts"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        self.decide(obs)
    }

    fn choose_view(&mut self, view: &View<'_>) -> Action {
        self.decide(&view.observation())
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = SimRng::seed_from_u64(seed);
        self.playout.reseed(seed);
        self.known.clear();
        self.tracker.reset();
    }
}
