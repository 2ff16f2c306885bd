//! Move-by-move analysis of a recorded game from one seat's point of view.
//!
//! For every decision the seat took (a moment where it had more than one legal action), each
//! legal action is valued by its chance of winning the round, estimated from what the seat knew
//! then: worlds consistent with the seat's observation are sampled (`Observation::sample_world`:
//! the hidden hands and the draw pile dealt anew from the unseen cards), the action is applied in
//! each, and the round is played out by `heuristic` bots in every seat. Every action is tried on
//! the same sampled worlds with the same bot seeds, so the differences between actions carry
//! much less noise than the chances themselves.
//!
//! From those values: the chosen action's loss against the best, mistakes (a loss of at least
//! the threshold whose paired interval excludes zero, and never from fewer than
//! [`MIN_MISTAKE_SAMPLES`] worlds per action: fewer cannot show one), the win chance after each
//! decision, and the result split into **skill** (the chance lost or won by the seat's own
//! choices, `Σ (chosen − best)`) and **luck** (everything else that moved the chance: the cards
//! drawn and the other seats' actions), so that `result − first chance = skill + luck`.
//!
//! Everything random is seeded from the analysis seed and the decision's index, so the same
//! record, seat, seed and sample count give the same numbers.
//!
//! **With a value network** ([`analyse_with_value`], `uno analyse --value`) no round is played
//! out: an action's chance is the value network's (`uno_nn::value`) for the seat's own
//! observation right after the action, in the same sampled worlds. That observation depends on
//! the world only when the action put cards in the seat's hand (a draw, a penalty): such an
//! action is valued in at most [`VALUE_WORLDS`] worlds, any other in one. The intervals then
//! show only the spread over the cards the seat could have drawn, not the network's error.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use uno::{Action, Game, GameRecord, Observation, Phase, ReplayError, Seat, TURN_DECISIONS};

use crate::moments::Z95;
use uno_bots::{Bot, HeuristicBot};
use uno_nn::ValueNet;

/// The most worlds a value-network analysis samples per action that draws into the seat's hand.
pub const VALUE_WORLDS: u32 = 32;

/// Playouts longer than this are abandoned and count as a loss (a rules file may never end).
const MAX_PLAYOUT: usize = 20_000;
/// The most worlds per action a caller may ask for: the work grows with it, and past a few
/// thousand the interval narrows by less than the rollout policy's own bias.
pub const MAX_SAMPLES: u32 = 10_000;
/// Worlds per action when the caller has no preference: the intervals are ±4.9 points at most.
pub const DEFAULT_SAMPLES: u32 = 400;
/// The seed when the caller has no preference, so the terminal and the server agree.
pub const DEFAULT_SEED: u64 = 1;
/// The fewest worlds per action from which a decision is marked a mistake: the loss's interval
/// is a normal one over paired worlds, and a handful of worlds can show no spread at all (one
/// playout won, one lost: a "certain" loss of 100 points).
pub const MIN_MISTAKE_SAMPLES: u32 = 30;
/// A loss of this much win chance (0–1) marks a mistake when the caller has no preference.
pub const DEFAULT_MISTAKE: f64 = 0.05;

/// How an analysis valued the actions: playing rounds out, or the value network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AnalysisMethod"))]
pub enum Method {
    /// Rounds played out by `heuristic` bots in every sampled world ([`analyse`]).
    #[default]
    Playouts,
    /// The shipped value network on the seat's observation after the action
    /// ([`analyse_with_value`]): about 70× cheaper, within a few points of the playouts.
    Value,
}

impl Method {
    /// The worlds per action a caller may ask for with this method: the value network looks at
    /// no more than [`VALUE_WORLDS`].
    pub fn max_samples(self) -> u32 {
        match self {
            Method::Playouts => MAX_SAMPLES,
            Method::Value => VALUE_WORLDS,
        }
    }
}

/// What to analyse and how hard.
#[derive(Clone, Debug)]
pub struct AnalysisConfig {
    /// The seat whose decisions are analysed.
    pub seat: Seat,
    /// Sampled worlds per legal action.
    pub samples: u32,
    /// Seed of the sampling and of the playout bots.
    pub seed: u64,
    /// A loss of at least this much win chance (0–1) marks a mistake.
    pub mistake: f64,
    /// Give up (with [`AnalysisError::OutOfTime`]) once this instant has passed; checked where
    /// the work is (before each sampled world, and every [`CHECK_EVERY`] steps of a playout),
    /// so a server can bound what one analysis costs however large its hands and deck. The
    /// numbers of an analysis that finishes do not depend on it.
    pub deadline: Option<std::time::Instant>,
}

