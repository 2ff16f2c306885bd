//! The environment's promises: masks are the engine's legal actions, observations leak nothing,
//! seeds do not depend on the batch size, and the environment plays the engine's games.

use std::collections::BTreeSet;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::game::Game;
use uno::{Action, Rules, Seat, PRESET_NAMES};
use uno_bots::BotSpec;
use uno_env::mapping::{decode, is_legal, legal_mask};
use uno_env::observe::write_observation;
use uno_env::{action, obs, EnvConfig, EnvError, OwnedBuffers, VecEnv, MAX_SEATS};

fn rules(name: &str) -> Arc<Rules> {
    Arc::new(Rules::preset(name).expect("a shipped preset"))
}

fn mask_of(game: &Game, seat: Seat, window: bool) -> Vec<i8> {
    let mut mask = vec![0; action::COUNT];
    legal_mask(game, seat, window, &mut mask);
    mask
}

fn obs_of(game: &Game, seat: Seat, window: bool) -> Vec<f32> {
    let mut out = vec![0.0; obs::SIZE];
    write_observation(game, seat, window, &mut out);
    out
}

/// The shared list's presets and house-rule mixes (`uno::testing::core_rule_sets`).
fn rule_sets() -> Vec<Arc<Rules>> {
    uno::testing::core_rule_sets().into_iter().map(|s| s.rules).collect()
}

/// Random games on every rule set and table size; `visit` sees each state before each action.
fn random_states(mut visit: impl FnMut(&Game, &mut ChaCha8Rng)) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for rules in rule_sets() {
        for players in [rules.min_players(), 3.clamp(rules.min_players(), rules.max_players()), rules.max_players()] {
            for game_seed in 0..3 {
                let mut game = Game::new_fast(rules.clone(), players, game_seed).expect("deal");
                for _ in 0..400 {
                    if game.is_round_over() {
                        break;
                    }
                    visit(&game, &mut rng);
                    let legal: Vec<Action> =
                        game.legal_actions().into_iter().filter(|a| *a != Action::CallUno).collect();
                    let a = legal[rng.gen_range(0..legal.len())];
                    game.apply(game.current(), a).expect("a listed action");
                }
            }
        }
    }
}

#[test]
fn the_mask_is_exactly_the_engines_legal_actions() {
    let mut states = 0;
    let mut seen = [0usize; action::COUNT];
    let mut jump_ins = 0;
    let mut runs = 0;
    random_states(|game, _| {
        states += 1;
        if game.phase() == uno::Phase::SameNumber {
            runs += 1;
            let mut run_obs = obs_of(game, game.current(), false);
            assert_eq!(run_obs[obs::PHASE + 7], 1.0, "the run has its own phase entry");
            run_obs[obs::PHASE + 7] = 0.0;
            assert!(run_obs[obs::PHASE..obs::PHASE + obs::PHASES].iter().all(|&x| x == 0.0));
        }
        for s in 0..game.players() {
            let seat = Seat(s as u8);
            let window = seat != game.current();
            let mask = mask_of(game, seat, window);
            for (i, &m) in mask.iter().enumerate() {
                seen[i] += usize::from(m != 0);
                jump_ins += usize::from(window && m != 0 && i < action::DRAW);
            }
            let legal: BTreeSet<String> = game
                .legal_actions_for(seat)
                .into_iter()
                .filter(|a| *a != Action::NextRound)
                .map(|a| a.to_string())
                .collect();
            let mut decoded = BTreeSet::new();
            for (i, &m) in mask.iter().enumerate() {
                assert_eq!(m != 0, is_legal(game, seat, window, i), "index {i}");
                if i == action::DECLINE {
                    assert_eq!(m != 0, window);
                    continue;
                }
                match decode(game, seat, i) {
                    Some(a) if m != 0 => {
                        assert!(game.check(seat, a).is_ok(), "masked-in {a} is illegal");
                        decoded.insert(a.to_string());
                    }
                    Some(a) => assert!(!legal.contains(&a.to_string()), "masked-out {a} is legal"),
                    None => assert_eq!(m, 0, "index {i} decodes to nothing"),
                }
            }
            assert_eq!(decoded, legal, "seat {s} phase {:?}", game.phase());
        }
    });
    assert!(states > 1000, "{states} states");
    for index in [action::SWAP, action::CHALLENGE, action::CALL_UNO, action::CATCH, action::PLAY_WILD] {
        assert!(seen[index] > 0, "no state offered {}", uno_env::action_name(index).unwrap_or_default());
    }
    assert!(jump_ins > 0, "no jump-in was offered");
    assert!(runs > 0, "no same-number run was reached");
}

