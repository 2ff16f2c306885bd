//! Quick-match waves: who in the queue sits down together now.
//!
//! The server keeps the queue (one for a whole cluster, held by one instance) and, once every
//! [`WaveConfig::interval`], calls [`wave`] with the queue as it stands and the time; it seats the
//! returned tables and keeps the rest. The function is pure, so a person who left the queue before
//! the wave is simply not in its input and can never be seated: no ghost seats by construction.
//!
//! How a wave groups people, as lichess's pools do with a widening range and Colyseus's queue
//! with bots after a timeout:
//!
//! * **Neighbours in rating.** For each preset and table size (four first), a sweep up the
//!   ratings of those who accept the size seats each run of neighbours that fits, so a burst
//!   splits into tables of close ratings with nobody stranded between them.
//! * **Rating tolerance widens with waiting.** A group is allowed when the spread of its shown
//!   ratings is within every member's tolerance, [`WaveConfig::tolerance`] plus
//!   [`WaveConfig::widening`] per second waited. Guests count as newcomers (1500).
//! * **Full tables first.** People who take any size sit at three or two only once one of them
//!   has waited [`WaveConfig::small_after`] or someone at the table asked for that size, so a
//!   burst fills whole tables.
//! * **Bots after the wait each person chose** (default 20 s): longest waiting first, each is
//!   seated with whoever near them fits and accepts the size, and bots of the level nearest the
//!   group's mean rating fill the rest. Others seated with them before their own wait is over
//!   gain a person's company.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::bots::{self, BotName};
use crate::rating::{Model, PresetName, Rating, INITIAL_MEAN};
use crate::Time;

/// The wait before bots fill a table, unless a person chooses another.
pub const DEFAULT_BOT_WAIT: Duration = Duration::from_secs(20);
/// The longest wait before bots a person may choose.
pub const MAX_BOT_WAIT: Duration = Duration::from_secs(600);
/// The most entries one wave looks at: each anchor sorts the rest by rating, so the work grows
/// with the square of the queue in the worst case (2,000 entries are some milliseconds).
pub const MAX_QUEUE: usize = 2_000;

/// The server's id of one queue entry (one person's one visit to the queue).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TicketId(pub u64);

/// A quick-match table's size: 2 to 4 seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct TableSize(u8);

impl TableSize {
    pub const TWO: TableSize = TableSize(2);
    pub const THREE: TableSize = TableSize(3);
    pub const FOUR: TableSize = TableSize(4);

    /// # Errors
    /// [`QueueError::Size`] outside 2..=4.
    pub const fn new(seats: u8) -> Result<TableSize, QueueError> {
        if seats >= 2 && seats <= 4 {
            Ok(TableSize(seats))
        } else {
            Err(QueueError::Size(seats))
        }
    }

    pub const fn seats(self) -> usize {
        self.0 as usize
    }
}

impl TryFrom<u8> for TableSize {
    type Error = QueueError;
    fn try_from(n: u8) -> Result<TableSize, QueueError> {
        TableSize::new(n)
    }
}

impl From<TableSize> for u8 {
    fn from(s: TableSize) -> u8 {
        s.0
    }
}

/// The table sizes a person accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wanted {
    /// Exactly this many seats.
    Seats(TableSize),
    /// Any of 2 to 4 (four preferred).
    Any,
}

impl Wanted {
    fn accepts(self, size: TableSize) -> bool {
        match self {
            Wanted::Seats(s) => s == size,
            Wanted::Any => true,
        }
    }
}

/// One person waiting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub ticket: TicketId,
    pub preset: PresetName,
    pub wanted: Wanted,
    /// Their rating in the preset's pool; `None` for a guest.
    pub rating: Option<Rating>,
    pub joined: Time,
    /// How long they wait for people before bots fill the table.
    pub bot_wait: Duration,
}

/// How waves group people.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaveConfig {
    /// Time between waves (the server's timer; a person's bots come within one interval of
    /// their wait).
    pub interval: Duration,
    /// The spread of shown ratings allowed at a table of people who just joined.
    pub tolerance: f64,
    /// Shown points the tolerance widens by per second waited.
    pub widening: f64,
    /// How long someone who takes any size waits for a table of four before three or two
    /// people sit down together.
    pub small_after: Duration,
    /// The rating model the shown ratings come from.
    pub model: Model,
}

impl Default for WaveConfig {
    fn default() -> WaveConfig {
        WaveConfig {
            interval: Duration::from_secs(1),
            tolerance: 60.0,
            widening: 6.0,
            small_after: Duration::from_secs(5),
            model: Model::FITTED,
        }
    }
}

/// One table to seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Seating {
    pub preset: PresetName,
    pub size: TableSize,
    /// The people, longest waiting first.
    pub people: Vec<TicketId>,
    /// The bots filling the other seats.
    pub bots: Vec<BotName>,
    /// Every seat is a signed-in person (no guest, no bot): the table may be rated.
    pub rated: bool,
}

/// What a wave decided.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Wave {
    pub tables: Vec<Seating>,
    /// Who stays in the queue, in the order they joined.
    pub waiting: Vec<TicketId>,
}

/// Why a wave could not be run.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum QueueError {
    #[error("ticket {0:?} is in the queue twice")]
    Duplicate(TicketId),
    #[error("{0} entries in one wave; at most {MAX_QUEUE}")]
    TooMany(usize),
    #[error("a wait before bots of {0:?} is past the longest, {MAX_BOT_WAIT:?}")]
    BotWait(Duration),
    #[error("a quick-match table has 2 to 4 seats, not {0}")]
    Size(u8),
    #[error("a wave's interval must be positive and its tolerance and widening finite, not negative")]
    Config,
}

