//! The engine's fast paths, seed for seed, as golden data: what simulations, playouts and
//! searches run on (`Game::new_fast`, `restart`, `choose_view`, `apply_unchecked`, the sampled
//! worlds of the searching bots), on every rule set of `uno::testing` at its fewest players, four
//! (where seated) and its most. `tests/golden/fast.txt` has one line per (rule set, players,
//! table): a digest of the state hash (`Game::state_hash`: hands and piles in order, every
//! counter, the generator's position) after every decision, of the actions taken, and of the
//! final position.
//!
//! `tests/golden.rs` holds the checked path (legal actions, events) to the same standard; this
//! file adds what only the unchecked path and the searches reach, many more games of it, so a
//! faster engine is held to today's behaviour decision by decision.
//! `UNO_GOLDEN=update cargo test -p uno-bots --test golden_fast` rewrites the file.

use uno::testing::{rule_sets, RuleSet};
use uno::Game;
use uno_bots::{make_bot, Bot, HeuristicBot, RandomBot};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/fast.txt");

/// Decisions after which a game is cut short (the digest says where it stood).
const MAX_DECISIONS: u32 = 3_000;

/// FNV-1a, written here so the digest does not depend on the engine.
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
    }
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    fn text(&mut self, s: &str) {
        self.bytes(s.as_bytes());
        self.bytes(&[0xff]);
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Table {
    /// `random` bots, as `uno sim` seats them.
    Random,
    /// `heuristic` bots.
    Heuristic,
    /// A `flat` bot with a few playouts at seat 0 (sampled worlds, playouts on loaded states),
    /// `heuristic` bots elsewhere, on the recorded games' generator.
    Flat,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Random => "random",
            Table::Heuristic => "heuristic",
            Table::Flat => "flat:6",
        }
    }
}

fn play(set: &RuleSet, players: usize, seed: u64, table: Table, d: &mut Digest, game: &mut Option<Game>) -> u32 {
    let game = match (table, game.as_mut()) {
        (Table::Flat, _) => game.insert(Game::new(set.rules.clone(), players, seed).expect("seated")),
        (_, Some(g)) => {
            g.restart(seed);
            g
        }
        (_, None) => game.insert(Game::new_fast(set.rules.clone(), players, seed).expect("seated")),
    };
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|s| {
            let bot_seed = seeding::sim_bot_seed(seed, s);
            let bot: Box<dyn Bot> = match table {
                Table::Random => Box::new(RandomBot::new(bot_seed)),
                Table::Heuristic => Box::new(HeuristicBot::new(bot_seed)),
                Table::Flat if s == 0 => make_bot("flat:6", bot_seed).expect("a bot"),
                Table::Flat => Box::new(HeuristicBot::new(bot_seed)),
            };
            bot
        })
        .collect();
    d.u64(game.state_hash());
    let mut decisions = 0;
    // The flat bot searches on every decision: fewer of them.
    let cap = if table == Table::Flat { 120 } else { MAX_DECISIONS };
    while !game.is_round_over() && decisions < cap {
        let seat = game.current();
        let action = bots[seat.index()].choose_view(&game.view(seat));
        d.text(&action.to_string());
        game.apply_unchecked(seat, action);
        d.u64(game.state_hash());
        decisions += 1;
    }
    d.text(&serde_json::to_string(&game.position()).expect("serialisable"));
    decisions
}

fn golden_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for set in rule_sets() {
        let (min, max) = (set.rules.min_players(), set.rules.max_players());
        let mut counts = vec![min, 4.clamp(min, max), max];
        counts.dedup();
        let preset = uno::PRESET_NAMES.contains(&set.name.as_str());
        for players in counts {
            for table in [Table::Random, Table::Heuristic, Table::Flat] {
                let games: u64 = match (table, preset) {
                    (Table::Flat, true) => 6,
                    (Table::Flat, false) => 2,
                    (_, true) => 200,
                    (_, false) => 40,
                };
                let mut named = Digest::new();
                named.text(&set.name);
                let mut d = Digest::new();
                let mut decisions = 0u64;
                let mut game = None;
                for g in 0..games {
                    let seed = seeding::sim_game_seed(named.0 >> 8, g * 31 + players as u64);
                    decisions += u64::from(play(&set, players, seed, table, &mut d, &mut game));
                }
                lines.push(format!("{} | {players} | {} | {:016x} | {decisions}", set.name, table.name(), d.0));
            }
        }
    }
    lines
}

#[test]
fn the_fast_paths_play_every_rule_set_as_the_golden_data_says() {
    let lines = golden_lines();
    let now = lines.join("\n") + "\n";
    if std::env::var("UNO_GOLDEN").as_deref() == Ok("update") {
        std::fs::write(FILE, &now).expect("write the golden data");
        return;
    }
    let want = std::fs::read_to_string(FILE).expect("tests/golden/fast.txt (UNO_GOLDEN=update writes it)");
    let want: Vec<&str> = want.lines().collect();
    let differ: Vec<String> = lines
        .iter()
        .filter(|l| !want.contains(&l.as_str()))
        .map(|l| format!("  now {l}"))
        .chain(want.iter().filter(|w| !lines.iter().any(|l| l == *w)).map(|w| format!("  was {w}")))
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {} groups play otherwise than the golden data says:\n{}",
        differ.len(),
        lines.len(),
        differ.iter().take(200).cloned().collect::<Vec<_>>().join("\n")
    );
}
