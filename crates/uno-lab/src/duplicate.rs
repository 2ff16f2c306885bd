//! Duplicate matches: every deal is played once per seating of the bots, with the same seeds
//! (deal, draws, each seat's bot seed) in every seating, so the luck of the cards cancels
//! between the entrants and far fewer deals are needed than independent games.
//!
//! The unit of the statistics is the deal (the duplicate set): deals are independent and
//! identically distributed, the seatings within a deal are not. An entrant's win share in a deal
//! is its wins over the seats it held in that deal's games; its estimate is the mean over deals
//! and the 95% interval the normal one over those per-deal values (a mean of many bounded
//! i.i.d. values; with 30 deals or more a bootstrap gives the same interval).
//!
//! The same run also measures what independent games would have cost: the per-game values'
//! variance divided by the games played, against the per-deal values' variance divided by the
//! deals. Their ratio is the variance-reduction factor: how many times more independent games
//! would give the same interval width.

use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;
use uno::{Game, Rules, TURN_DECISIONS};

pub use crate::moments::Moments;
pub use crate::ratings::MatchGame;
use crate::ratings::{RatingData, Ratings};
use crate::sprt::{Decision, Sprt, SprtReport};
use crate::SimError;
use crate::MAX_DECISIONS;
use uno_bots::{Bot, BotSpec};

/// Deals played between two looks at the results (progress, the sequential test). Results
/// depend on it only through where a sequential test may stop, never on the thread count.
pub const BATCH: u64 = 64;
/// The most seatings a match may play per deal (`all-seatings` of 7 distinct bots is 5040).
pub const MAX_SEATINGS: usize = 720;

/// How the entrants are seated at every deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The lineup turned round the table: every entrant through every seat.
    Rotate,
    /// Every distinct permutation of the lineup.
    AllSeatings,
    /// Every group of as many entrants as seats, each group turned round the table: for more
    /// bots than seats, so that every pair meets and the ratings compare them all.
    RoundRobin,
}

impl std::str::FromStr for Format {
    type Err = MatchError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rotate" => Ok(Format::Rotate),
            "all-seatings" => Ok(Format::AllSeatings),
            "round-robin" => Ok(Format::RoundRobin),
            other => Err(MatchError::Format(other.chars().take(40).collect())),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error("format must be 'rotate', 'all-seatings' or 'round-robin' (got '{0}')")]
    Format(String),
    #[error("name at least two bots (got {0})")]
    TooFewBots(usize),
    #[error("{bots} bots for {players} seats: name at most one bot per seat (or use --format round-robin)")]
    TooManyBots { bots: usize, players: usize },
    #[error("round-robin seats every group of {players} of the bots: name at least {players} bots (got {bots})")]
    TooFewForRoundRobin { bots: usize, players: usize },
    #[error("{0} seatings per deal: at most {MAX_SEATINGS} (use rotate, or fewer distinct bots)")]
    TooManySeatings(usize),
    #[error("play at least one deal")]
    NoDeals,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub rules: Arc<Rules>,
    pub players: usize,
    /// The entrants, at least two; the first is the challenger.
    pub bots: Vec<BotSpec>,
    pub format: Format,
    /// Deals to play (the most, with a sequential test).
    pub deals: u64,
    pub seed: u64,
    /// Worker threads; 0: all cores.
    pub threads: usize,
    /// Stop as soon as this test of the first entrant against the second is decided.
    pub sprt: Option<Sprt>,
    /// Also measure the luck of the cards with this value network and report the
    /// luck-adjusted difference (`adjust` module). The games are the same either way.
    pub adjust: Option<Arc<uno_nn::ValueNet>>,
}

/// The entrant in each seat of a table: the first bot once, then the others in turn to fill
/// the remaining seats (`A,B` at four seats is `A,B,B,B`; `A,B,C` is `A,B,C,B`).
pub fn lineup(entrants: usize, players: usize) -> Vec<usize> {
    (0..players).map(|s| if s == 0 { 0 } else { 1 + (s - 1) % (entrants - 1) }).collect()
}

