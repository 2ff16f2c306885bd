//! Quick-match waves, simulated: waves run every interval over the queue as it stands, people
//! join and leave between them, and each property is checked on what the waves return.
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use league::bots::BOT_LEVELS;
use league::queue::{
    wave, Entry, QueueError, Seating, TableSize, TicketId, Wanted, WaveConfig, DEFAULT_BOT_WAIT, MAX_QUEUE,
};
use league::rating::{RatingFields, INITIAL_MEAN};
use league::{Model, PresetName, Rating, Time};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn official() -> PresetName {
    "official".parse().expect("valid")
}

fn rated(shown: f64) -> Rating {
    let mean = INITIAL_MEAN + (shown - 1500.0) / Model::FITTED.points_per_mean();
    Rating::from_fields(RatingFields { mean, deviation: 2.0, games: 50, last_played: None }).expect("valid")
}

fn entry(ticket: u64, joined_ms: u64, wanted: Wanted, rating: Option<Rating>) -> Entry {
    Entry {
        ticket: TicketId(ticket),
        preset: official(),
        wanted,
        rating,
        joined: Time::from_millis(joined_ms),
        bot_wait: DEFAULT_BOT_WAIT,
    }
}

/// Runs waves every `config.interval` from `first` (ms) while anyone waits, up to `until` (ms);
/// returns each seated ticket's table and the time it was seated.
fn run(mut queue: Vec<Entry>, first: u64, until: u64, config: &WaveConfig) -> Vec<(Time, Seating)> {
    let mut seated = Vec::new();
    let mut t = first;
    while !queue.is_empty() && t <= until {
        let now = Time::from_millis(t);
        let present: Vec<Entry> = queue.iter().filter(|e| e.joined <= now).cloned().collect();
        let w = wave(&present, now, config).expect("valid");
        let gone: BTreeSet<TicketId> = w.tables.iter().flat_map(|s| s.people.clone()).collect();
        queue.retain(|e| !gone.contains(&e.ticket));
        seated.extend(w.tables.into_iter().map(|s| (now, s)));
        t += config.interval.as_millis() as u64;
    }
    seated
}

#[test]
fn a_burst_of_people_is_seated_in_one_or_two_waves() {
    let config = WaveConfig::default();
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for (burst, trial) in [8usize, 9, 12, 16, 23].into_iter().flat_map(|n| (0..20).map(move |t| (n, t))) {
        // Arrivals within one second, ratings spread as a site's players are (guests, newcomers,
        // a few hundred points either way), the size chosen by some.
        let queue: Vec<Entry> = (0..burst as u64)
            .map(|i| {
                let rating = match rng.gen_range(0..3) {
                    0 => None,
                    1 => Some(Rating::newcomer()),
                    _ => Some(rated(rng.gen_range(1450.0..1550.0))),
                };
                let wanted = if rng.gen_bool(0.8) { Wanted::Any } else { Wanted::Seats(TableSize::FOUR) };
                entry(i, rng.gen_range(0..1000), wanted, rating)
            })
            .collect();
        let phase = rng.gen_range(1000..2000);
        let seated = run(queue, phase, 60_000, &config);
        let people: usize = seated.iter().map(|(_, s)| s.people.len()).sum();
        let full_tables = burst / 4 * 4;
        // Everyone who can make a full table does within two waves.
        let early: usize = seated
            .iter()
            .filter(|(t, _)| t.millis() <= phase + config.interval.as_millis() as u64)
            .map(|(_, s)| s.people.len())
            .sum();
        assert!(early >= full_tables, "burst {burst} trial {trial}: {early} of {full_tables} seated in two waves");
        assert_eq!(people, burst, "burst {burst}: everyone seated at last");
    }
}

