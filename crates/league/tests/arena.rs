//! Whole arena tournaments, simulated: 64 bot entrants of different strength, games of random
//! length, pairings every 10 seconds for an hour; each of the pairing's promises is a check
//! that counts its violations, run on the arena and (so that each check can fail) on a naive
//! pairing that breaks it.
use std::collections::{BTreeMap, BTreeSet};

use league::arena::{Arena, ArenaError, ArenaRules, ArenaTable, EntrantId, Points, Presence, TableId};
use league::Place;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ENTRANTS: u64 = 64;
/// The strength (Plackett–Luce weight) of a bot filling a seat.
const BOT_STRENGTH: f64 = 1.0;

/// What the checks remember between pairings.
#[derive(Default)]
struct Checks {
    /// Consecutive pairings each entrant was left waiting while at least three others were free.
    strikes: BTreeMap<EntrantId, u32>,
    /// The other entrants at each one's last table (from the results, not the arena's records).
    last: BTreeMap<EntrantId, BTreeSet<EntrantId>>,
    waited_twice: usize,
    far_apart: usize,
    leader_not_first: usize,
    same_three: usize,
    /// How often seating the free in plain order of score would have seated the same three.
    naive_same_three: usize,
    tables: usize,
}

impl Checks {
    /// `free`: who was free, leaders first; `tables`: what the pairing seated.
    fn pairing(&mut self, free: &[EntrantId], tables: &[Vec<EntrantId>]) {
        let seated: BTreeSet<EntrantId> = tables.iter().flatten().copied().collect();
        for e in free {
            let strike = self.strikes.entry(*e).or_default();
            if !seated.contains(e) && free.len() >= 4 {
                *strike += 1;
                if *strike >= 2 {
                    self.waited_twice += 1;
                }
            } else {
                *strike = 0;
            }
        }
        let naive: Vec<&[EntrantId]> = free[..free.len() / 4 * 4].chunks(4).collect();
        self.naive_same_three += naive.iter().filter(|t| self.repeats(t)).count();
        // Ranks among those seated, by the standings at the pairing.
        let order: Vec<EntrantId> = free.iter().copied().filter(|e| seated.contains(e)).collect();
        let rank = |e: &EntrantId| order.iter().position(|o| o == e).unwrap_or(usize::MAX);
        for (i, t) in tables.iter().enumerate() {
            self.tables += 1;
            let ranks: Vec<usize> = t.iter().map(rank).collect();
            let span = ranks.iter().max().expect("valid") - ranks.iter().min().expect("valid");
            if span > 7 {
                self.far_apart += 1;
            }
            if i == 0 && order.len() >= 8 && !t.contains(&order[0]) {
                self.leader_not_first += 1;
            }
            let others_free = free.len() > t.len();
            for m in t {
                let Some(last) = self.last.get(m) else { continue };
                if others_free && last.len() == 3 && last.iter().all(|o| t.contains(o)) {
                    self.same_three += 1;
                }
            }
        }
    }

    fn repeats(&self, t: &[EntrantId]) -> bool {
        t.iter().any(|m| self.last.get(m).is_some_and(|l| l.len() == 3 && l.iter().all(|o| t.contains(o))))
    }

    fn played(&mut self, table: &[EntrantId]) {
        for m in table {
            self.last.insert(*m, table.iter().copied().filter(|o| o != m).collect());
        }
    }
}

/// Places at a table: Plackett–Luce by strength, bots filling the empty seats.
fn places(rng: &mut ChaCha8Rng, strength: &[f64], table: &ArenaTable) -> Vec<(EntrantId, Place)> {
    let mut left: Vec<(Option<EntrantId>, f64)> =
        table.entrants.iter().map(|e| (Some(*e), strength[e.0 as usize])).collect();
    left.extend((0..table.bots).map(|_| (None, BOT_STRENGTH)));
    let mut out = Vec::new();
    let mut place = 1;
    while !left.is_empty() {
        let total: f64 = left.iter().map(|(_, s)| s).sum();
        let mut x = rng.gen_range(0.0..total);
        let i = left.iter().position(|(_, s)| {
            x -= s;
            x < 0.0
        });
        let (who, _) = left.remove(i.unwrap_or(left.len() - 1));
        if let Some(e) = who {
            out.push((e, Place::new(place).expect("valid")));
        }
        place += 1;
    }
    out
}

struct Tournament {
    checks: Checks,
    arena: Arena,
    strength: Vec<f64>,
    awarded: BTreeMap<EntrantId, u32>,
}

