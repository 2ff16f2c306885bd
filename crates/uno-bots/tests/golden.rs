//! The engine's behaviour, seed for seed, as golden data: every rule set of `uno::testing`
//! (every preset, every house rule, their combinations), every player count the rules seat,
//! several seeds, played by the `random`, `heuristic`, `uniform` and (where seed 000's
//! precedence decides) `precedence` bots, on both generators. Each line of
//! `tests/golden/engine.txt` is one (rule set, players, table) group: a digest of every game's
//! whole history (each decision's legal actions, the action, the events it caused, with every
//! drawn card), its final position (hands in order, piles in order, the generator's state) and
//! its outcome, and the decisions taken.
//!
//! So any change in what the engine does, however small (a random number drawn in another
//! order, a hand's order, a legal action listed in another place), fails here, and a rewrite of
//! the engine is held to today's. A change meant to alter behaviour rewrites the file
//! (`UNO_GOLDEN=update cargo test -p uno-bots --test golden`) and says so.

use std::fmt::Write as _;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::testing::{rule_sets, RuleSet};
use uno::{Game, Seat};
use uno_bots::{Bot, HeuristicBot, PrecedenceBot, RandomBot, UniformBot};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/engine.txt");

/// Decisions after which a game is cut short (the digest says where it stood).
const MAX_DECISIONS: u32 = 4_000;

/// FNV-1a over bytes: small, stable, written here so the digest does not depend on the engine.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
    fn text(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn json<T: serde::Serialize>(&mut self, v: &T) {
        self.text(&serde_json::to_string(v).expect("serialisable"));
    }
}

/// Who sits at the table, and on which generator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Table {
    /// `random` bots on the simulation generator (`Game::new_fast`), seeded as `uno sim` seeds them.
    RandomFast,
    /// `random` bots on the recorded games' generator (`Game::new`).
    Random,
    /// `heuristic` bots.
    Heuristic,
    /// `heuristic` and `random` bots in turn.
    Mixed,
    /// `uniform` bots, and now and then another seat's out-of-turn action (a jump-in, a catch, a
    /// call), drawn from a generator of the test's.
    UniformReactions,
    /// `precedence` bots, where seed 000's precedence decides.
    Precedence,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::RandomFast => "random-fast",
            Table::Random => "random",
            Table::Heuristic => "heuristic",
            Table::Mixed => "heuristic+random",
            Table::UniformReactions => "uniform+reactions",
            Table::Precedence => "precedence",
        }
    }

    fn bots(self, players: usize, seed: u64) -> Vec<Box<dyn Bot>> {
        (0..players)
            .map(|s| {
                let bot_seed = seeding::sim_bot_seed(seed, s);
                let bot: Box<dyn Bot> = match self {
                    Table::RandomFast | Table::Random => Box::new(RandomBot::new(bot_seed)),
                    Table::Heuristic => Box::new(HeuristicBot::new(bot_seed)),
                    Table::Mixed if s % 2 == 0 => Box::new(HeuristicBot::new(bot_seed)),
                    Table::Mixed => Box::new(RandomBot::new(bot_seed)),
                    Table::UniformReactions => Box::new(UniformBot::new(bot_seed)),
                    Table::Precedence => Box::new(PrecedenceBot::new()),
                };
                bot
            })
            .collect()
    }
}