/// The seatings of a deal: each maps a seat to an entrant.
pub fn seatings(format: Format, entrants: usize, players: usize) -> Vec<Vec<usize>> {
    let line = lineup(entrants, players);
    match format {
        Format::Rotate => {
            (0..players).map(|k| (0..players).map(|s| line[(s + players - k) % players]).collect()).collect()
        }
        Format::AllSeatings => {
            let mut all = Vec::new();
            permutations(&mut line.clone(), 0, &mut all);
            all.sort();
            all.dedup();
            all
        }
        Format::RoundRobin => {
            let mut all = Vec::new();
            for group in groups(entrants, players) {
                all.extend((0..players).map(|k| (0..players).map(|s| group[(s + players - k) % players]).collect()));
            }
            all
        }
    }
}

/// Every set of `size` entrants out of `entrants`, in lexicographic order.
fn groups(entrants: usize, size: usize) -> Vec<Vec<usize>> {
    fn walk(start: usize, entrants: usize, size: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == size {
            out.push(current.clone());
            return;
        }
        for e in start..entrants {
            current.push(e);
            walk(e + 1, entrants, size, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    walk(0, entrants, size, &mut Vec::with_capacity(size), &mut out);
    out
}

/// `n choose k`, saturating.
fn choose(n: usize, k: usize) -> usize {
    let mut result: u128 = 1;
    for i in 0..k.min(n) as u128 {
        result = result.saturating_mul(n as u128 - i) / (i + 1);
    }
    if k > n {
        0
    } else {
        usize::try_from(result).unwrap_or(usize::MAX)
    }
}

fn permutations(items: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
    if k == items.len() {
        out.push(items.clone());
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, out);
        items.swap(k, i);
    }
}

/// Plays deal `deal` of a match once per seating, every seating on the same seeds.
pub fn play_deal(config: &MatchConfig, seatings: &[Vec<usize>], deal: u64) -> Result<Vec<MatchGame>, SimError> {
    Ok(play_deal_with_luck(config, seatings, deal)?.0)
}

/// A deal's games and, with [`MatchConfig::adjust`], each game's luck per seat (else empty).
pub type DealWithLuck = (Vec<MatchGame>, Vec<Vec<f64>>);

/// [`play_deal`], and with [`MatchConfig::adjust`] each game's luck per seat.
pub fn play_deal_with_luck(config: &MatchConfig, seatings: &[Vec<usize>], deal: u64) -> Result<DealWithLuck, SimError> {
    let seed = seeding::sim_game_seed(config.seed, deal);
    let mut out = Vec::with_capacity(seatings.len());
    let mut lucks = Vec::new();
    let mut adjuster = config.adjust.clone().map(crate::adjust::LuckAdjuster::new);
    let mut game = Game::new_fast(config.rules.clone(), config.players, seed)?;
    for (k, seating) in seatings.iter().enumerate() {
        if k > 0 {
            game.restart(seed);
        }
        // The seat, not the entrant, owns the seed: a bot's luck stays with the cards.
        let mut bots: Vec<Box<dyn Bot>> =
            seating.iter().enumerate().map(|(s, &e)| config.bots[e].build(seeding::sim_bot_seed(seed, s))).collect();
        let mut decisions = 0u32;
        let mut stuck = false;
        if let Some(adjuster) = &mut adjuster {
            let mut luck = vec![0.0; config.players];
            (decisions, stuck) = crate::adjust::play_out(&mut game, &mut bots, adjuster, &mut luck, MAX_DECISIONS);
            lucks.push(luck);
        }
        while !game.is_round_over() {
            if decisions >= MAX_DECISIONS {
                stuck = true;
                break;
            }
            let seat = game.current();
            let bot = &mut bots[seat.index()];
            // A whole turn at a time while the cap is more than a turn away (the same game).
            if decisions + TURN_DECISIONS <= MAX_DECISIONS {
                decisions += bot.play_turn(&mut game);
            } else {
                let action = bot.choose_view(&game.view(seat));
                game.apply_unchecked(seat, action);
                decisions += 1;
            }
        }
        let winner = if stuck { None } else { game.round_winner().map(|w| w.index()) };
        let points = winner.map_or(0, |w| game.scores()[w]);
        out.push(MatchGame { seating: seating.clone(), winner, points, decisions, stuck });
    }
    Ok((out, lucks))
}

/// One quantity measured per game and per deal (a deal's value is the mean of its games').
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Paired {
    pub games: Moments,
    pub deals: Moments,
}

impl Paired {
    /// Adds one deal, given its games' values.
    pub fn add_deal(&mut self, games: &[f64]) {
        for &x in games {
            self.games.add(x);
        }
        self.deals.add(games.iter().sum::<f64>() / games.len().max(1) as f64);
    }
    pub fn merge(&mut self, other: &Paired) {
        self.games.merge(&other.games);
        self.deals.merge(&other.deals);
    }
    /// How many times more independent games than games played in deals would give the same
    /// variance of the mean: `(var_game / games) / (var_deal / deals)`. None when the deals
    /// do not vary (no finite factor) or there are fewer than two deals.
    pub fn variance_reduction(&self) -> Option<f64> {
        let duplicate = self.deals.variance_of_mean();
        (self.deals.n >= 2 && duplicate > 0.0).then(|| self.games.variance_of_mean() / duplicate)
    }
    pub fn estimate(&self) -> Estimate {
        Estimate { mean: self.deals.mean(), ci95: self.deals.ci95(), variance_reduction: self.variance_reduction() }
    }
    /// [`Paired::estimate`] of a quantity whose mean lies in `[lo, hi]` (a win share in 0–1):
    /// the interval is cut to that range. Over few deals the normal interval, symmetric about
    /// the mean, reaches past what the quantity can be (a win share from -24% to 74% over two
    /// deals); the true mean lies within the range, so the cut interval covers it as often as
    /// the whole one did, and claims nothing impossible.
    pub fn estimate_within(&self, [lo, hi]: [f64; 2]) -> Estimate {
        let mut e = self.estimate();
        e.ci95 = e.ci95.map(|[a, b]| [a.clamp(lo, hi), b.clamp(lo, hi)]);
        e
    }
}

/// A mean over deals with its 95% interval and variance-reduction factor.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    /// Normal 95% interval over deals, within the values the quantity can take (a win share
    /// 0–1, points from 0, a difference of win shares -1–1); null below two deals.
    pub ci95: Option<[f64; 2]>,
    /// Independent games needed per duplicate game for the same interval; null when the
    /// deals do not vary.
    pub variance_reduction: Option<f64>,
}

/// The running totals of a match.
#[derive(Clone, Debug, Default)]
struct Totals {
    deals: u64,
    games: u64,
    no_winner: u64,
    stuck: u64,
    decisions: u64,
    /// Per entrant: wins, points, seat-games.
    wins: Vec<u64>,
    points: Vec<u64>,
    seat_games: Vec<u64>,
    /// Per entrant: win share per seat held.
    share: Vec<Paired>,
    /// Per entrant: points won per seat held.
    mean_points: Vec<Paired>,
    /// First entrant's win share less the second's.
    difference: Paired,
    /// The same, luck-adjusted (`adjust` module), and the correction it took away.
    adjusted: Paired,
    correction: Paired,
    /// Who won each seating, for the ratings.
    ratings: RatingData,
}

impl Totals {
    fn new(entrants: usize) -> Totals {
        Totals {
            wins: vec![0; entrants],
            points: vec![0; entrants],
            seat_games: vec![0; entrants],
            share: vec![Paired::default(); entrants],
            mean_points: vec![Paired::default(); entrants],
            ratings: RatingData::new(entrants),
            ..Totals::default()
        }
    }

    /// Adds a deal's luck-adjusted difference: each seat's win less its luck (`lucks`, one
    /// entry per game and seat).
    fn add_luck(&mut self, games: &[MatchGame], lucks: &[Vec<f64>]) {
        let mut adjusted = Vec::with_capacity(games.len());
        let mut correction = Vec::with_capacity(games.len());
        for (g, luck) in games.iter().zip(lucks) {
            let seats = |e: usize| g.seating.iter().enumerate().filter(move |&(_, &x)| x == e).map(|(s, _)| s);
            let (n0, n1) = (seats(0).count(), seats(1).count());
            if n0 == 0 || n1 == 0 {
                continue;
            }
            let won = |s: usize| f64::from(u8::from(g.winner == Some(s)));
            let adj = |e: usize, n: usize| seats(e).map(|s| won(s) - luck[s]).sum::<f64>() / n as f64;
            let plain = |e: usize, n: usize| seats(e).map(won).sum::<f64>() / n as f64;
            let a = adj(0, n0) - adj(1, n1);
            adjusted.push(a);
            correction.push(plain(0, n0) - plain(1, n1) - a);
        }
        self.adjusted.add_deal(&adjusted);
        self.correction.add_deal(&correction);
    }

    fn add_deal(&mut self, games: &[MatchGame]) {
        let entrants = self.wins.len();
        self.deals += 1;
        self.ratings.add_deal(games);
        let mut share = vec![Vec::with_capacity(games.len()); entrants];
        let mut points = vec![Vec::with_capacity(games.len()); entrants];
        // The first two entrants head to head: only games where both sit (all of them, but in a
        // round robin).
        let mut diff = Vec::with_capacity(games.len());
        for g in games {
            let seated = |e: usize| g.seating.iter().filter(|&&x| x == e).count();
            let share_of = |e: usize| {
                let won = g.winner.is_some_and(|w| g.seating[w] == e);
                won as u64 as f64 / seated(e) as f64
            };
            if seated(0) > 0 && seated(1) > 0 {
                diff.push(share_of(0) - share_of(1));
            }
            self.games += 1;
            self.decisions += g.decisions as u64;
            self.stuck += g.stuck as u64;
            self.no_winner += g.winner.is_none() as u64;
            for e in 0..entrants {
                let seats = g.seating.iter().filter(|&&x| x == e).count() as u64;
                self.seat_games[e] += seats;
                let won = g.winner.is_some_and(|w| g.seating[w] == e);
                let pts = if won { g.points as u64 } else { 0 };
                self.wins[e] += won as u64;
                self.points[e] += pts;
                if seats > 0 {
                    share[e].push(won as u64 as f64 / seats as f64);
                    points[e].push(pts as f64 / seats as f64);
                }
            }
        }
        self.difference.add_deal(&diff);
        for e in 0..entrants {
            self.share[e].add_deal(&share[e]);
            self.mean_points[e].add_deal(&points[e]);
        }
    }
}

/// One entrant's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntrantResult {
    pub bot: String,
    /// Seats held, summed over the games.
    pub seat_games: u64,
    pub wins: u64,
    pub points: u64,
    /// Wins per seat held.
    pub win_share: Estimate,
    /// Points won per seat held.
    pub mean_points: Estimate,
}