#[test]
fn a_lone_person_gets_bots_at_the_chosen_wait_within_one_interval() {
    let config = WaveConfig::default();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for wait in [DEFAULT_BOT_WAIT, Duration::from_secs(5), Duration::from_secs(45)] {
        for _ in 0..50 {
            let joined = rng.gen_range(0..10_000);
            let mut e = entry(1, joined, Wanted::Any, Some(rated(rng.gen_range(1460.0..1540.0))));
            e.bot_wait = wait;
            let phase = rng.gen_range(0..1000);
            let seated = run(vec![e], phase, 1_000_000, &config);
            assert_eq!(seated.len(), 1);
            let (at, table) = &seated[0];
            let after = at.since(Time::from_millis(joined));
            assert!(after >= wait && after < wait + config.interval, "{wait:?}: seated after {after:?}");
            assert_eq!(table.bots.len(), 3);
            assert!(!table.rated, "bots make a table casual");
        }
    }
}

#[test]
fn bots_are_of_the_level_nearest_the_group() {
    let config = WaveConfig::default();
    for level in BOT_LEVELS {
        let shown = f64::from(Model::FITTED.shown(&level.rating, Time::default()).points.0);
        let queue = vec![entry(1, 0, Wanted::Seats(TableSize::THREE), Some(rated(shown)))];
        let w = wave(&queue, Time::from_millis(20_000), &config).expect("valid");
        assert_eq!(w.tables[0].bots, vec![level.name; 2]);
    }
}

#[test]
fn the_tolerance_widens_with_waiting() {
    let config = WaveConfig { small_after: Duration::ZERO, ..WaveConfig::default() };
    let gap = config.tolerance + 20.0;
    let queue = vec![
        entry(1, 0, Wanted::Seats(TableSize::TWO), Some(rated(1500.0))),
        entry(2, 0, Wanted::Seats(TableSize::TWO), Some(rated(1500.0 + gap))),
    ];
    let at = |s: u64| wave(&queue, Time::from_millis(s * 1000), &config).expect("valid");
    assert!(at(0).tables.is_empty(), "too far apart at first");
    let widened = at(7);
    assert_eq!(widened.tables.len(), 1, "within tolerance after 7 s of widening");
    assert_eq!(widened.tables[0].people, vec![TicketId(1), TicketId(2)]);
    assert!(widened.tables[0].rated && widened.tables[0].bots.is_empty());
    assert!(widened.waiting.is_empty());
}

#[test]
fn sizes_and_presets_are_kept_apart() {
    let config = WaveConfig::default();
    let mut other = entry(4, 0, Wanted::Any, None);
    other.preset = "cs410".parse().expect("valid");
    let queue = vec![
        entry(1, 0, Wanted::Seats(TableSize::TWO), None),
        entry(2, 0, Wanted::Seats(TableSize::THREE), None),
        entry(3, 0, Wanted::Any, None),
        other,
    ];
    // Whoever asked for two seats sits with whoever takes any size at once.
    let w = wave(&queue, Time::from_millis(1000), &config).expect("valid");
    assert_eq!(w.tables.len(), 1);
    let t = &w.tables[0];
    assert_eq!((t.size, t.people.clone()), (TableSize::TWO, vec![TicketId(1), TicketId(3)]));
    assert_eq!(w.waiting, vec![TicketId(2), TicketId(4)]);
}

#[test]
fn people_who_take_any_size_wait_a_little_for_four() {
    let config = WaveConfig::default();
    let queue: Vec<Entry> = (1..=3).map(|i| entry(i, 0, Wanted::Any, None)).collect();
    assert!(wave(&queue, Time::from_millis(1000), &config).expect("valid").tables.is_empty());
    let w = wave(&queue, Time::from_millis(config.small_after.as_millis() as u64), &config).expect("valid");
    assert_eq!(w.tables.len(), 1);
    assert_eq!((w.tables[0].size, w.tables[0].people.len(), w.tables[0].bots.len()), (TableSize::THREE, 3, 0));
    // A fourth arriving in time makes it four.
    let mut four = queue.clone();
    four.push(entry(4, 500, Wanted::Any, None));
    let w = wave(&four, Time::from_millis(1000), &config).expect("valid");
    assert_eq!((w.tables.len(), w.tables[0].size), (1, TableSize::FOUR));
}

