//! The compact position, the bots, the endgame solver and the setup generator.

use duel::sim::{play_game, setup_for, simulate_one, SimConfig, Tally};
use duel::{
    random_setup, Board, Bot, BotKind, Cell, Coord, Difficulty, GreedyBot, Move, RandomBot, SearchBot, SetupMode, Side,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn pos(text: &str) -> Board {
    text.parse().expect("position text")
}

fn mv(p: &Board, from: &str, to: &str) -> Move {
    let f: Coord = from.parse().expect("from");
    let t: Coord = to.parse().expect("to");
    Move { from: p.index(f) as u16, to: p.index(t) as u16 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random playouts on random setups: make/unmake restores the position and its hash, the
    /// incremental hash equals a fresh one, and every setup is legal.
    #[test]
    fn make_unmake_and_hash_stay_consistent(seed in any::<u64>(), w in 2u8..9, h in 2u8..9) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut p = random_setup(w, h, SetupMode::Random, &mut rng).expect("setup");
        let mut bot = RandomBot::new(seed);
        for _ in 0..60 {
            if p.is_terminal() { break; }
            let m = bot.choose(&p).expect("a move");
            prop_assert!(p.legal_moves_vec().contains(&m));
            let before = p.clone();
            let u = p.make(m);
            let fresh: Board = p.to_string().parse().expect("reparse");
            prop_assert_eq!(fresh.hash(), p.hash());
            prop_assert_eq!(fresh.count(Side::Red), p.count(Side::Red));
            let mut back = p.clone();
            back.unmake(u);
            prop_assert_eq!(&back, &before);
        }
    }
}

#[test]
fn mirrored_setups_are_legal_symmetric_and_seeded() {
    for seed in 0..200u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = random_setup(6, 6, SetupMode::Mirrored, &mut rng).expect("setup");
        assert!(p.count(Side::Red) >= 1 && p.count(Side::Red) <= 12);
        assert_eq!(p.count(Side::Red), p.count(Side::Black));
        for r in 0..6u8 {
            for c in 0..6u8 {
                let a = p.get(Coord::new(c, r)).expect("cell");
                let b = p.get(Coord::new(c, 5 - r)).expect("mirror");
                match (a, b) {
                    (Cell::Piece(x), Cell::Piece(y)) => {
                        assert_eq!(x.rank, y.rank);
                        assert_ne!(x.side, y.side);
                    }
                    _ => assert_eq!(a, b, "blocks and empties are symmetric"),
                }
                if let Cell::Piece(x) = a {
                    // Two neutral rows: red in rows 5-6, black in rows 1-2.
                    assert_eq!(x.side == Side::Red, r >= 4);
                    assert!(r <= 1 || r >= 4);
                }
            }
        }
        for rank in 1..=6u8 {
            assert!(p.count_rank(Side::Red, rank) <= usize::from(duel::RANK_LIMITS[usize::from(rank - 1)]));
        }
        let mut again = ChaCha8Rng::seed_from_u64(seed);
        assert_eq!(random_setup(6, 6, SetupMode::Mirrored, &mut again).expect("setup"), p);
    }
}

#[test]
fn greedy_takes_the_best_immediate_capture() {
    // Red 5 can take black 4 or black 2; red 3 can take black 2.
    let p = pos("B4 R5 B2 / . . R3 / . . . / B6 . .");
    let mut bot = GreedyBot::new(1);
    assert_eq!(bot.choose(&p), Some(mv(&p, "b1", "a1")));
}