#[test]
fn resampling_every_hidden_card_changes_no_observation() {
    let mut checked = 0;
    random_states(|game, rng| {
        if rng.gen_range(0..8) != 0 {
            return;
        }
        for s in 0..game.players() {
            let seat = Seat(s as u8);
            let window = seat != game.current();
            let seen = game.observation(Some(seat));
            let before = (obs_of(game, seat, window), mask_of(game, seat, window));
            for _ in 0..3 {
                let world = seen.sample_world(rng).expect("a consistent world");
                assert_eq!(world.observation(Some(seat)), seen, "the sampler keeps the observation");
                let after = (obs_of(&world, seat, window), mask_of(&world, seat, window));
                assert_eq!(after, before, "seat {s} sees a hidden card");
                checked += 1;
            }
        }
    });
    assert!(checked > 300, "{checked} worlds");
}

fn config(name: &str, players: usize, learners: &[u8], seed: u64) -> EnvConfig {
    EnvConfig {
        rules: rules(name),
        players,
        learners: learners.iter().map(|&s| Seat(s)).collect(),
        opponents: vec![BotSpec::Random],
        seed,
        max_actions: uno_env::DEFAULT_MAX_ACTIONS,
        max_stall: uno_env::DEFAULT_MAX_STALL,
        auto_reset: true,
    }
}

/// Steps a batch with actions drawn per environment from its own generator; returns the rows of
/// environment 0 (observation, mask, reward, flags) at every step.
/// One environment's row of a step: observation, mask, reward, terminated, truncated, seat.
type Row = (Vec<f32>, Vec<i8>, f32, bool, bool, i32);

fn trajectory_of_env0(n: usize, steps: usize, cfg: EnvConfig) -> Vec<Row> {
    let mut env = VecEnv::new(n, cfg).expect("env");
    let mut buf = OwnedBuffers::new(n);
    env.reset(None, &mut buf.as_buffers()).expect("reset");
    let mut rngs: Vec<ChaCha8Rng> = (0..n).map(|i| ChaCha8Rng::seed_from_u64(i as u64)).collect();
    let mut rows = Vec::new();
    for _ in 0..steps {
        rows.push((
            buf.obs[..obs::SIZE].to_vec(),
            buf.mask[..action::COUNT].to_vec(),
            buf.reward[0],
            buf.terminated[0],
            buf.truncated[0],
            buf.seat[0],
        ));
        let actions: Vec<i64> = (0..n)
            .map(|i| {
                let legal = buf.legal(i);
                legal[rngs[i].gen_range(0..legal.len())] as i64
            })
            .collect();
        env.step(&actions, &mut buf.as_buffers()).expect("legal actions");
    }
    rows
}

#[test]
fn an_environment_plays_the_same_games_whatever_the_batch_size() {
    for (name, players, learners) in [("official", 4, &[0u8][..]), ("cs410", 3, &[1, 2][..])] {
        let alone = trajectory_of_env0(1, 1500, config(name, players, learners, 99));
        let batched = trajectory_of_env0(9, 1500, config(name, players, learners, 99));
        assert_eq!(alone, batched, "{name}");
        assert!(alone.iter().any(|r| r.3), "{name}: some episode ended");
        let other = trajectory_of_env0(1, 1500, config(name, players, learners, 100));
        assert_ne!(alone, other, "{name}: the seed matters");
    }
}

