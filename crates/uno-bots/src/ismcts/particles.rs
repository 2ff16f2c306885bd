//! The other hands as a particle filter over the whole round (`particles`).
//!
//! The belief groups of the `infer` module remember only which kinds a hand lacked, and the
//! plays' test (`plays`) only the plays since a seat last took a card: what a seat played
//! before its last draw is forgotten, though the cards it held then may still be in its hand.
//! A particle filter keeps it all. Each particle is one guess at every other hand, each card
//! with the checks it was held at, carried forward through the public steps the `infer` replay
//! finds between the bot's decisions:
//!
//! * a seat **takes cards** (a draw, a penalty): the particle deals it cards it has not placed
//!   (the cards the bot has not seen, less the particle's hands);
//! * a seat **keeps the card it drew**: the card it was dealt is dealt again from the kinds it
//!   could keep (an exact condition on a fresh random card, not a test);
//! * a seat **draws instead of playing**, or **plays a card from its hand**: a check. The
//!   particle's hand then is tested against the `heuristic` bot's rules (it draws only with
//!   nothing to play; it plays the card it scores best, naming the colour it would), and each
//!   check it would not have passed multiplies the particle's weight by [`MISFIT`]. A card
//!   played that the particle had not dealt to that hand takes the place of one of its cards.
//!
//! When the weights concentrate on a few particles (effective sample size below half), the
//! particles are drawn again in proportion to their weights (systematic resampling); and at
//! each decision each hand of each particle gets [`MOVES`] Metropolis–Hastings moves (a held card proposed to be
//! another unplaced card, kept by how well the checks since it came fit), so that copies of one
//! particle spread out again. A world for the search is one particle, drawn by weight, with
//! the cards left shuffled into the draw pile. Against players who do not follow the heuristic
//! every particle misfits alike, so the weights stay flat: a soft model, never a wrong fact.
//!
//! Measured (see `docs/bots.md`), the particles predict the other hands no better than the
//! belief groups and the plays' test together, and the search wins less with them: off by
//! default.

use rand::Rng;
use uno::sample::Sampler;
use uno::{Card, CardSet, Color, Game, Observation, Seat};

use super::infer::Step;
use super::plays::{Past, PastTurn};
use crate::heuristic::{self, HeuristicConfig};

/// The weight a particle keeps for each step of the history its hand would not have made,
/// were that seat a `heuristic` bot. Small, as the true hands of heuristic players fit about
/// 98% of their steps; not zero, so that other players leave the weights flat.
pub(crate) const MISFIT: f64 = 0.02;

/// Changes proposed to each hand of each particle at each decision.
const MOVES: usize = 8;

/// A step of one seat that its hands are tested by.
#[derive(Clone, Debug)]
enum Check {
    /// It drew on its turn: it held none of the kinds in the mask.
    Drew { mask: u64 },
    /// It played `card` from its hand (tested when the colour in play was known).
    Play { card: Card, past: Option<(Past, Color)> },
}

/// A card a particle deals to a seat, and when.
#[derive(Clone, Copy, Debug)]
struct Slot {
    card: Card,
    /// The first of the seat's checks it was held at (the number of checks before it came).
    entry: u16,
    /// The check it was played at; `HELD` while it is still in the hand.
    exit: u16,
    /// Kinds it cannot be: a drawn card the seat kept could not be played.
    not: u64,
}

const HELD: u16 = u16::MAX;

/// Guesses at the other hands, carried through a round.
#[derive(Clone, Debug, Default)]
pub(crate) struct Particles {
    players: usize,
    me: Option<Seat>,
    /// The tracker's generation the particles follow (they start again when it changes).
    generation: Option<u64>,
    /// Per seat, the steps its hands are tested by, oldest first.
    checks: Vec<Vec<Check>>,
    /// Particle `p`'s cards for seat `s`, held and played, at `p * players + s`.
    slots: Vec<Vec<Slot>>,
    /// Log weights.
    log_w: Vec<f64>,
    /// The hands held now, laid out as `slots`, and cumulative weights for drawing a
    /// particle, from the last [`Particles::prepare`].
    hands: Vec<Vec<Card>>,
    cumulative: Vec<f64>,
    /// Buffers.
    pools: Vec<Pool>,
    spare: Vec<Vec<Slot>>,
    hand: Vec<Card>,
}