#[test]
fn search_wins_material_and_avoids_losing_it() {
    // Black 4 can take red 3 (one step).
    let mut p = pos(". . . . / . B4 R3 . / . . . . / R6 . . B1");
    p.set_to_move(Side::Black);
    let mut bot = SearchBot::new(Difficulty::Medium);
    assert_eq!(bot.choose(&p), Some(mv(&p, "b2", "c2")));
    // Black 2 next to red 5 (red to move would take it): black must step away, not sideways
    // next to the red 4.
    let mut p = pos(". . . . . / . . R4 . . / . B2 . . . / . R5 . . . / . . . . B6 | black");
    p.set_to_move(Side::Black);
    let m = bot.choose(&p).expect("a move");
    let mut after = p.clone();
    after.make(m);
    let mut reply = RandomBot::new(0);
    let _ = reply.choose(&after);
    // After black's move no red piece can win a capture against the black 2.
    let mut red_moves = after.legal_moves_vec();
    red_moves.retain(|r| after.is_capture(*r));
    for r in red_moves {
        let mut t = after.clone();
        t.make(r);
        assert_eq!(t.count(Side::Black), 2, "black left a piece en prise: {}", p.move_text(m));
    }
}

#[test]
fn search_is_deterministic() {
    let cfg = SimConfig {
        red: BotKind::Greedy,
        black: BotKind::Search(Difficulty::Easy),
        seed: 11,
        width: 6,
        height: 6,
        max_rounds: 60,
        setup: SetupMode::Mirrored,
    };
    for i in 0..4 {
        assert_eq!(simulate_one(&cfg, i).expect("game"), simulate_one(&cfg, i).expect("game"));
    }
}

#[test]
fn search_plays_either_side() {
    let cfg = SimConfig {
        red: BotKind::Search(Difficulty::Easy),
        black: BotKind::Random,
        seed: 3,
        width: 5,
        height: 7,
        max_rounds: 80,
        setup: SetupMode::Mirrored,
    };
    let mut t = Tally::default();
    for i in 0..20 {
        t.add(&simulate_one(&cfg, i).expect("game"));
    }
    assert!(t.red_score() > 0.6, "search as red beats random: {t:?}");
}

#[test]
fn the_endgame_solver_finds_a_forced_win() {
    // Black 6 and black 1 against a lone red 6 in a corner pocket: black 1 beats the 6.
    let mut p = pos("R6 . . . / # . . . / . . B1 . / . . . B6");
    p.set_to_move(Side::Black);
    let mut bot = SearchBot::new(Difficulty::Easy);
    let mut red = RandomBot::new(5);
    let out = play_game(p, &mut red, &mut bot, 100).expect("game");
    assert_eq!(out.outcome, duel::Outcome::BlackWins);
    // The solver (not the shallow search) chose the moves.
    let mut p = pos("R6 . . . / # . . . / . . B1 . / . . . B6");
    p.set_to_move(Side::Black);
    bot.choose(&p);
    assert!(bot.last_info().solved);
}

#[test]
fn every_bot_move_is_legal_in_random_games() {
    for (k, kind) in ["random", "greedy", "search:easy"].iter().enumerate() {
        let kind: BotKind = kind.parse().expect("bot");
        let cfg = SimConfig {
            red: kind,
            black: kind,
            seed: 20 + k as u64,
            width: 6,
            height: 6,
            max_rounds: 40,
            setup: SetupMode::Random,
        };
        for i in 0..5 {
            // play_game routes each move through DuelGame's checks: an illegal one is an error.
            let p = setup_for(&cfg, i).expect("setup");
            let mut a = kind.build(i);
            let mut b = kind.build(i + 100);
            play_game(p, a.as_mut(), b.as_mut(), 40).expect("only legal moves");
        }
    }
}

#[test]
fn moves_on_a_one_column_grid_go_up_and_down() {
    let p = pos("R6 / . / B1");
    assert_eq!(p.dir_of(mv(&p, "a3", "a2")), duel::Dir::Up);
    assert_eq!(p.dir_of(mv(&p, "a1", "a2")), duel::Dir::Down);
    // The computer's forced attack on such a grid is played, not refused as leaving the grid.
    let mut game = duel::DuelGame::from_position(pos("R6 / . / B1"));
    let mut bot = BotKind::Search(Difficulty::Easy).build(1);
    game.apply(duel::Action::Move { cell: "a1".parse().expect("cell"), key: "s".into() }).expect("red moves");
    game.computer_move(bot.as_mut()).expect("black attacks");
    assert!(game.is_over());
}