#[test]
fn self_play_is_the_engines_game_action_for_action() {
    let mut won = 0;
    for name in PRESET_NAMES {
        let rules = rules(name);
        let players = rules.min_players().max(3).min(rules.max_players());
        let all: Vec<u8> = (0..players as u8).collect();
        // Uniformly random play under a false-call penalty can run long: truncate early.
        let cfg = EnvConfig { opponents: vec![], max_actions: 400, ..config(name, players, &all, 5) };
        let mut env = VecEnv::new(1, cfg).expect("env");
        let mut buf = OwnedBuffers::new(1);
        env.reset(None, &mut buf.as_buffers()).expect("reset");
        let mut game = Game::new_fast(rules.clone(), players, seeding::episode_seed(5, 0, 0)).expect("deal");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut episodes = 0;
        for _ in 0..3000 {
            let legal = buf.legal(0);
            let index = legal[rng.gen_range(0..legal.len())];
            let seat = Seat(buf.seat[0] as u8);
            let decoded = decode(&game, seat, index);
            if index != action::DECLINE {
                let a = decoded.expect("a legal index decodes");
                game.apply(seat, a).expect("the engine agrees the action is legal");
            }
            env.step(&[index as i64], &mut buf.as_buffers()).expect("legal");
            if buf.terminated[0] || buf.truncated[0] {
                if buf.terminated[0] {
                    match game.round_winner() {
                        Some(w) => {
                            won += 1;
                            assert_eq!(buf.rewards[w.index()], 1.0);
                            assert_eq!(buf.rewards.iter().filter(|&&r| r == -1.0).count(), players - 1);
                        }
                        None => assert!(buf.rewards.iter().all(|&r| r == 0.0), "a stalemate pays nothing"),
                    }
                }
                episodes += 1;
                let e = env.episode(0).expect("env 0");
                game = Game::new_fast(rules.clone(), players, seeding::episode_seed(5, 0, e)).expect("deal");
            } else {
                let live = env.game(0).expect("env 0");
                assert_eq!(live.state_hash(), game.state_hash(), "{name}");
            }
            assert_eq!(env.game(0).expect("env 0").state_hash(), game.state_hash(), "{name}");
        }
        assert!(episodes > 0, "{name}: no episode ended");
    }
    assert!(won > 0, "no round was won");
}

/// Under the official rules drawing is always legal, so a learner that always draws (and keeps
/// the card) never ends a round: every hand grows, and the stall bound truncates the episode.
#[test]
fn a_learner_that_always_draws_is_truncated_when_the_round_stalls() {
    let always_draw = |buf: &OwnedBuffers| {
        let legal = buf.legal(0);
        let pick = [action::DRAW, action::PASS, action::DECLINE].into_iter().find(|a| legal.contains(a));
        pick.unwrap_or(legal[0]) as i64
    };
    for (max_stall, max_actions) in [(60, 10_000), (uno_env::DEFAULT_MAX_STALL, 10_000), (u32::MAX, 3_000)] {
        let cfg = EnvConfig { opponents: vec![], max_stall, max_actions, ..config("official", 2, &[0, 1], 4) };
        let mut env = VecEnv::new(1, cfg).expect("env");
        let mut buf = OwnedBuffers::new(1);
        env.reset(None, &mut buf.as_buffers()).expect("reset");
        let mut steps = 0u32;
        loop {
            env.step(&[always_draw(&buf)], &mut buf.as_buffers()).expect("legal");
            steps += 1;
            if buf.terminated[0] || buf.truncated[0] {
                break;
            }
            assert!(steps < 50_000, "never cut");
        }
        assert!(buf.truncated[0] && !buf.terminated[0], "max_stall {max_stall}: cut, not won");
        assert!(buf.rewards.iter().all(|&r| r == 0.0), "a cut round pays nothing");
        if max_stall == u32::MAX {
            assert_eq!(steps, max_actions, "without a stall bound only max_actions cuts it");
        } else {
            // No hand ever gets below its deal: the stall starts at once, and every step is
            // one engine action (no reaction windows at two seats without a one-card hand).
            assert_eq!(steps, max_stall, "max_stall {max_stall}");
        }
    }
}