/// The first entrant against the second: win share less win share.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    pub a: String,
    pub b: String,
    pub win_share: Estimate,
}

/// The luck-adjusted difference (`adjust` module) of the first entrant less the second.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Adjusted {
    /// The adjusted difference in win share, over deals.
    pub win_share: Estimate,
    /// The luck taken away (plain less adjusted), per deal: zero in expectation.
    pub correction: Estimate,
    /// The plain difference's per-deal variance over the adjusted one's: how many times fewer
    /// deals the adjusted estimate needs for the same interval width.
    pub fewer_deals: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchResults {
    pub rules: String,
    pub players: usize,
    pub format: Format,
    /// A decimal string in JSON, as every 64-bit seed the project writes.
    #[serde(with = "uno::wide")]
    pub seed: u64,
    /// Deals played (fewer than asked when a sequential test stopped early).
    pub deals: u64,
    pub games: u64,
    /// The seatings every deal was played in, as bot names per seat.
    pub seatings: Vec<Vec<String>>,
    pub entrants: Vec<EntrantResult>,
    pub difference: Difference,
    /// With `adjust`: the luck-adjusted difference beside the plain one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<Adjusted>,
    pub no_winner: u64,
    pub stuck: u64,
    pub decisions: u64,
    pub sprt: Option<SprtReport>,
    /// Every entrant's rating from all the games (`ratings` module).
    pub ratings: Ratings,
}

