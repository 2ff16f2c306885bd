//! A `csce322` game's record written as `.uno` files at every point of random games: the files
//! read back as written, hold exactly the game's cards, put the mover first and the others in
//! the order of play, and carry the colour in play as the seed's markers.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::courses::csce322::{choose_move, Action as SeedAction, Move, Rule};
use uno::courses::export::{export, writes, ExportError};
use uno::courses::notation::{Entry, Layout};
use uno::{Card, Direction, Game, GameRecord, Phase, Rules, Seat};

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_unstable();
    cards
}

fn check(game: &Game, files: &Layout) {
    // The files read back as they were written.
    let again =
        Layout::parse(files.write_deck().as_bytes(), files.write_discard().as_bytes(), files.write_hands().as_bytes())
            .expect("the written files parse");
    assert_eq!(&again, files);

    // Every card of the game, and no other, is in the files.
    let mut in_files: Vec<Card> = files.deck().to_vec();
    in_files.extend(files.hands().iter().flatten().copied());
    in_files.extend(files.discard().iter().filter_map(|e| e.card()));
    assert_eq!(sorted(in_files), sorted(game.all_cards()));
    let deck: Vec<Card> = game.draw_pile().iter().rev().copied().collect();
    assert_eq!(files.deck(), deck.as_slice(), "the deck, the card drawn next first");
    let played: Vec<Card> = files.discard().iter().rev().filter_map(|e| e.card()).collect();
    assert_eq!(played, game.discard_pile(), "the discard pile's cards, in order");

    // The mover is Player 1, the others follow in the order of play.
    let n = game.players();
    for (k, hand) in files.hands().iter().enumerate() {
        let c = usize::from(game.current().0);
        let seat = match game.direction() {
            Direction::Clockwise => (c + k) % n,
            Direction::CounterClockwise => (c + n - k) % n,
        };
        assert_eq!(hand.as_slice(), game.hand(Seat(seat as u8)), "Player {} is seat {seat}", k + 1);
    }

    // Every wild has its marker in front; the colour in play is the top marker's when the top is
    // a marker, the top card's otherwise.
    let pile = files.discard();
    for (i, e) in pile.iter().enumerate() {
        if e.card().is_some_and(|c| c.is_wild()) {
            assert!(i > 0 && pile[i - 1].is_marker(), "a wild without its marker at {i}: {}", files.write_discard());
        }
    }
    match pile.first() {
        Some(&Entry::Marker(c)) => assert_eq!(Some(c), game.color(), "{}", files.write_discard()),
        Some(&Entry::Card(c)) => assert_eq!(c.color(), game.color(), "{}", files.write_discard()),
        other => panic!("the discard pile starts with {other:?}"),
    }

    // Seed 000 reads a penalty from the pile: one is owed exactly when the engine has one
    // pending, and as many cards.
    let mv = choose_move(files, 0);
    let extends = matches!(mv.as_ref().map(|m| m.rule), Some(Rule::ExtendDrawTwo | Rule::ExtendWildDrawFour));
    assert_eq!(
        extends,
        game.pending_draw() > 0,
        "{} with {} pending: {mv:?}",
        files.write_discard(),
        game.pending_draw()
    );
    if let Some(Move { action: SeedAction::ServePenalty { owed, .. }, .. }) = mv {
        assert_eq!(owed, game.pending_draw() as usize, "{}", files.write_discard());
    }
}

#[test]
fn every_point_of_random_csce322_games_writes_as_uno_files() {
    let rules = Rules::preset("csce322").expect("preset");
    assert!(writes(&rules));
    let mut written = 0;
    let mut markers = 0;
    for seed in 0..60u64 {
        let players = 2 + (seed as usize % 5);
        let mut game = Game::new(rules.clone(), players, seed).expect("game");
        let mut record = GameRecord::new(&rules, players, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for ply in 0..400 {
            match export(&record, ply) {
                Ok(files) => {
                    assert_eq!(game.phase(), Phase::Play);
                    check(&game, &files);
                    markers += files.discard().iter().filter(|e| e.is_marker()).count();
                    written += 1;
                }
                Err(ExportError::NotPlaying(p)) => {
                    assert_eq!(p, ply);
                    assert_ne!(game.phase(), Phase::Play);
                }
                Err(e) => panic!("seed {seed}, action {ply}: {e}"),
            }
            if game.is_over() {
                break;
            }
            let seat = game.current();
            let legal = game.legal_actions();
            let action = legal[rng.gen_range(0..legal.len())];
            game.apply(seat, action).expect("a legal action");
            record.push(seat, action);
        }
    }
    assert!(written > 2_000, "{written} points written");
    assert!(markers > 1_000, "{markers} markers: the wilds and served penalties were hardly met");
}

#[test]
fn other_rules_and_points_past_the_end_are_refused() {
    let official = Rules::preset("official").expect("preset");
    assert!(!writes(&official));
    let record = GameRecord::new(&official, 3, 1);
    assert!(matches!(export(&record, 0), Err(ExportError::NotSeed000(name)) if name == "official"));
    let seed000 = Rules::preset("csce322").expect("preset");
    let record = GameRecord::new(&seed000, 3, 1);
    assert!(matches!(export(&record, 1), Err(ExportError::NoSuchPly { ply: 1, len: 0 })));
    let files = export(&record, 0).expect("the deal");
    assert_eq!(files.hands().len(), 3);
    assert_eq!(files.hands()[0].len(), 7);
}