/// Why an analysis could not run.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("seat {seat} is not at this table of {players} players")]
    NoSuchSeat { seat: usize, players: usize },
    #[error("samples must be 1 to {MAX_SAMPLES} (got {0})")]
    Samples(u32),
    #[error("the seat's knowledge at action {index} admits no world: {reason}")]
    Sample { index: usize, reason: String },
    #[error("the analysis ran out of time after {done} of {total} decisions")]
    OutOfTime { done: usize, total: usize },
    /// The caller's `stop` of [`analyse_until`] answered true.
    #[error("the analysis was stopped after {done} of {total} decisions")]
    Stopped { done: usize, total: usize },
}

/// One legal action's estimated win chance.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActionValue {
    pub action: Action,
    /// Rounds won over playouts.
    pub win: f64,
    /// 95% interval of `win`.
    pub ci95: [f64; 2],
}

/// One decision of the analysed seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Decision {
    /// Index of the action in the record (its ply).
    pub ply: usize,
    pub round: u32,
    pub turn: u32,
    pub chosen: Action,
    /// Every legal action, best first.
    pub values: Vec<ActionValue>,
    /// Best value less the chosen action's (0 when the choice was the best).
    pub loss: f64,
    /// 95% interval of `loss`, over the same worlds (the actions share them, so this is much
    /// narrower than the values' own intervals).
    pub loss_ci95: [f64; 2],
    /// The loss reaches the threshold and its interval excludes zero (never below
    /// [`MIN_MISTAKE_SAMPLES`] worlds per action).
    pub mistake: bool,
}

/// One round of the analysed seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoundSummary {
    pub round: u32,
    pub decisions: usize,
    /// The best action's chance at the round's first decision.
    pub first: f64,
    /// Whether the seat won the round; null when the record stops before it ends.
    pub won: Option<bool>,
    /// Σ (chosen − best) over the round's decisions: never positive.
    pub skill: f64,
    /// `result − first − skill`: what moved the chance other than the seat's choices.
    pub luck: Option<f64>,
}

/// The whole analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Analysis {
    /// How the actions were valued.
    pub method: Method,
    pub seat: Seat,
    pub samples: u32,
    /// In JSON a decimal string, as every 64-bit seed the project writes (`seeding::wide`).
    #[serde(with = "uno::wide")]
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub seed: u64,
    pub decisions: Vec<Decision>,
    /// Per round with a decision of the seat.
    pub rounds: Vec<RoundSummary>,
    /// Σ of the rounds' skill.
    pub skill: f64,
    /// Σ of the rounds' luck, over the rounds that ended.
    pub luck: f64,
}

/// Whether `seat` won the round after `action` in each of `samples` worlds sampled from the
/// seat's observation of `game`; world `k` and its playout bots are seeded from `(seed, k)`.
/// Why a decision's playouts did not finish.
enum Stop {
    /// The caller's `stop` said so.
    Asked,
    /// The deadline passed.
    OutOfTime,
    Sample(String),
}

/// Playout steps between two looks at the clock (a look costs tens of nanoseconds; a step of
/// hands of hundreds of cards, microseconds).
pub const CHECK_EVERY: usize = 64;

/// What a decision's work asks as it goes: before each world the caller's `stop`, then the
/// deadline; within a playout, the deadline alone.
struct Watch<'a> {
    stop: &'a dyn Fn() -> bool,
    deadline: Option<std::time::Instant>,
}

impl Watch<'_> {
    fn check(&self) -> Result<(), Stop> {
        if (self.stop)() {
            return Err(Stop::Asked);
        }
        self.in_time()
    }

    fn in_time(&self) -> Result<(), Stop> {
        match self.deadline {
            Some(d) if std::time::Instant::now() >= d => Err(Stop::OutOfTime),
            _ => Ok(()),
        }
    }
}