/// An hour of arena: pairings every 10 s, games of 1 to 6 minutes (or all of 2 minutes, so that
/// everyone is free at once and the leaders would meet again and again); some entrants leave
/// for a while and come back.
fn tournament(seed: u64, rules: ArenaRules, even_games: bool) -> Tournament {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let strength: Vec<f64> = (0..ENTRANTS).map(|_| rng.gen_range(0.3f64..3.0)).collect();
    let mut arena = Arena::new(rules);
    for e in 0..ENTRANTS {
        arena.join(EntrantId(e)).expect("valid");
    }
    let mut checks = Checks::default();
    let mut playing: Vec<(u64, ArenaTable)> = Vec::new();
    let mut away: Vec<(u64, EntrantId)> = Vec::new();
    let mut awarded: BTreeMap<EntrantId, u32> = BTreeMap::new();
    for t in (0..3600).step_by(10) {
        let (done, still): (Vec<_>, Vec<_>) = playing.into_iter().partition(|(end, _)| *end <= t);
        playing = still;
        for (_, table) in done {
            let result = places(&mut rng, &strength, &table);
            for a in arena.record(table.id, &result).expect("valid") {
                *awarded.entry(a.entrant).or_default() += a.points.0;
            }
            checks.played(&table.entrants);
        }
        // Now and then someone steps away for a few minutes (or leaves mid-game).
        if rng.gen_bool(0.1) {
            let e = EntrantId(rng.gen_range(0..ENTRANTS));
            if arena.leave(e).is_ok() {
                away.push((t + rng.gen_range(60..600), e));
            }
        }
        let (back, gone): (Vec<_>, Vec<_>) = away.into_iter().partition(|(when, _)| *when <= t);
        away = gone;
        for (_, e) in back {
            if arena.join(e).is_err() {
                away.push((t + 10, e));
            }
        }
        let free = arena.free();
        let tables = arena.pair();
        checks.pairing(&free, &tables.iter().map(|t| t.entrants.clone()).collect::<Vec<_>>());
        for table in tables {
            assert!(table.entrants.len() + table.bots == 4);
            assert!(rules.bots_fill || table.bots == 0);
            let length = if even_games { 120 } else { rng.gen_range(60..360) };
            playing.push((t + length, table));
        }
    }
    Tournament { checks, arena, strength, awarded }
}

#[test]
fn whole_tournaments_keep_every_pairing_promise() {
    let mut naive_same_three = 0;
    for seed in 0..6 {
        for (rules, even) in [
            (ArenaRules::default(), false),
            (ArenaRules { bots_fill: false, ..ArenaRules::default() }, false),
            (ArenaRules::default(), true),
        ] {
            let Tournament { checks, arena, strength, awarded } = tournament(seed, rules, even);
            naive_same_three += checks.naive_same_three;
            assert!(checks.tables > 200, "seed {seed}: {} tables", checks.tables);
            assert_eq!(checks.waited_twice, 0, "seed {seed}: waited twice while three others were free");
            assert_eq!(checks.far_apart, 0, "seed {seed}: a table spread over more than two tables' ranks");
            assert_eq!(checks.leader_not_first, 0, "seed {seed}: the leader not at the first table");
            assert_eq!(checks.same_three, 0, "seed {seed}: the same three twice in a row");
            // Standings: every point awarded counted once, in order, stronger bots near the top.
            let standings = arena.standings();
            assert_eq!(standings.len(), ENTRANTS as usize);
            for s in &standings {
                assert_eq!(s.points.0, awarded.get(&s.entrant).copied().unwrap_or(0));
            }
            assert!(standings.windows(2).all(|w| w[0].points >= w[1].points && w[0].rank <= w[1].rank));
            let top: f64 = standings[..16].iter().map(|s| strength[s.entrant.0 as usize]).sum();
            let bottom: f64 = standings[48..].iter().map(|s| strength[s.entrant.0 as usize]).sum();
            assert!(top > bottom, "seed {seed}: the top quarter is stronger ({top} vs {bottom})");
        }
    }
    // The promise was put to the test: plain order of score would have broken it.
    assert!(naive_same_three > 20, "{naive_same_three}");
}

/// Each check catches what it is for: a pairing that seats free entrants in a random order,
/// always leaves the same ones waiting, and seats the same four together again.
#[test]
fn each_check_catches_a_pairing_that_breaks_it() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let free: Vec<EntrantId> = (0..18).map(EntrantId).collect();
    let mut checks = Checks::default();
    let naive = |order: &[EntrantId]| order[..16].chunks(4).map(<[EntrantId]>::to_vec).collect::<Vec<_>>();
    // The same two left out twice: waited twice.
    checks.pairing(&free, &naive(&free));
    checks.pairing(&free, &naive(&free));
    assert!(checks.waited_twice > 0);
    // The same four again: the same three.
    for t in naive(&free) {
        checks.played(&t);
    }
    checks.pairing(&free, &naive(&free));
    assert!(checks.same_three > 0);
    // A random order: leaders far apart.
    let mut shuffled = free.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.gen_range(0..=i));
    }
    checks.pairing(&free, &naive(&shuffled));
    assert!(checks.far_apart > 0 || checks.leader_not_first > 0);
}

