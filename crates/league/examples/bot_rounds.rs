//! Plays 4-seat UNO rounds between bots of known, different strength and prints each round's
//! finishing places, the data the rating model's beta is fitted on (`docs/ratings.md`):
//!
//!     cargo run --release -p league --example bot_rounds -- ROUNDS RUN_SEED [PRESET] > rounds.txt
//!
//! One line per round: the place of `random`, `precedence`, `heuristic` and `net`, in that
//! order. The winner is 1st; the others are placed by the points left in their hands (fewer is
//! better), equal points sharing the better place. Round `g` is dealt from
//! `seeding::sim_game_seed(RUN_SEED, g)` and seats the four bots in the `g mod 24`-th of their
//! 24 orders, so every bot holds every seat equally often. Deterministic for its arguments.
use std::sync::Arc;

use anyhow::{bail, Context};
use uno::{Game, Rules, Seat};
use uno_bots::{Bot, BotSpec};

/// The bots, weakest first as `docs/bots.md` measures them.
const BOTS: [BotSpec; 4] = [BotSpec::Random, BotSpec::Precedence, BotSpec::Heuristic, BotSpec::Net];
/// A round still going after this many decisions is a bot's bug, not a result.
const MAX_DECISIONS: u32 = 100_000;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let rounds: u64 = args.get(1).context("ROUNDS missing")?.parse().context("ROUNDS")?;
    let run: u64 = args.get(2).context("RUN_SEED missing")?.parse().context("RUN_SEED")?;
    let preset = args.get(3).map_or("official", String::as_str);
    let rules = Arc::new(Rules::preset(preset)?);
    let orders = permutations();
    let mut out = String::new();
    for g in 0..rounds {
        let seed = seeding::sim_game_seed(run, g);
        let order = orders[(g % 24) as usize];
        let mut game = Game::new_fast(rules.clone(), 4, seed)?;
        let mut bots: Vec<Box<dyn Bot>> =
            (0..4).map(|s| BOTS[order[s]].build(seeding::sim_bot_seed(seed, s))).collect();
        let mut decisions = 0;
        while !game.is_round_over() {
            if decisions == MAX_DECISIONS {
                bail!("round {g} stuck after {MAX_DECISIONS} decisions");
            }
            let seat = game.current();
            let action = bots[seat.index()].choose_view(&game.view(seat));
            game.apply_unchecked(seat, action);
            decisions += 1;
        }
        let winner = game.round_winner().context("a round over without a winner")?;
        let seats: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];
        let points: Vec<u32> = seats
            .iter()
            .map(|&s| if s == winner { 0 } else { game.hand(s).iter().map(|&c| rules.points(c)).sum() })
            .collect();
        let mut places = [0usize; 4];
        for s in 0..4 {
            let ahead = (0..4)
                .filter(|&o| o != s)
                .filter(|&o| seats[o] == winner || (seats[s] != winner && points[o] < points[s]))
                .count();
            places[order[s]] = ahead + 1;
        }
        out.push_str(&format!("{} {} {} {}\n", places[0], places[1], places[2], places[3]));
    }
    print!("{out}");
    Ok(())
}

/// The 24 orders of four bots, as `order[seat] = bot`, in lexicographic order.
fn permutations() -> Vec<[usize; 4]> {
    let mut all = Vec::with_capacity(24);
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let p = [a, b, c, d];
                    if (0..4).all(|i| p.contains(&i)) {
                        all.push(p);
                    }
                }
            }
        }
    }
    all
}