fn playouts(
    game: &Game,
    seat: Seat,
    action: Action,
    samples: u32,
    seed: u64,
    watch: &Watch<'_>,
) -> Result<Vec<bool>, Stop> {
    let obs = game.observation(Some(seat));
    let players = game.players();
    let mut wins = Vec::with_capacity(samples as usize);
    for k in 0..samples {
        watch.check()?;
        let world_seed = world_seed(seed, k);
        let mut world = world_after(&obs, seat, action, world_seed)?;
        let mut bots: Vec<HeuristicBot> =
            (0..players).map(|s| HeuristicBot::new(world_seed.wrapping_add(s as u64))).collect();
        let (mut steps, mut check_at) = (0, CHECK_EVERY);
        while !world.is_round_over() && steps < MAX_PLAYOUT {
            let current = world.current();
            let bot = &mut bots[current.index()];
            // A whole turn at a time while the cap is more than a turn away: the same game
            // (`Game::play_turn`), stopped where the decisions one by one would stop.
            if steps + TURN_DECISIONS as usize <= MAX_PLAYOUT {
                steps += world.play_turn(bot) as usize;
            } else {
                let choice = bot.choose_view(&world.view(current));
                world.apply_unchecked(current, choice);
                steps += 1;
            }
            if steps >= check_at {
                check_at += CHECK_EVERY;
                watch.in_time()?;
            }
        }
        wins.push(world.round_winner() == Some(seat));
    }
    Ok(wins)
}