/// The cards the viewer has not seen and no hand of one particle holds, by kind.
type Pool = [i32; Card::KINDS];

impl Particles {
    /// Particles in use.
    pub(crate) fn len(&self) -> usize {
        self.log_w.len()
    }

    /// Forgets every particle.
    pub(crate) fn clear(&mut self) {
        self.generation = None;
        self.slots.clear();
        self.log_w.clear();
        self.hands.clear();
        self.cumulative.clear();
    }

    /// Brings the particles up to `obs`: carried through the tracker's `steps` when they follow
    /// its `generation`, dealt afresh (`count` of them, from `sampler`, which holds the
    /// tracker's beliefs) otherwise; then fitted to what `obs` shows.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn follow<R: Rng + ?Sized>(
        &mut self,
        count: usize,
        generation: u64,
        steps: &[Step],
        obs: &Observation,
        sampler: &mut Sampler,
        cfg: &HeuristicConfig,
        rng: &mut R,
    ) {
        let me = obs.viewer;
        let fresh = self.generation != Some(generation)
            || self.players != obs.players
            || self.me != me
            || self.log_w.len() != count;
        let unseen = counts(sampler.unseen());
        if fresh {
            self.deal(count, obs.players, me, sampler, rng);
            self.generation = Some(generation);
        } else {
            let players = self.players;
            self.pools.clear();
            for p in 0..self.log_w.len() {
                self.pools.push(pool_of(&unseen, &self.slots[p * players..(p + 1) * players]));
            }
            for step in steps {
                self.advance(step, cfg, rng);
            }
        }
        for p in 0..self.log_w.len() {
            let slots = &mut self.slots[p * self.players..(p + 1) * self.players];
            fit(slots, &self.checks, &unseen, &obs.hand_sizes, me, rng);
        }
        self.resample_if_thin(rng);
        self.rejuvenate(&unseen, cfg, rng);
        self.prepare();
    }

    /// Deals `count` particles from `sampler`.
    fn deal<R: Rng + ?Sized>(
        &mut self,
        count: usize,
        players: usize,
        me: Option<Seat>,
        sampler: &mut Sampler,
        rng: &mut R,
    ) {
        self.players = players;
        self.me = me;
        self.checks.clear();
        self.checks.resize(players, Vec::new());
        self.slots.resize_with(count * players, Vec::new);
        self.log_w.clear();
        self.log_w.resize(count, 0.0);
        let mut world: Option<Game> = None;
        for p in 0..count {
            let w = match world.as_mut() {
                Some(w) => {
                    sampler.sample_into(rng, w);
                    w
                }
                None => world.insert(sampler.sample(rng)),
            };
            for seat in Seat::all(players) {
                let slots = &mut self.slots[p * players + seat.index()];
                slots.clear();
                if Some(seat) != me {
                    slots.extend(w.hand(seat).iter().map(|&card| Slot { card, entry: 0, exit: HELD, not: 0 }));
                }
            }
        }
    }

    /// Carries every particle through `step`, weighing each by whether its hand would have made
    /// it.
    fn advance<R: Rng + ?Sized>(&mut self, step: &Step, cfg: &HeuristicConfig, rng: &mut R) {
        let players = self.players;
        let seat = match *step {
            Step::Drew { seat, .. } | Step::Kept { seat, .. } | Step::Played { seat, .. } => seat,
        };
        let s = seat.index();
        if s >= players || Some(seat) == self.me {
            return;
        }
        // The index the step's check (if any) gets.
        let j = self.checks[s].len() as u16;
        match *step {
            Step::Drew { size, mask, .. } => {
                self.checks[s].push(Check::Drew { mask });
                for p in 0..self.log_w.len() {
                    let (slots, pool) = (&mut self.slots[p * players + s], &mut self.pools[p]);
                    resize(slots, size, j, pool, rng);
                    if slots.iter().any(|x| x.exit == HELD && mask & bit(x.card) != 0) {
                        self.log_w[p] += MISFIT.ln();
                    }
                    if let Some(card) = take(pool, 0, rng) {
                        slots.push(Slot { card, entry: j + 1, exit: HELD, not: 0 });
                    }
                }
            }
            Step::Kept { mask, .. } => {
                for p in 0..self.log_w.len() {
                    let (slots, pool) = (&mut self.slots[p * players + s], &mut self.pools[p]);
                    // The card it drew, the last dealt, is one it did not play: dealt again
                    // from those.
                    if let Some(last) = slots.last_mut().filter(|x| x.exit == HELD) {
                        last.not = mask;
                        if mask & bit(last.card) != 0 {
                            pool[last.card.index()] += 1;
                            if let Some(c) = take(pool, mask, rng) {
                                last.card = c;
                            }
                        }
                    }
                }
            }
            Step::Played { size, drawn: true, .. } => {
                for p in 0..self.log_w.len() {
                    let (slots, pool) = (&mut self.slots[p * players + s], &mut self.pools[p]);
                    // The card it had just drawn: the last dealt, now known and gone.
                    if let Some(x) = slots.pop_if(|x| x.exit == HELD) {
                        pool[x.card.index()] += 1;
                    }
                    resize(slots, size.saturating_sub(1), j, pool, rng);
                }
            }
            Step::Played { card, size, drawn: false, ref past, .. } => {
                let past = past.as_ref().and_then(|p| p.color.map(|c| (p.clone(), c)));
                self.checks[s].push(Check::Play { card, past });
                for p in 0..self.log_w.len() {
                    let (slots, pool) = (&mut self.slots[p * players + s], &mut self.pools[p]);
                    resize(slots, size, j, pool, rng);
                    let held = slots.iter().position(|x| x.exit == HELD && x.card == card);
                    let i = match held {
                        Some(i) => i,
                        None => {
                            // Not dealt to that hand: it replaces one of its cards.
                            let Some(i) = random_held(slots, rng) else { continue };
                            pool[slots[i].card.index()] += 1;
                            slots[i].card = card;
                            i
                        }
                    };
                    if misfit(&self.checks[s][j as usize], slots, j, None, cfg, &mut self.hand) {
                        self.log_w[p] += MISFIT.ln();
                    }
                    slots[i].exit = j;
                }
            }
        }
    }

    /// Draws the particles again in proportion to their weights when fewer than half of them
    /// carry the weight (effective sample size `(Σw)² / Σw²`).
    fn resample_if_thin<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let n = self.log_w.len();
        if n == 0 {
            return;
        }
        let top = self.log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = self.log_w.iter().map(|&l| (l - top).exp()).collect();
        let (sum, sq) = w.iter().fold((0.0, 0.0), |(a, b), &x| (a + x, b + x * x));
        if sum * sum >= 0.5 * n as f64 * sq {
            // Keep the weights near 1 so that they never underflow.
            for l in &mut self.log_w {
                *l -= top;
            }
            return;
        }
        // Systematic resampling: one uniform offset, `n` evenly spaced pointers.
        let step = sum / n as f64;
        let mut u = rng.gen::<f64>() * step;
        let mut acc = 0.0;
        let mut i = 0;
        let players = self.players;
        self.spare.resize_with(self.slots.len(), Vec::new);
        for p in 0..n {
            while i + 1 < n && acc + w[i] <= u {
                acc += w[i];
                i += 1;
            }
            for s in 0..players {
                let (dst, src) = (&mut self.spare[p * players + s], &self.slots[i * players + s]);
                dst.clear();
                dst.extend_from_slice(src);
            }
            u += step;
        }
        std::mem::swap(&mut self.slots, &mut self.spare);
        self.log_w.iter_mut().for_each(|l| *l = 0.0);
    }

    /// Spreads the particles (copies of one another after they are drawn again) by
    /// Metropolis–Hastings moves: a held card is proposed to be another unplaced card, and the
    /// change is kept in proportion to how well the seat's checks since the card came fit it
    /// ([`MISFIT`] per check), so the weights stay those of the posterior.
    fn rejuvenate<R: Rng + ?Sized>(&mut self, unseen: &Pool, cfg: &HeuristicConfig, rng: &mut R) {
        let players = self.players;
        for p in 0..self.log_w.len() {
            let slots = &mut self.slots[p * players..(p + 1) * players];
            let mut pool = pool_of(unseen, slots);
            for (s, slots) in slots.iter_mut().enumerate() {
                let checks = &self.checks[s];
                for _ in 0..MOVES {
                    let Some(i) = random_held(slots, rng) else { break };
                    let Some(y) = take(&mut pool, slots[i].not, rng) else { break };
                    let x = slots[i].card;
                    let mut delta = 0i32;
                    let since = slots[i].entry as usize;
                    for (j, check) in checks.iter().enumerate().skip(since) {
                        let before = misfit(check, slots, j as u16, None, cfg, &mut self.hand);
                        let after = misfit(check, slots, j as u16, Some((i, y)), cfg, &mut self.hand);
                        delta += i32::from(after) - i32::from(before);
                    }
                    if delta <= 0 || rng.gen::<f64>() < MISFIT.powi(delta) {
                        slots[i].card = y;
                        pool[x.index()] += 1;
                    } else {
                        pool[y.index()] += 1;
                    }
                }
            }
        }
    }

    /// Readies [`Particles::hands_for_world`] for the current weights.
    fn prepare(&mut self) {
        let top = self.log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut acc = 0.0;
        self.cumulative.clear();
        for &l in &self.log_w {
            acc += (l - top).exp();
            self.cumulative.push(acc);
        }
        self.hands.resize_with(self.slots.len(), Vec::new);
        for (hand, slots) in self.hands.iter_mut().zip(&self.slots) {
            hand.clear();
            hand.extend(slots.iter().filter(|x| x.exit == HELD).map(|x| x.card));
        }
    }

    /// The share of the particles, by weight, that deal `card` to `seat`.
    pub(crate) fn share(&self, seat: Seat, card: Card) -> Option<f64> {
        let total = *self.cumulative.last()?;
        let s = seat.index();
        if s >= self.players {
            return None;
        }
        let mut held = 0.0;
        let mut before = 0.0;
        for (p, &acc) in self.cumulative.iter().enumerate() {
            if self.hands[p * self.players + s].contains(&card) {
                held += acc - before;
            }
            before = acc;
        }
        Some(held / total)
    }

    /// A particle drawn by weight: its hand for each seat (empty for the bot's own).
    pub(crate) fn hands_for_world<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<&[Vec<Card>]> {
        let total = *self.cumulative.last()?;
        let x = rng.gen::<f64>() * total;
        let p = self.cumulative.partition_point(|&c| c <= x).min(self.log_w.len() - 1);
        Some(&self.hands[p * self.players..(p + 1) * self.players])
    }
}