#[test]
fn points_by_place_and_the_streak_bonus() {
    let rules = ArenaRules { place_points: [10, 4, 2, 0], streak_bonus: 3, bots_fill: true };
    let mut arena = Arena::new(rules);
    for e in 0..4 {
        arena.join(EntrantId(e)).expect("valid");
    }
    let p = |n| Place::new(n).expect("valid");
    let play = |arena: &mut Arena, winner: u64| {
        let tables = arena.pair();
        assert_eq!(tables.len(), 1);
        let places: Vec<(EntrantId, Place)> = (0..4)
            .map(|e| (EntrantId(e), if e == winner { p(1) } else { p(2 + (e + 4 - winner) as u8 % 3) }))
            .collect();
        arena.record(tables[0].id, &places).expect("valid")
    };
    play(&mut arena, 0);
    let second = play(&mut arena, 0);
    let third = play(&mut arena, 1);
    let award =
        |awards: &[league::arena::Award], e| awards.iter().find(|a| a.entrant == EntrantId(e)).expect("valid").points;
    assert_eq!(award(&second, 0), Points(13), "a second win in a row takes the bonus");
    assert_eq!(award(&third, 1), Points(10), "a first win does not");
    assert_eq!(arena.entrant(EntrantId(0)).expect("valid").streak, 0);
    assert_eq!(arena.entrant(EntrantId(1)).expect("valid").streak, 1);
    let standings = arena.standings();
    assert_eq!(standings[0].entrant, EntrantId(0));
    assert_eq!(standings[0].points.0, 10 + 13 + award(&third, 0).0);
}

#[test]
fn fewer_than_four_wait_once_then_bots_fill_when_allowed() {
    for bots_fill in [true, false] {
        let mut arena = Arena::new(ArenaRules { bots_fill, ..ArenaRules::default() });
        arena.join(EntrantId(1)).expect("valid");
        arena.join(EntrantId(2)).expect("valid");
        assert!(arena.pair().is_empty(), "a first wait");
        let second = arena.pair();
        if bots_fill {
            assert_eq!(second.len(), 1);
            assert_eq!((second[0].entrants.len(), second[0].bots), (2, 2));
        } else {
            assert!(second.is_empty());
        }
    }
}

#[test]
fn refusals_are_named() {
    let mut arena = Arena::new(ArenaRules::default());
    for e in 0..4 {
        arena.join(EntrantId(e)).expect("valid");
    }
    assert_eq!(arena.join(EntrantId(0)), Err(ArenaError::AlreadyIn(EntrantId(0))));
    assert_eq!(arena.leave(EntrantId(9)), Err(ArenaError::NotIn(EntrantId(9))));
    let table = arena.pair().remove(0);
    let p = |n| Place::new(n).expect("valid");
    assert_eq!(arena.record(TableId(99), &[]), Err(ArenaError::NoTable(TableId(99))));
    let short = [(EntrantId(0), p(1)), (EntrantId(1), p(2)), (EntrantId(2), p(3))];
    assert_eq!(arena.record(table.id, &short), Err(ArenaError::Entrants(table.id)));
    let twice = [(EntrantId(0), p(1)), (EntrantId(0), p(2)), (EntrantId(2), p(3)), (EntrantId(3), p(4))];
    assert_eq!(arena.record(table.id, &twice), Err(ArenaError::Entrants(table.id)));
    let fifth = [(EntrantId(0), p(1)), (EntrantId(1), p(2)), (EntrantId(2), p(3)), (EntrantId(3), p(5))];
    assert_eq!(arena.record(table.id, &fifth), Err(ArenaError::Place(5)));
    // Leaving during a game takes effect when it is recorded; the points stay.
    arena.leave(EntrantId(3)).expect("valid");
    let ok = [(EntrantId(0), p(1)), (EntrantId(1), p(2)), (EntrantId(2), p(3)), (EntrantId(3), p(4))];
    arena.record(table.id, &ok).expect("valid");
    assert_eq!(arena.record(table.id, &ok), Err(ArenaError::NoTable(table.id)));
    let gone = arena.entrant(EntrantId(3)).expect("valid");
    assert_eq!((gone.presence, gone.points), (Presence::Left, Points(1)));
    arena.join(EntrantId(3)).expect("valid");
    assert_eq!(arena.entrant(EntrantId(3)).expect("valid").presence, Presence::Free);
    // The arena is a value the server stores.
    let text = serde_json::to_string(&arena).expect("valid");
    assert_eq!(serde_json::from_str::<Arena>(&text).expect("valid"), arena);
}
