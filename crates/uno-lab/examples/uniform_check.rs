//! Is each card drawn uniform over the pile it came from? Per seat, the mean of
//! [drawn card is a wild] − [share of wilds in the pile], and of [drawn is red] − share.
use std::sync::Arc;

use uno::{Event, Game, Rules};
use uno_bots::{Bot, BotSpec};
use uno_lab::moments::Moments;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).map_or(Ok(1000), |s| s.parse())?;
    let first: u64 = args.get(2).map_or(Ok(0), |s| s.parse())?;
    let bot: BotSpec = args.get(3).map_or("heuristic", |s| s.as_str()).parse()?;
    let rules = Arc::new(Rules::preset("official")?);
    let mut stats = vec![[Moments::default(); 3]; 4];
    for g in 0..games {
        let seed = first + g;
        let mut game = Game::new_fast(rules.clone(), 4, seed)?;
        let mut bots: Vec<Box<dyn Bot>> = (0..4).map(|s| bot.build(seed * 8 + s)).collect();
        let mut n = 0;
        while !game.is_round_over() && n < 5000 {
            n += 1;
            let seat = game.current();
            let action = bots[seat.index()].choose_view(&game.view(seat));
            let before = game.clone();
            let events = game.apply(seat, action)?;
            let drawn: Vec<(uno::Seat, uno::Card)> = events
                .iter()
                .filter_map(|e| {
                    if let Event::CardsDrawn { seat, cards, .. } = e {
                        Some((*seat, cards.clone()))
                    } else {
                        None
                    }
                })
                .flat_map(|(s, cs)| cs.into_iter().map(move |c| (s, c)))
                .collect();
            if drawn.is_empty() {
                continue;
            }
            let cards: Vec<uno::Card> = drawn.iter().map(|d| d.1).collect();
            let piles = before.clone().apply_with_draws(seat, action, &cards)?;
            for ((s, c), pile) in drawn.iter().zip(&piles) {
                let share =
                    |f: &dyn Fn(uno::Card) -> bool| pile.iter().filter(|&&x| f(x)).count() as f64 / pile.len() as f64;
                let fs: [&dyn Fn(uno::Card) -> bool; 3] =
                    [&|x: uno::Card| x.index() >= 52, &|x: uno::Card| x.index() < 13, &|x: uno::Card| {
                        x.index() % 13 >= 10 && x.index() < 52
                    }];
                for (k, f) in fs.iter().enumerate() {
                    stats[s.index()][k].add(f64::from(u8::from(f(*c))) - share(*f));
                }
            }
        }
    }
    for (s, st) in stats.iter().enumerate() {
        for (k, m) in st.iter().enumerate() {
            let z = m.mean() / m.variance_of_mean().sqrt();
            println!("seat {s} f{k}: n {} mean {:+.5} z {:+.2}", m.n, m.mean(), z);
        }
    }
    Ok(())
}