fn bit(c: Card) -> u64 {
    1u64 << c.index()
}

/// Whether the hand `slots` held at check `j` (with slot `i` holding `y` instead, if given)
/// would not have made that check's step, were the seat a `heuristic` bot.
fn misfit(
    check: &Check,
    slots: &[Slot],
    j: u16,
    swap: Option<(usize, Card)>,
    cfg: &HeuristicConfig,
    hand: &mut Vec<Card>,
) -> bool {
    hand.clear();
    for (i, x) in slots.iter().enumerate() {
        if x.entry <= j && (x.exit == HELD || x.exit >= j) {
            hand.push(match swap {
                Some((k, y)) if k == i => y,
                _ => x.card,
            });
        }
    }
    match check {
        Check::Drew { mask } => hand.iter().any(|&c| mask & bit(c) != 0),
        Check::Play { card, past: Some((past, color)) } => {
            let held = hand.iter().fold(CardSet::EMPTY, |mut set, &c| {
                set.insert(c);
                set
            });
            !heuristic::could_play(cfg, &PastTurn { past, color: *color, hand, held }, *card, past.named)
        }
        Check::Play { past: None, .. } => false,
    }
}

/// The number of each kind among `cards`.
fn counts(cards: &[Card]) -> Pool {
    let mut n = [0; Card::KINDS];
    for &c in cards {
        n[c.index()] += 1;
    }
    n
}

