//! The simulation kernel plays the same games as the engine: for every seed, the round that
//! `Game::new_fast` deals and four `RandomBot`s play through `Game::apply` ends with the same
//! winner, points, turns, decisions and per-seat turns as `RandomKernel::play`. Over every
//! preset and player count the kernel supports, and over house rules that change what a
//! random table meets (draw rules, Wild Draw Four rules, two-player reverse, no reshuffle,
//! first-card rules, no UNO calls, a turn cap, counter-clockwise play).

use std::sync::Arc;

use uno::rules::{
    DrawRule, Exhausted, FirstCard, FirstPlayer, MultiPlay, Stacking, TwoPlayerRule, UnoCall, WildDrawFourRule,
};
use uno::{Direction, Game, Rules, RulesConfig, Seat, PRESET_NAMES};
use uno_bots::{Bot, RandomBot};
use uno_lab::kernel::{RandomKernel, Round};
use uno_lab::{simulate, SimConfig};

/// The general path, as the runner took it before the kernel: engine, bots, checked apply.
fn engine_round(rules: &Arc<Rules>, players: usize, seed: u64) -> Round {
    let mut game = Game::new_fast(rules.clone(), players, seed).expect("valid setup");
    let mut bots: Vec<RandomBot> = (0..players).map(|s| RandomBot::new(seeding::sim_bot_seed(seed, s))).collect();
    let mut round = Round::default();
    while !game.is_round_over() {
        assert!(round.decisions < 100_000, "a random round that never ends");
        let seat = game.current();
        let before = game.turns();
        let action = bots[seat.index()].choose_view(&game.view(seat));
        if let Err(e) = game.apply(seat, action) {
            panic!("the random bot chose {action:?}, refused: {e}");
        }
        round.decisions += 1;
        if game.turns() != before {
            round.seat_turns[seat.index()] += 1;
        }
    }
    round.turns = game.turns();
    round.winner = game.round_winner().map(|Seat(w)| w as usize);
    round.points = round.winner.map_or(0, |w| game.scores()[w]);
    round
}

fn assert_same_games(rules: &Arc<Rules>, players: usize, games: u64) {
    let mut kernel = RandomKernel::new(rules, players)
        .unwrap_or_else(|| panic!("{} with {players} players should be supported", rules.name()));
    let mut ended = 0;
    for g in 0..games {
        let seed = seeding::sim_game_seed(7, g);
        let expected = engine_round(rules, players, seed);
        let got = kernel.play(seed);
        assert_eq!(got, expected, "{} with {players} players, game {g} (seed {seed})", rules.name());
        ended += expected.winner.is_some() as u32;
    }
    assert!(ended > 0, "{}: no game had a winner, the comparison saw too little", rules.name());
}

#[test]
fn the_kernel_plays_the_engines_games_on_every_supported_preset() {
    let mut covered = 0;
    for name in PRESET_NAMES {
        let rules = Arc::new(Rules::preset(name).expect("a shipped preset"));
        for players in rules.min_players()..=rules.max_players() {
            if RandomKernel::supports(&rules, players) {
                assert_same_games(&rules, players, 300);
                covered += 1;
            }
        }
    }
    // official, cs410 and two-color at every size; csce322 stacks draw cards, so it is not.
    assert!(covered >= 9 + 9 + 3, "only {covered} preset sizes were compared");
    assert!(!RandomKernel::supports(&Rules::preset("csce322").expect("preset"), 4));
}

fn house(f: impl Fn(&mut RulesConfig)) -> Arc<Rules> {
    let mut config = uno::rules::preset_config("official").expect("preset");
    f(&mut config);
    Arc::new(Rules::new(config).expect("valid house rules"))
}

#[test]
fn the_kernel_plays_the_engines_games_under_house_rules() {
    let variants: Vec<(&str, Arc<Rules>)> = vec![
        ("draw until playable", house(|c| c.play.draw = DrawRule::DrawUntilPlayable)),
        ("draw one, must play", house(|c| c.play.draw = DrawRule::DrawOneMustPlay)),
        ("draw one, end turn", house(|c| c.play.draw = DrawRule::DrawOneEndTurn)),
        ("restricted wd4", house(|c| c.play.wild_draw_four = WildDrawFourRule::Restricted)),
        ("unrestricted wd4", house(|c| c.play.wild_draw_four = WildDrawFourRule::Unrestricted)),
        ("reverse reverses", house(|c| c.play.two_players = TwoPlayerRule::ReverseReverses)),
        ("no reshuffle", house(|c| c.play.exhausted_draw_pile = Exhausted::NoReshuffle)),
        ("first card no effect", house(|c| c.deal.first_card = FirstCard::NoEffect)),
        ("first card a number", house(|c| c.deal.first_card = FirstCard::RedrawUntilNumber)),
        ("seat 0 first", house(|c| c.deal.first_player = FirstPlayer::Seat0)),
        ("counter-clockwise", house(|c| c.deal.direction = Direction::CounterClockwise)),
        ("no uno calls", house(|c| c.uno.call = UnoCall::Off)),
        ("turn cap", house(|c| c.play.turn_cap = Some(60))),
        ("big hands, no reshuffle", {
            house(|c| {
                c.deal.hand_size = 12;
                c.play.exhausted_draw_pile = Exhausted::NoReshuffle;
            })
        }),
    ];
    for (what, rules) in &variants {
        for players in [2, 3, 4, 7] {
            assert!(RandomKernel::supports(rules, players), "{what}");
            assert_same_games(rules, players, 120);
        }
    }
    let stacking = house(|c| c.play.stacking = Stacking::Both);
    assert!(!RandomKernel::supports(&stacking, 4), "stacking is the engine's");
    assert!(RandomKernel::new(&stacking, 4).is_none());
    let runs = house(|c| c.play.multi_play = MultiPlay::SameNumber);
    assert!(!RandomKernel::supports(&runs, 4), "same-number runs are the engine's");
    assert!(RandomKernel::new(&runs, 4).is_none());
}

/// The runner's totals are the same on the kernel (unchecked) and on the engine (checked).
#[test]
fn simulate_totals_agree_between_kernel_and_engine() {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let config = |checked| SimConfig {
        rules: rules.clone(),
        players: 4,
        bots: vec!["random".to_string(); 4],
        games: 3000,
        seed: 11,
        threads: 1,
        checked,
    };
    let fast = simulate(&config(false), &|_| {}).expect("runs");
    let engine = simulate(&config(true), &|_| {}).expect("runs");
    assert_eq!(engine.illegal, 0);
    assert_eq!(fast, engine);
}
