//! Checks that a seat's luck averages zero over many independent games:
//!     cargo run -p uno-lab --example luck_check -- GAMES FIRST_SEED BOT [ahead|in-place]
//!
//! `in-place-draws` corrects the draws only (no decision). `split` plays every game twice on
//! the same seeds, draws only and draws with decisions (in place), and reports the decisions'
//! part alone: the difference per seat, paired over the same games. `BOT` plays every seat, or `mixed`: `heuristic` in seat 0 and `random` in the others. At a
//! table of alike bots each seat's mean luck is zero by symmetry alone (random dealer, luck
//! summing to zero over the table); only a mixed table tests the estimator.
use std::sync::Arc;

use uno::{Game, Rules};
use uno_bots::{Bot, BotSpec};
use uno_lab::adjust::{play_out, LuckAdjuster};
use uno_lab::moments::Moments;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).map_or(Ok(1000), |s| s.parse())?;
    let first: u64 = args.get(2).map_or(Ok(0), |s| s.parse())?;
    let name = args.get(3).map_or("random", |s| s.as_str());
    let mixed = name == "mixed";
    let bot: BotSpec = if mixed { BotSpec::Random } else { name.parse()? };
    let rules = Arc::new(Rules::preset("official")?);
    let modes: Vec<bool> = match args.get(4).map(String::as_str) {
        Some("ahead") => vec![true],
        Some("in-place") | Some("in-place-draws") => vec![false],
        _ => vec![true, false],
    };
    if args.get(4).map(String::as_str) == Some("split") {
        return split(games, first, &rules);
    }
    for lookahead in modes {
        let mut adjuster = LuckAdjuster::with_lookahead(uno_lab::shipped_value(), lookahead);
        let mut seats = [Moments::default(); 4];
        let (mut plain, mut adjusted) = (Moments::default(), Moments::default());
        for g in 0..games {
            let seed = first + g;
            let mut game = Game::new_fast(rules.clone(), 4, seed)?;
            let mut bots: Vec<Box<dyn Bot>> =
                (0..4).map(|s| if mixed && s == 0 { BotSpec::Heuristic } else { bot }.build(seed * 8 + s)).collect();
            let mut luck = [0.0; 4];
            if args.get(4).map(String::as_str) != Some("in-place-draws") {
                adjuster.decisions = true;
            }
            if args.get(4).map(String::as_str) == Some("in-place-draws") {
                // Draws only: no decision corrected.
                let mut n = 0;
                while !game.is_round_over() && n < 100_000 {
                    let seat = game.current();
                    let action = bots[seat.index()].choose_view(&game.view(seat));
                    adjuster.apply(&mut game, seat, action, None, &mut luck);
                    n += 1;
                }
            } else {
                play_out(&mut game, &mut bots, &mut adjuster, &mut luck, 100_000);
            }
            for (m, l) in seats.iter_mut().zip(luck) {
                m.add(l);
            }
            let won = f64::from(u8::from(game.round_winner() == Some(uno::Seat(0))));
            plain.add(won);
            adjusted.add(won - luck[0]);
        }
        println!("lookahead {lookahead}:");
        for (s, m) in seats.iter().enumerate() {
            println!("  seat {s}: mean luck {:+.4} ci {:?} sd {:.3}", m.mean(), m.ci95(), m.variance().sqrt());
        }
        println!("  seat 0 win var {:.4}, adjusted var {:.4}", plain.variance(), adjusted.variance());
    }
    Ok(())
}

/// The decision corrections' part of each seat's luck, alone: each game played with draws
/// corrected only and again with decisions too (the same game: the adjuster changes nothing),
/// the difference's mean and interval per seat.
fn split(games: u64, first: u64, rules: &Arc<Rules>) -> anyhow::Result<()> {
    let mut adjuster = LuckAdjuster::with_lookahead(uno_lab::shipped_value(), false);
    let mut seats = [Moments::default(); 4];
    let mut decided = 0u64;
    for g in 0..games {
        let seed = first + g;
        let mut lucks = [[0.0; 4]; 2];
        let mut hashes = [0u64; 2];
        for (k, decisions) in [false, true].into_iter().enumerate() {
            let mut game = Game::new_fast(rules.clone(), 4, seed)?;
            let mut bots: Vec<Box<dyn Bot>> =
                (0..4).map(|s| if s == 0 { BotSpec::Heuristic } else { BotSpec::Random }.build(seed * 8 + s)).collect();
            adjuster.decisions = decisions;
            let (n, _) = play_out(&mut game, &mut bots, &mut adjuster, &mut lucks[k], 100_000);
            if decisions {
                decided += u64::from(n);
            }
            hashes[k] = game.state_hash();
        }
        anyhow::ensure!(hashes[0] == hashes[1], "game {seed}: the adjuster changed the game");
        for (s, m) in seats.iter_mut().enumerate() {
            m.add(lucks[1][s] - lucks[0][s]);
        }
    }
    println!("decisions' part of the luck, {games} games, {decided} decisions:");
    for (s, m) in seats.iter().enumerate() {
        println!("  seat {s}: mean {:+.5} ci {:?} sd {:.4}", m.mean(), m.ci95(), m.variance().sqrt());
    }
    Ok(())
}