/// Checks a match before it is played: the seatings it will use.
pub fn check(config: &MatchConfig) -> Result<Vec<Vec<usize>>, MatchError> {
    if config.bots.len() < 2 {
        return Err(MatchError::TooFewBots(config.bots.len()));
    }
    config.rules.check_players(config.players).map_err(SimError::from)?;
    match config.format {
        Format::RoundRobin if config.bots.len() < config.players => {
            return Err(MatchError::TooFewForRoundRobin { bots: config.bots.len(), players: config.players })
        }
        Format::Rotate | Format::AllSeatings if config.bots.len() > config.players => {
            return Err(MatchError::TooManyBots { bots: config.bots.len(), players: config.players })
        }
        _ => {}
    }
    if config.deals == 0 {
        return Err(MatchError::NoDeals);
    }
    // Count before listing: all-seatings of many seats is too large to build.
    let distinct = lineup(config.bots.len(), config.players);
    let count = match config.format {
        Format::Rotate => config.players,
        Format::AllSeatings => {
            let mut counts = vec![0usize; config.bots.len()];
            for &e in &distinct {
                counts[e] += 1;
            }
            multinomial(config.players, &counts)
        }
        Format::RoundRobin => choose(config.bots.len(), config.players).saturating_mul(config.players),
    };
    if count > MAX_SEATINGS {
        return Err(MatchError::TooManySeatings(count));
    }
    Ok(seatings(config.format, config.bots.len(), config.players))
}