#[test]
fn a_bad_step_is_refused_and_changes_nothing() {
    let mut env = VecEnv::new(2, config("official", 4, &[0], 3)).expect("env");
    let mut buf = OwnedBuffers::new(2);
    env.reset(None, &mut buf.as_buffers()).expect("reset");
    let before = buf.clone();
    let hash = |env: &VecEnv| (0..2).map(|i| env.game(i).expect("env").state_hash()).collect::<Vec<_>>();
    let hashes = hash(&env);
    let legal0 = buf.legal(0)[0] as i64;
    let illegal1 = (0..action::COUNT).find(|&a| buf.mask[action::COUNT + a] == 0).expect("an illegal index") as i64;
    assert!(matches!(env.step(&[legal0, illegal1], &mut buf.as_buffers()), Err(EnvError::Illegal { env: 1, .. })));
    assert!(matches!(env.step(&[legal0, -1], &mut buf.as_buffers()), Err(EnvError::OutOfRange { env: 1, .. })));
    assert!(matches!(env.step(&[legal0], &mut buf.as_buffers()), Err(EnvError::ActionCount { .. })));
    let mut small = OwnedBuffers::new(1);
    assert!(matches!(env.step(&[legal0, legal0], &mut small.as_buffers()), Err(EnvError::Buffer { .. })));
    assert_eq!(hash(&env), hashes);
    assert_eq!(buf, before);
}

#[test]
fn bad_setups_are_refused_with_their_reason() {
    let err = |cfg: EnvConfig| VecEnv::new(1, cfg).err().expect("refused");
    assert!(matches!(err(config("official", 11, &[0], 0)), EnvError::Rules(_)));
    assert!(matches!(err(config("official", 4, &[], 0)), EnvError::NoLearner { .. }));
    assert!(matches!(err(EnvConfig { max_stall: 0, ..config("official", 4, &[0], 0) }), EnvError::MaxStall));
    assert!(matches!(err(config("official", 4, &[4], 0)), EnvError::LearnerSeat { .. }));
    assert!(matches!(err(config("official", 4, &[1, 1], 0)), EnvError::DuplicateLearner(1)));
    let two_bots = EnvConfig { opponents: vec![BotSpec::Random, BotSpec::Heuristic], ..config("official", 4, &[0], 0) };
    assert!(matches!(err(two_bots), EnvError::Opponents { bot_seats: 3, given: 2 }));
    assert!(matches!(VecEnv::new(0, config("official", 4, &[0], 0)), Err(EnvError::NoEnvironments)));
}

#[test]
fn without_auto_reset_a_finished_environment_waits() {
    let cfg = EnvConfig { auto_reset: false, ..config("official", 2, &[0], 11) };
    let mut env = VecEnv::new(1, cfg).expect("env");
    let mut buf = OwnedBuffers::new(1);
    env.reset(None, &mut buf.as_buffers()).expect("reset");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..5000 {
        let legal = buf.legal(0);
        env.step(&[legal[rng.gen_range(0..legal.len())] as i64], &mut buf.as_buffers()).expect("legal");
        if buf.terminated[0] || buf.truncated[0] {
            assert_eq!(buf.seat[0], -1);
            assert!(buf.mask.iter().all(|&m| m == 0));
            assert!(matches!(env.step(&[0], &mut buf.as_buffers()), Err(EnvError::Finished { env: 0 })));
            assert_eq!(buf.reward[0].abs(), 1.0, "a two-seat round has a winner");
            assert_eq!(buf.rewards[..MAX_SEATS].iter().sum::<f32>(), 0.0);
            env.reset_one(0);
            assert_eq!(env.episode(0), Some(1));
            return;
        }
    }
    panic!("no episode ended in 5000 learner steps");
}