/// Plays one game to its end and digests it; returns the decisions taken.
fn play(set: &RuleSet, players: usize, seed: u64, table: Table, d: &mut Digest) -> u32 {
    let mut game = match table {
        Table::RandomFast => Game::new_fast(set.rules.clone(), players, seed),
        _ => Game::new(set.rules.clone(), players, seed),
    }
    .expect("the rules seat this many");
    // The deal's own events, as a front end that shows the deal asks for them.
    let mut events = Vec::new();
    game.restart_with_events(seed, &mut events);
    d.json(&events);
    // The simulation applies without checking: a twin played so must end where this one does.
    let mut twin = (table == Table::RandomFast).then(|| game.clone());
    let mut bots = table.bots(players, seed);
    let mut reactions = ChaCha8Rng::seed_from_u64(seed ^ 0x60_1d);
    let mut legal = Vec::new();
    let mut decisions = 0;
    while !game.is_over() && decisions < MAX_DECISIONS {
        let mut seat = game.current();
        if table == Table::UniformReactions && reactions.gen_bool(0.15) {
            let other = Seat(reactions.gen_range(0..players) as u8);
            game.legal_actions_into(other, &mut legal);
            if !legal.is_empty() {
                seat = other;
            }
        }
        game.legal_actions_into(seat, &mut legal);
        let mut line = format!("{seat}:");
        for a in &legal {
            let _ = write!(line, " {a}");
        }
        d.text(&line);
        let action = match table {
            Table::UniformReactions if seat != game.current() => legal[reactions.gen_range(0..legal.len())],
            _ => bots[seat.index()].choose_view(&game.view(seat)),
        };
        d.text(&action.to_string());
        if let Some(twin) = &mut twin {
            twin.apply_unchecked(seat, action);
        }
        match game.apply(seat, action) {
            Ok(events) => d.json(&events),
            Err(e) => {
                // A bot's refused action is part of the behaviour too; the game stops there.
                d.text(&format!("refused {e:?}"));
                break;
            }
        }
        decisions += 1;
    }
    let position = game.position();
    if let Some(twin) = twin {
        assert_eq!(twin.position(), position, "{} {players} seed {seed}: apply_unchecked differs", set.name);
    }
    d.json(&position);
    d.json(&game.outcome());
    decisions
}

/// The tables each rule set is played by.
fn tables(set: &RuleSet) -> Vec<Table> {
    let mut t = vec![Table::RandomFast, Table::Random, Table::Heuristic, Table::Mixed, Table::UniformReactions];
    if set.rules.precedence_decides() {
        t.push(Table::Precedence);
    }
    t
}

/// One line per (rule set, players, table): `name | players | table | digest | decisions`.
fn golden_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for set in rule_sets() {
        // The presets more often: they are what people play.
        let seeds: u64 = if uno::PRESET_NAMES.contains(&set.name.as_str()) { 4 } else { 2 };
        for players in set.rules.min_players()..=set.rules.max_players() {
            if set.rules.check_players(players).is_err() {
                continue;
            }
            for table in tables(&set) {
                let mut d = Digest::new();
                let mut decisions = 0u64;
                // Seeds follow the rule set's name, not its place in the list, so a rule set
                // added to the list leaves the others' lines as they were.
                let mut named = Digest::new();
                named.text(&set.name);
                for g in 0..seeds {
                    let seed = (named.0 >> 16) ^ (g * 1_000_003 + players as u64 * 7);
                    decisions += u64::from(play(&set, players, seed, table, &mut d));
                }
                lines.push(format!("{} | {players} | {} | {:016x} | {decisions}", set.name, table.name(), d.0));
            }
        }
    }
    lines
}

#[test]
fn the_engine_plays_every_rule_set_as_the_golden_data_says() {
    let lines = golden_lines();
    let now = lines.join("\n") + "\n";
    if std::env::var("UNO_GOLDEN").as_deref() == Ok("update") {
        std::fs::write(FILE, &now).expect("write the golden data");
        return;
    }
    let want = std::fs::read_to_string(FILE).expect("tests/golden/engine.txt (UNO_GOLDEN=update writes it)");
    let want: Vec<&str> = want.lines().collect();
    let key = |l: &str| l.rsplitn(3, " | ").nth(2).unwrap_or("").to_string();
    let mut differ = Vec::new();
    for line in &lines {
        match want.iter().find(|w| key(w) == key(line)) {
            Some(w) if *w == line => {}
            Some(w) => differ.push(format!("  now  {line}\n  was  {w}")),
            None => differ.push(format!("  new  {line}")),
        }
    }
    for w in &want {
        if !lines.iter().any(|l| key(l) == key(w)) {
            differ.push(format!("  gone {w}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} groups play otherwise than the golden data says:\n{}",
        differ.len(),
        lines.len(),
        differ.iter().take(4000).cloned().collect::<Vec<_>>().join("\n")
    );
}