/// `unseen` less the cards the particle's `slots` hold.
fn pool_of(unseen: &Pool, slots: &[Vec<Slot>]) -> Pool {
    let mut pool = *unseen;
    for x in slots.iter().flatten().filter(|x| x.exit == HELD) {
        pool[x.card.index()] -= 1;
    }
    pool
}

/// A card from `pool` at random, outside the kinds in `mask` when the pool has one (taken out
/// of the pool); `None` when the pool is empty.
fn take<R: Rng + ?Sized>(pool: &mut Pool, mask: u64, rng: &mut R) -> Option<Card> {
    let allowed = |k: usize| mask & (1u64 << k) == 0;
    let mut total: i32 = (0..Card::KINDS).filter(|&k| allowed(k)).map(|k| pool[k].max(0)).sum();
    let mut mask = mask;
    if total == 0 {
        mask = 0;
        total = pool.iter().map(|&n| n.max(0)).sum();
        if total == 0 {
            return None;
        }
    }
    let mut r = rng.gen_range(0..total);
    for (k, n) in pool.iter_mut().enumerate() {
        if mask & (1u64 << k) != 0 || *n <= 0 {
            continue;
        }
        if r < *n {
            *n -= 1;
            return Card::from_index(k);
        }
        r -= *n;
    }
    None
}

