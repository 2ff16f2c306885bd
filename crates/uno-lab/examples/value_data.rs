//! Writes the value network's training data (`training/train_value.py`): rounds of cheap bots
//! under the official rules at `SEATS` seats (4 by default), and at sampled moments every seat's
//! observation with whether that seat went on to win the round.
//!
//!     cargo run --release -p uno-lab --example value_data -- OUT ROUNDS SEED [full] [--players SEATS]
//!
//! `OUT` gets raw records of `obs::SIZE` bytes (the observation, every entry a small count)
//! followed by one byte (1: this seat won the round). Each seat's bot is `heuristic` with
//! chance 0.6, else `random`, `uniform` or `precedence` alike, so that the value knows tables of
//! strong and weak players. A moment is kept with chance 0.2, so records of one round are few;
//! a moment's records are its seats' in seat order (`train_value.py` normalises them together).
//! With `full`, each record also holds the other seats' hands (54 counts each, by relative seat).

use std::io::Write;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::{Card, Game, Rules, Seat};
use uno_bots::{Bot, BotSpec};
use uno_nn::obs;

const KEEP: f64 = 0.2;

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().collect();
    let mut players = 4;
    if let Some(i) = args.iter().position(|a| a == "--players") {
        let value = args.get(i + 1).ok_or_else(|| anyhow::anyhow!("--players needs a number of seats"))?;
        players = value.parse().map_err(|_| anyhow::anyhow!("--players: not a number of seats: {value}"))?;
        args.drain(i..i + 2);
    }
    let (out, rounds, seed, full) = match &args[..] {
        [_, out, rounds, seed] => (out, rounds, seed, false),
        [_, out, rounds, seed, full] if full == "full" => (out, rounds, seed, true),
        _ => anyhow::bail!("usage: value_data OUT ROUNDS SEED [full] [--players SEATS]"),
    };
    let rounds: u64 = rounds.parse()?;
    let seed: u64 = seed.parse()?;
    let rules = Arc::new(Rules::preset("official")?);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let names = ["random", "uniform", "precedence"];
    let mut vector = vec![0f32; obs::SIZE];
    let mut kept: Vec<(Seat, Vec<u8>)> = Vec::new();
    let (mut records, mut played) = (0u64, 0u64);
    for round in 0..rounds {
        let game_seed = rng.gen::<u64>();
        let mut game = Game::new_fast(rules.clone(), players, game_seed)?;
        let mut bots: Vec<Box<dyn Bot>> = (0..players)
            .map(|s| {
                let name = if rng.gen_bool(0.6) { "heuristic" } else { names[rng.gen_range(0..names.len())] };
                name.parse::<BotSpec>().map(|spec| spec.build(game_seed ^ (s as u64 + 1)))
            })
            .collect::<Result<_, _>>()?;
        kept.clear();
        let mut decisions = 0;
        while !game.is_round_over() && decisions < 5_000 {
            if rng.gen_bool(KEEP) {
                for seat in Seat::all(players) {
                    uno_nn::observe::write_observation(&game, seat, false, &mut vector);
                    let mut bytes: Vec<u8> = vector.iter().map(|&x| x.clamp(0.0, 255.0) as u8).collect();
                    if full {
                        // The lab sees every hand: the others', by relative seat.
                        for k in 1..players {
                            let mut counts = [0u8; Card::KINDS];
                            for card in game.hand(seat.step(uno::Direction::Clockwise, players, k)) {
                                counts[card.index()] += 1;
                            }
                            bytes.extend_from_slice(&counts);
                        }
                    }
                    kept.push((seat, bytes));
                }
            }
            let seat = game.current();
            let action = bots[seat.index()].choose_view(&game.view(seat));
            game.apply_unchecked(seat, action);
            decisions += 1;
        }
        let Some(winner) = game.round_winner().filter(|_| game.is_round_over()) else { continue };
        played += 1;
        for (seat, bytes) in &kept {
            file.write_all(bytes)?;
            file.write_all(&[u8::from(*seat == winner)])?;
            records += 1;
        }
        if (round + 1) % 10_000 == 0 {
            eprintln!("{} rounds, {records} records", round + 1);
        }
    }
    file.flush()?;
    eprintln!("{played} rounds with a winner, {records} records");
    Ok(())
}