/// The tables to seat from `queue` at `now`, and who stays.
///
/// # Errors
/// [`QueueError::Duplicate`] for a ticket listed twice, [`QueueError::TooMany`] past
/// [`MAX_QUEUE`], [`QueueError::BotWait`] past [`MAX_BOT_WAIT`], [`QueueError::Config`] for a
/// config that could seat no one.
pub fn wave(queue: &[Entry], now: Time, config: &WaveConfig) -> Result<Wave, QueueError> {
    check(queue, config)?;
    let skill: Vec<f64> =
        queue.iter().map(|e| f64::from(config.model.shown(&e.rating.unwrap_or_default(), now).points.0)).collect();
    let waited: Vec<Duration> = queue.iter().map(|e| now.since(e.joined)).collect();
    let tolerance: Vec<f64> = waited.iter().map(|w| config.tolerance + config.widening * w.as_secs_f64()).collect();
    let mut order: Vec<usize> = (0..queue.len()).collect();
    order.sort_by_key(|&i| (queue[i].joined, queue[i].ticket));
    let mut seated = vec![false; queue.len()];
    let mut wave = Wave::default();
    let fits = |group: &[usize]| {
        let (lo, hi, tol) = group.iter().fold((f64::MAX, f64::MIN, f64::MAX), |(lo, hi, t), &m| {
            (lo.min(skill[m]), hi.max(skill[m]), t.min(tolerance[m]))
        });
        hi - lo <= tol
    };
    let seat = |wave: &mut Wave, seated: &mut [bool], size: TableSize, mut people: Vec<usize>| {
        people.sort_by_key(|&i| (queue[i].joined, queue[i].ticket));
        let mean = people.iter().map(|&i| queue[i].rating.map_or(INITIAL_MEAN, |r| r.mean())).sum::<f64>()
            / people.len() as f64;
        let bots = vec![bots::nearest(mean).name; size.seats() - people.len()];
        for &i in &people {
            seated[i] = true;
        }
        wave.tables.push(Seating {
            preset: queue[people[0]].preset.clone(),
            size,
            rated: bots.is_empty() && people.iter().all(|&i| queue[i].rating.is_some()),
            people: people.iter().map(|&i| queue[i].ticket).collect(),
            bots,
        });
    };
    let mut presets: Vec<&PresetName> = queue.iter().map(|e| &e.preset).collect();
    presets.sort();
    presets.dedup();
    // Tables of people only, four seats first: a sweep up the ratings of those who accept the
    // size, seating each run of neighbours whose spread every one of them tolerates.
    for preset in presets {
        for size in [TableSize::FOUR, TableSize::THREE, TableSize::TWO] {
            let anchors = |i: usize| match queue[i].wanted {
                Wanted::Seats(s) => s == size,
                Wanted::Any => size == TableSize::FOUR || waited[i] >= config.small_after,
            };
            let mut pool: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&i| !seated[i] && &queue[i].preset == preset && queue[i].wanted.accepts(size))
                .collect();
            pool.sort_by(|&x, &y| skill[x].total_cmp(&skill[y]));
            let mut i = 0;
            while i + size.seats() <= pool.len() {
                let group = &pool[i..i + size.seats()];
                if fits(group) && group.iter().any(|&m| anchors(m)) {
                    seat(&mut wave, &mut seated, size, group.to_vec());
                    i += size.seats();
                } else {
                    i += 1;
                }
            }
        }
    }
    // Then bots, for whoever has waited as long as they chose, longest waiting first, with the
    // people nearest them who accept the size.
    for &a in &order {
        if seated[a] || waited[a] < queue[a].bot_wait {
            continue;
        }
        let size = match queue[a].wanted {
            Wanted::Seats(s) => s,
            Wanted::Any => TableSize::FOUR,
        };
        let mut near: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&b| b != a && !seated[b] && queue[b].preset == queue[a].preset && queue[b].wanted.accepts(size))
            .collect();
        near.sort_by(|&x, &y| (skill[x] - skill[a]).abs().total_cmp(&(skill[y] - skill[a]).abs()));
        let mut group = vec![a];
        for b in near {
            if group.len() == size.seats() {
                break;
            }
            group.push(b);
            if !fits(&group) {
                group.pop();
            }
        }
        seat(&mut wave, &mut seated, size, group);
    }
    wave.waiting = order.iter().filter(|&&i| !seated[i]).map(|&i| queue[i].ticket).collect();
    Ok(wave)
}

fn check(queue: &[Entry], config: &WaveConfig) -> Result<(), QueueError> {
    if queue.len() > MAX_QUEUE {
        return Err(QueueError::TooMany(queue.len()));
    }
    let sane = |x: f64| x.is_finite() && x >= 0.0;
    if config.interval.is_zero() || !sane(config.tolerance) || !sane(config.widening) {
        return Err(QueueError::Config);
    }
    let mut tickets: Vec<TicketId> = queue.iter().map(|e| e.ticket).collect();
    tickets.sort_unstable();
    if let Some(w) = tickets.windows(2).find(|w| w[0] == w[1]) {
        return Err(QueueError::Duplicate(w[0]));
    }
    if let Some(e) = queue.iter().find(|e| e.bot_wait > MAX_BOT_WAIT) {
        return Err(QueueError::BotWait(e.bot_wait));
    }
    Ok(())
}