/// Every buffer after each of `steps` random steps of a batch of `n` on `threads` threads.
fn whole_run(n: usize, steps: usize, threads: usize, cfg: EnvConfig) -> Vec<OwnedBuffers> {
    let mut env = VecEnv::new(n, cfg).expect("env");
    env.set_threads(threads).expect("threads");
    assert_eq!(env.threads(), threads);
    let mut buf = OwnedBuffers::new(n);
    env.reset(None, &mut buf.as_buffers()).expect("reset");
    let mut rngs: Vec<ChaCha8Rng> = (0..n).map(|i| ChaCha8Rng::seed_from_u64(i as u64)).collect();
    let mut out = Vec::new();
    for _ in 0..steps {
        let actions: Vec<i64> = (0..n)
            .map(|i| {
                let legal = buf.legal(i);
                legal[rngs[i].gen_range(0..legal.len())] as i64
            })
            .collect();
        env.step(&actions, &mut buf.as_buffers()).expect("legal actions");
        out.push(buf.clone());
    }
    out
}

#[test]
fn stepping_on_several_threads_gives_the_same_results() {
    let one = whole_run(300, 200, 1, config("official", 4, &[0], 5));
    let three = whole_run(300, 200, 3, config("official", 4, &[0], 5));
    assert!(one == three, "the threads changed a result");
}

#[test]
fn an_ended_episode_leaves_its_final_observation() {
    // A cap of 30 actions ends most episodes by truncation, the others by a win. Without
    // auto-reset a finished environment keeps its final state: the auto-resetting batch's final
    // observation must be the acting seat's view of it.
    let n = 16;
    let run = |auto_reset: bool| {
        let mut cfg = config("official", 2, &[0], 3);
        cfg.max_actions = 30;
        cfg.auto_reset = auto_reset;
        let mut env = VecEnv::new(n, cfg).expect("env");
        let mut buf = OwnedBuffers::new(n);
        env.reset(None, &mut buf.as_buffers()).expect("reset");
        let mut finals: Vec<Option<(Vec<f32>, bool)>> = vec![None; n];
        while finals.iter().any(Option::is_none) {
            let seats = buf.seat.clone();
            let actions: Vec<i64> = (0..n).map(|i| buf.legal(i).first().map_or(0, |&a| a as i64)).collect();
            if !auto_reset && seats.iter().any(|&s| s < 0) {
                // Some have finished: step the others alone is not possible, so stop here.
                break;
            }
            env.step(&actions, &mut buf.as_buffers()).expect("step");
            for i in 0..n {
                if finals[i].is_none() && (buf.terminated[i] || buf.truncated[i]) {
                    let seat = Seat(seats[i] as u8);
                    let row = buf.final_obs[i * obs::SIZE..(i + 1) * obs::SIZE].to_vec();
                    if !auto_reset {
                        let game = env.game(i).expect("game");
                        assert_eq!(row, obs_of(game, seat, false), "env {i}: the final state's observation");
                    } else {
                        assert_ne!(row, buf.obs[i * obs::SIZE..(i + 1) * obs::SIZE].to_vec(), "env {i}");
                    }
                    finals[i] = Some((row, buf.terminated[i]));
                }
            }
        }
        finals
    };
    let kept = run(false);
    let reset = run(true);
    let mut compared = 0;
    for (k, r) in kept.iter().zip(&reset) {
        if let (Some(k), Some(r)) = (k, r) {
            assert_eq!(k, r);
            compared += 1;
        }
    }
    assert!(compared >= 1, "no episode ended");
    assert!(reset.iter().flatten().any(|(_, terminated)| !terminated), "some episode was truncated");
}