#[test]
fn refusals_are_named() {
    let config = WaveConfig::default();
    let now = Time::from_millis(0);
    let e = entry(1, 0, Wanted::Any, None);
    assert_eq!(wave(&[e.clone(), e.clone()], now, &config), Err(QueueError::Duplicate(TicketId(1))));
    let many: Vec<Entry> = (0..=MAX_QUEUE as u64).map(|i| entry(i, 0, Wanted::Any, None)).collect();
    assert_eq!(wave(&many, now, &config), Err(QueueError::TooMany(MAX_QUEUE + 1)));
    let long = Entry { bot_wait: Duration::from_secs(3600), ..e.clone() };
    assert_eq!(wave(&[long], now, &config), Err(QueueError::BotWait(Duration::from_secs(3600))));
    assert_eq!(TableSize::new(5), Err(QueueError::Size(5)));
    let bad = WaveConfig { interval: Duration::ZERO, ..config };
    assert_eq!(wave(&[e], now, &bad), Err(QueueError::Config));
}

/// 1,000 joins and leaves at random over waves every second: every table is whole and well
/// formed, nobody is seated twice, and nobody who left is ever seated.
#[test]
fn joins_and_leaves_at_random_never_seat_a_ghost_or_anyone_twice() {
    let config = WaveConfig::default();
    for seed in 0..5 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut queue: BTreeMap<TicketId, Entry> = BTreeMap::new();
        let mut left: BTreeSet<TicketId> = BTreeSet::new();
        let mut seated: BTreeSet<TicketId> = BTreeSet::new();
        let (mut next, mut events, mut t) = (0u64, 0, 0u64);
        while events < 1000 || !queue.is_empty() {
            // Between two waves: a few arrivals and departures at random moments.
            for _ in 0..rng.gen_range(0..4) {
                if events >= 1000 {
                    break;
                }
                events += 1;
                if !queue.is_empty() && rng.gen_bool(0.4) {
                    let k = *queue.keys().nth(rng.gen_range(0..queue.len())).expect("valid");
                    queue.remove(&k);
                    left.insert(k);
                } else {
                    next += 1;
                    let wanted = match rng.gen_range(0..4) {
                        0 => Wanted::Any,
                        n => Wanted::Seats(TableSize::new(n + 1).expect("valid")),
                    };
                    let rating = rng.gen_bool(0.6).then(|| rated(rng.gen_range(1300.0..1700.0)));
                    let mut e = entry(next, t + rng.gen_range(0..1000), wanted, rating);
                    e.bot_wait = Duration::from_secs(rng.gen_range(3..30));
                    if rng.gen_bool(0.2) {
                        e.preset = "cs410".parse().expect("valid");
                    }
                    queue.insert(e.ticket, e);
                }
            }
            t += 1000;
            let now = Time::from_millis(t);
            let entries: Vec<Entry> = queue.values().cloned().collect();
            let w = wave(&entries, now, &config).expect("valid");
            let mut this_wave = BTreeSet::new();
            for table in &w.tables {
                assert_eq!(table.people.len() + table.bots.len(), table.size.seats(), "a whole table");
                assert!(!table.people.is_empty());
                for p in &table.people {
                    assert!(!left.contains(p), "seed {seed}: {p:?} left and was seated");
                    let e = queue.get(p).expect("seated from the queue as it stood");
                    assert!(e.preset == table.preset && e.wanted_accepts(table.size));
                    assert!(seated.insert(*p), "seed {seed}: {p:?} seated twice");
                    assert!(this_wave.insert(*p));
                }
            }
            // Everyone is either seated or still waiting, once.
            let waiting: BTreeSet<TicketId> = w.waiting.iter().copied().collect();
            assert_eq!(waiting.len(), w.waiting.len());
            assert!(waiting.is_disjoint(&this_wave));
            assert_eq!(waiting.len() + this_wave.len(), entries.len());
            for p in this_wave {
                queue.remove(&p);
            }
        }
        assert!(seated.len() > 200, "seed {seed}: {} seated", seated.len());
    }
}

trait Accepts {
    fn wanted_accepts(&self, size: TableSize) -> bool;
}

impl Accepts for Entry {
    fn wanted_accepts(&self, size: TableSize) -> bool {
        match self.wanted {
            Wanted::Any => true,
            Wanted::Seats(s) => s == size,
        }
    }
}