/// Deals a hand cards from `pool` until it holds `size` (held from check `entry` on), or takes
/// held cards out of it at random (back to the pool) until it does: the cards it took, or the
/// cards the replay could not place.
fn resize<R: Rng + ?Sized>(slots: &mut Vec<Slot>, size: usize, entry: u16, pool: &mut Pool, rng: &mut R) {
    let mut held = slots.iter().filter(|x| x.exit == HELD).count();
    while held < size {
        let Some(card) = take(pool, 0, rng) else { break };
        slots.push(Slot { card, entry, exit: HELD, not: 0 });
        held += 1;
    }
    while held > size {
        let Some(i) = random_held(slots, rng) else { break };
        pool[slots.remove(i).card.index()] += 1;
        held -= 1;
    }
}

/// The index of one of the cards `slots` still holds, at random; `None` when it holds none.
fn random_held<R: Rng + ?Sized>(slots: &[Slot], rng: &mut R) -> Option<usize> {
    let held = slots.iter().filter(|x| x.exit == HELD).count();
    if held == 0 {
        return None;
    }
    let k = rng.gen_range(0..held);
    (0..slots.len()).filter(|&i| slots[i].exit == HELD).nth(k)
}

/// Fits one particle to an observation: every other hand at its size, and no card in them that
/// the viewer has seen since (a card drawn by it, played, or more copies than are unseen).
fn fit<R: Rng + ?Sized>(
    slots: &mut [Vec<Slot>],
    checks: &[Vec<Check>],
    unseen: &Pool,
    sizes: &[usize],
    me: Option<Seat>,
    rng: &mut R,
) {
    let mut pool = pool_of(unseen, slots);
    for (seat, slots) in Seat::all(slots.len()).zip(slots.iter_mut()) {
        let s = seat.index();
        if Some(seat) == me {
            slots.clear();
            continue;
        }
        // Cards the pool is short of are held more often than there are: replace them.
        for x in slots.iter_mut().filter(|x| x.exit == HELD) {
            let k = x.card.index();
            if pool[k] < 0 {
                pool[k] += 1;
                if let Some(c) = take(&mut pool, x.not, rng) {
                    x.card = c;
                } else {
                    pool[k] -= 1;
                }
            }
        }
        let now = checks.get(s).map_or(0, |c| c.len() as u16);
        resize(slots, sizes.get(s).copied().unwrap_or(0), now, &mut pool, rng);
    }
}

#[cfg(test)]
mod tests;