/// The seed of sampled world `k` of a decision analysed on `seed` (playouts and the value
/// network sample the same worlds).
fn world_seed(seed: u64, k: u32) -> u64 {
    seed ^ (u64::from(k) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A world sampled from what `seat` saw, on `world_seed`, after `seat` took `action` in it.
fn world_after(obs: &Observation, seat: Seat, action: Action, world_seed: u64) -> Result<Game, Stop> {
    let mut rng = ChaCha8Rng::seed_from_u64(world_seed);
    let mut world = obs.sample_world(&mut rng).map_err(|e| Stop::Sample(e.to_string()))?;
    if world.check(seat, action).is_err() {
        // The sampled world cannot hold what the seat saw: never the case for a sound sampler.
        return Err(Stop::Sample(format!("{action} is not legal in a sampled world")));
    }
    world.apply_unchecked(seat, action);
    Ok(world)
}

/// The value network's chance for `seat` after `action`, in each of `samples` worlds sampled as
/// [`playouts`] samples them (world `k` on the same seed): the seat's own observation after the
/// action, or who won when the action ended the round. When the action drew nothing into the
/// seat's hand, that observation is the same in every world: one is valued and repeated.
fn valued(
    game: &Game,
    seat: Seat,
    action: Action,
    samples: u32,
    seed: u64,
    net: &ValueNet,
    watch: &Watch<'_>,
) -> Result<Vec<f64>, Stop> {
    let obs = game.observation(Some(seat));
    let held = game.hand(seat).len();
    let mut vector = vec![0.0; uno_nn::obs::SIZE];
    let mut out = Vec::with_capacity(samples as usize);
    for k in 0..samples {
        watch.check()?;
        let world = world_after(&obs, seat, action, world_seed(seed, k))?;
        let value = if world.is_round_over() {
            f64::from(u8::from(world.round_winner() == Some(seat)))
        } else {
            uno_nn::observe::write_observation(&world, seat, false, &mut vector);
            f64::from(net.win_chance(&vector))
        };
        out.push(value);
        if k == 0 && world.hand(seat).len() <= held {
            out.resize(samples as usize, value);
            break;
        }
    }
    Ok(out)
}

fn share(wins: &[f64]) -> f64 {
    wins.iter().sum::<f64>() / wins.len().max(1) as f64
}

/// The 95% interval of `mean(a) − mean(b)` over paired worlds.
fn paired_interval(a: &[f64], b: &[f64]) -> [f64; 2] {
    let n = a.len().min(b.len()).max(1) as f64;
    let diffs: Vec<f64> = a.iter().zip(b).map(|(&x, &y)| x - y).collect();
    let mean = diffs.iter().sum::<f64>() / n;
    let var = if n > 1.0 { diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    let half = Z95 * (var / n).sqrt();
    [mean - half, mean + half]
}

/// The normal 95% interval of a mean over worlds, kept inside 0..1.
fn spread(values: &[f64]) -> [f64; 2] {
    let mut m = crate::moments::Moments::default();
    for &v in values {
        m.add(v);
    }
    m.ci95().map_or([m.mean(), m.mean()], |[lo, hi]| [lo.max(0.0), hi.min(1.0)])
}

/// The Wilson interval of a win chance `p` measured over `n` worlds (honest for a handful:
/// one playout won gives 21% to 100%, not 100% to 100%).
fn interval(p: f64, n: u32) -> [f64; 2] {
    let (lo, hi) = crate::sim::wilson(p * f64::from(n), u64::from(n));
    [lo, hi]
}

/// Analyses every decision `config.seat` took in `record`; `progress` is told each decision's
/// index and the number of decisions, as they are done.
pub fn analyse(
    record: &GameRecord,
    config: &AnalysisConfig,
    progress: &dyn Fn(usize, usize),
) -> Result<Analysis, AnalysisError> {
    analyse_until(record, config, progress, &|| false)
}

/// [`analyse`] with the value network instead of playouts (module doc): `min(samples,
/// VALUE_WORLDS)` worlds per action that draws into the seat's hand, one for the others.
pub fn analyse_with_value(
    record: &GameRecord,
    config: &AnalysisConfig,
    net: &ValueNet,
    progress: &dyn Fn(usize, usize),
    stop: &dyn Fn() -> bool,
) -> Result<Analysis, AnalysisError> {
    analyse_by(record, config, Some(net), progress, stop)
}

/// [`analyse_until`] or [`analyse_with_value`] with the shipped value network
/// ([`crate::shipped_value`]), as `method` says.
pub fn analyse_with(
    record: &GameRecord,
    config: &AnalysisConfig,
    method: Method,
    progress: &dyn Fn(usize, usize),
    stop: &dyn Fn() -> bool,
) -> Result<Analysis, AnalysisError> {
    match method {
        Method::Playouts => analyse_until(record, config, progress, stop),
        Method::Value => analyse_with_value(record, config, &crate::shipped_value(), progress, stop),
    }
}

/// [`analyse`], given up ([`AnalysisError::Stopped`]) as soon as `stop` answers true: it is
/// asked before every sampled world, so a server whose client went away stops within one
/// playout. The numbers of an analysis that finishes do not depend on it.
pub fn analyse_until(
    record: &GameRecord,
    config: &AnalysisConfig,
    progress: &dyn Fn(usize, usize),
    stop: &dyn Fn() -> bool,
) -> Result<Analysis, AnalysisError> {
    analyse_by(record, config, None, progress, stop)
}

fn analyse_by(
    record: &GameRecord,
    config: &AnalysisConfig,
    net: Option<&ValueNet>,
    progress: &dyn Fn(usize, usize),
    stop: &dyn Fn() -> bool,
) -> Result<Analysis, AnalysisError> {
    if config.samples == 0 || config.samples > MAX_SAMPLES {
        return Err(AnalysisError::Samples(config.samples));
    }
    if config.seat.index() >= record.players {
        return Err(AnalysisError::NoSuchSeat { seat: config.seat.index(), players: record.players });
    }
    let seat = config.seat;
    let (moments, winners) = find_moments(record, seat)?;

    let mut game = record.start()?;
    let mut decisions = Vec::with_capacity(moments.len());
    let mut next = moments.iter().peekable();
    for (index, m) in record.actions.iter().enumerate() {
        if next.peek() == Some(&&index) {
            next.next();
            progress(decisions.len(), moments.len());
            let at = Moment { index, done: decisions.len(), total: moments.len() };
            decisions.push(judge(&game, seat, m.action, at, config, net, stop)?);
        }
        game.apply_unchecked(m.seat, m.action);
    }
    let rounds = round_summaries(&decisions, &winners, seat);
    let skill = rounds.iter().map(|r| r.skill).sum();
    let luck = rounds.iter().filter_map(|r| r.luck).sum();
    let method = if net.is_some() { Method::Value } else { Method::Playouts };
    Ok(Analysis { method, seat, samples: config.samples, seed: config.seed, decisions, rounds, skill, luck })
}

/// Each round of a record with its winner (`None`: a round without one).
type Winners = Vec<(u32, Option<Seat>)>;

/// The first pass over a record: checks every move, and finds the indices of `seat`'s decisions
/// (moves with a choice) and each round's winner.
fn find_moments(record: &GameRecord, seat: Seat) -> Result<(Vec<usize>, Winners), AnalysisError> {
    let mut game = record.start()?;
    let mut moments = Vec::new();
    let mut winners: Winners = Vec::new();
    for (index, m) in record.actions.iter().enumerate() {
        if m.seat == seat && game.phase() != Phase::RoundOver && game.legal_actions_for(seat).len() > 1 {
            moments.push(index);
        }
        game.apply(m.seat, m.action).map_err(|reason| ReplayError::Illegal {
            index,
            seat: m.seat,
            action: m.action,
            reason,
        })?;
        if game.is_round_over() && winners.last().map(|w| w.0) != Some(game.round()) {
            winners.push((game.round(), game.round_winner()));
        }
    }
    Ok((moments, winners))
}

/// Where a decision stands: its move's index in the record, and how many of the analysis's
/// decisions are done out of how many.
#[derive(Clone, Copy)]
struct Moment {
    index: usize,
    done: usize,
    total: usize,
}

/// Values every legal action of `seat` in `game` and judges the `chosen` one against the best.
fn judge(
    game: &Game,
    seat: Seat,
    chosen: Action,
    at: Moment,
    config: &AnalysisConfig,
    net: Option<&ValueNet>,
    stop: &dyn Fn() -> bool,
) -> Result<Decision, AnalysisError> {
    let Moment { index, done, total } = at;
    let seed = config.seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut tried = Vec::new();
    let watch = Watch { stop, deadline: config.deadline };
    for action in game.legal_actions_for(seat) {
        let wins = match net {
            None => playouts(game, seat, action, config.samples, seed, &watch)
                .map(|w| w.into_iter().map(|x| f64::from(u8::from(x))).collect()),
            Some(net) => valued(game, seat, action, config.samples.min(VALUE_WORLDS), seed, net, &watch),
        };
        let wins: Vec<f64> = wins.map_err(|e| match e {
            Stop::Asked => AnalysisError::Stopped { done, total },
            Stop::OutOfTime => AnalysisError::OutOfTime { done, total },
            Stop::Sample(reason) => AnalysisError::Sample { index, reason },
        })?;
        tried.push((action, wins));
    }
    // Best first; ties keep the engine's order of legal actions.
    tried.sort_by(|a, b| share(&b.1).total_cmp(&share(&a.1)));
    let chosen_wins = tried.iter().find(|t| t.0 == chosen).map_or(&[][..], |t| &t.1[..]);
    let best_wins = tried.first().map_or(&[][..], |t| &t.1[..]);
    let loss = share(best_wins) - share(chosen_wins);
    let loss_ci95 = paired_interval(best_wins, chosen_wins);
    let values = tried
        .iter()
        .map(|(action, wins)| {
            let win = share(wins);
            let ci95 = match net {
                None => interval(win, config.samples),
                Some(_) => spread(wins),
            };
            ActionValue { action: *action, win, ci95 }
        })
        .collect();
    Ok(Decision {
        ply: index,
        round: game.round(),
        turn: game.turns(),
        chosen,
        values,
        loss,
        loss_ci95,
        mistake: config.samples >= MIN_MISTAKE_SAMPLES && loss >= config.mistake && loss > 0.0 && loss_ci95[0] > 0.0,
    })
}

/// Each round's skill (the value its decisions lost) and luck (the rest of the result beyond the
/// first decision's value), from the decisions and the rounds' winners.
fn round_summaries(decisions: &[Decision], winners: &[(u32, Option<Seat>)], seat: Seat) -> Vec<RoundSummary> {
    let mut rounds: Vec<RoundSummary> = Vec::new();
    for d in decisions {
        if rounds.last().map(|r| r.round) != Some(d.round) {
            let won = winners.iter().find(|w| w.0 == d.round).map(|w| w.1 == Some(seat));
            let first = d.values.first().map_or(0.0, |v| v.win);
            rounds.push(RoundSummary { round: d.round, decisions: 0, first, won, skill: 0.0, luck: None });
        }
        if let Some(r) = rounds.last_mut() {
            r.decisions += 1;
            r.skill -= d.loss;
        }
    }
    for r in &mut rounds {
        r.luck = r.won.map(|won| f64::from(u8::from(won)) - r.first - r.skill);
    }
    rounds
}

#[cfg(test)]
mod tests;