/// `n! / (k1! k2! …)`, saturating.
fn multinomial(n: usize, counts: &[usize]) -> usize {
    let mut result: u128 = 1;
    let mut placed = 0u128;
    for &k in counts {
        for i in 1..=k as u128 {
            placed += 1;
            result = result.saturating_mul(placed) / i;
        }
    }
    debug_assert_eq!(placed as usize, n);
    usize::try_from(result).unwrap_or(usize::MAX)
}

/// Plays the match; `progress` gets the number of deals just finished.
pub fn play_match(config: &MatchConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<MatchResults, MatchError> {
    let seatings = check(config)?;
    let threads = if config.threads == 0 {
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
    } else {
        config.threads
    };
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| SimError::Threads(e.to_string()))?;
    let mut totals = Totals::new(config.bots.len());
    let mut decision = None;
    let mut next = 0u64;
    while next < config.deals && decision.is_none() {
        let end = (next + BATCH).min(config.deals);
        let played: Result<Vec<DealWithLuck>, SimError> =
            pool.install(|| (next..end).into_par_iter().map(|d| play_deal_with_luck(config, &seatings, d)).collect());
        for (deal, lucks) in played? {
            totals.add_deal(&deal);
            if config.adjust.is_some() {
                totals.add_luck(&deal, &lucks);
            }
        }
        progress(end - next);
        next = end;
        if let Some(sprt) = &config.sprt {
            decision = sprt.decide(&totals.difference.deals);
        }
    }
    let names: Vec<String> = config.bots.iter().map(ToString::to_string).collect();
    let entrants = (0..names.len())
        .map(|e| EntrantResult {
            bot: names[e].clone(),
            seat_games: totals.seat_games[e],
            wins: totals.wins[e],
            points: totals.points[e],
            win_share: totals.share[e].estimate_within([0.0, 1.0]),
            mean_points: totals.mean_points[e].estimate_within([0.0, f64::INFINITY]),
        })
        .collect();
    Ok(MatchResults {
        rules: config.rules.name().to_string(),
        players: config.players,
        format: config.format,
        seed: config.seed,
        deals: totals.deals,
        games: totals.games,
        seatings: seatings.iter().map(|s| s.iter().map(|&e| names[e].clone()).collect()).collect(),
        entrants,
        difference: Difference {
            a: names[0].clone(),
            b: names[1].clone(),
            win_share: totals.difference.estimate_within([-1.0, 1.0]),
        },
        adjusted: config.adjust.as_ref().map(|_| {
            let adjusted = totals.adjusted.deals.variance();
            Adjusted {
                // Unbiased for the same difference of win shares, so within the same range.
                win_share: totals.adjusted.estimate_within([-1.0, 1.0]),
                correction: totals.correction.estimate(),
                fewer_deals: (adjusted > 0.0).then(|| totals.difference.deals.variance() / adjusted),
            }
        }),
        no_winner: totals.no_winner,
        stuck: totals.stuck,
        decisions: totals.decisions,
        sprt: config.sprt.map(|s| s.report(&totals.difference.deals, decision.unwrap_or(Decision::Undecided))),
        ratings: totals.ratings.ratings(&names),
    })
}

#[cfg(test)]
mod tests;
