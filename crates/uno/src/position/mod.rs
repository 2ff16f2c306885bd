//! Positions: a whole game state a person can write down, check, share and start from.
//!
//! A [`Position`] holds every field of a game's state, hidden ones included (every hand, the
//! order of the draw pile, whether a pending Wild Draw Four was a bluff) and, optionally, the
//! exact state of the game's generator, so a game restored from a position taken mid-game
//! deals, reshuffles and plays on exactly as the original would. [`Game::position`] takes one;
//! [`Game::from_position`] checks one against a rule set and starts a game from it.
//!
//! Piles are listed bottom card first, the crate's one [pile order](crate::game#pile-order).
//!
//! Two forms: JSON (serde; fields with a default may be left out) and a compact text form, one
//! `key value` line per field (see [`Position`]'s `Display` and `FromStr`). `docs/positions.md`
//! documents both, with examples.

mod deal;
mod error;
mod text;

pub use error::PositionError;

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::card::{Card, Color, Direction, Face, Seat};
use crate::event::{Mute, Outcome};
use crate::game::{Game, Phase, SimRng};
use crate::hand::{CardSet, Hand};
use crate::rng::GameRng;
use crate::rules::{Rules, SevenZero, Stacking, WildDrawFourRule, MAX_COPIES, MAX_DECK_CARDS};

/// Where a game's generator stands, so a restored game draws what the original would.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RngState {
    /// The portable ChaCha8 generator of dealt and recorded games, seeded with the position's
    /// `seed`, `word_pos` 32-bit words into its stream.
    Chacha {
        /// How many 32-bit words the generator has produced (in JSON a decimal string).
        #[serde(with = "crate::wide")]
        word_pos: u64,
    },
    /// The fast SplitMix64 generator of simulations (`Game::new_fast`): its whole state.
    SplitMix {
        /// The generator's 64-bit state (in JSON a decimal string).
        #[serde(with = "crate::wide")]
        state: u64,
    },
}

/// A whole game state: see the [module docs](self). Build one by hand (the fields with
/// defaults may be left out of JSON), or take one with [`Game::position`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The seed the game's generator started from (in JSON a decimal string; a number is read
    /// too).
    #[serde(default, with = "crate::wide")]
    pub seed: u64,
    /// Where the generator stands; `None` starts a fresh ChaCha8 generator from `seed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rng: Option<RngState>,
    /// The cards the game is played with, when they are not the rules' deck: a position made
    /// up for a test, a lesson or a puzzle, with only the cards it needs. `None`: the rules'
    /// deck. Either way the hands and piles must hold exactly these cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<Card>>,
    /// The hands in seat order (seat 0 first), each in the order its cards arrived.
    pub hands: Vec<Vec<Card>>,
    /// The draw pile, bottom card first: the last card is drawn next.
    pub draw_pile: Vec<Card>,
    /// The discard pile, bottom card first: the last card is the top card. Empty exactly when
    /// the first card is still to be turned.
    pub discard: Vec<Card>,
    /// The colour in play. May be left out when the top card has a colour (it is that
    /// colour); required when the top card is a wild whose colour was named; absent while
    /// nothing is named yet (choosing the first card's colour, first card still to turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// The seat to act.
    pub current: Seat,
    /// The direction of play.
    #[serde(default = "clockwise")]
    pub direction: Direction,
    /// The seat that dealt this round.
    #[serde(default = "seat_zero")]
    pub dealer: Seat,
    /// Who must decide what: `"phase": "play"`, `"drawn_card"`, `"choose_color"`,
    /// `"challenge"` (with `"offender"`), `"choose_swap"`, `"same_number"`, `"round_over"`,
    /// `"game_over"`.
    #[serde(flatten)]
    pub phase: Phase,
    /// The cards are dealt but the first card is still to be turned from the draw pile:
    /// starting a game from this position turns it (with the rules' first-card effects).
    #[serde(default, skip_serializing_if = "is_false")]
    pub first_card_to_turn: bool,
    /// Cards the current player must draw unless they stack (or answer a challenge).
    #[serde(default)]
    pub pending_draw: u32,
    /// The card the current player drew and decides about (`drawn_card` phase only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn_card: Option<Card>,
    /// Whether the last Wild Draw Four was played while holding the colour in play: what a
    /// challenge reveals. Read only while a challenge is pending.
    #[serde(default)]
    pub wd4_guilty: bool,
    /// The seats that called UNO for their current hand.
    #[serde(default)]
    pub uno_called: Vec<Seat>,
    /// The seat that can be caught for not calling UNO.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uno_exposed: Option<Seat>,
    /// Whether a card was drawn or played during the current turn (stalemate detection).
    #[serde(default)]
    pub acted: bool,
    /// Turns in a row in which nobody drew or played (stalemate detection).
    #[serde(default)]
    pub dead_turns: usize,
    /// Completed turns this round.
    #[serde(default)]
    pub turns: u32,
    /// The round of the match, from 1.
    #[serde(default = "one")]
    pub round: u32,
    /// Points per seat; empty means all zero.
    #[serde(default)]
    pub scores: Vec<u32>,
    /// The winner of the round just ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_winner: Option<Seat>,
    /// How the game ended (`game_over` phase only); its scores are `scores`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

fn clockwise() -> Direction {
    Direction::Clockwise
}

fn seat_zero() -> Seat {
    Seat(0)
}

fn one() -> u32 {
    1
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Position {
    /// Every field that has a default at its default, the required ones empty (no hands, no
    /// piles, seat 0 to play): what the text form and a [`Deal`](crate::Deal) start from.
    pub(crate) fn defaults() -> Position {
        Position {
            seed: 0,
            rng: None,
            deck: None,
            hands: Vec::new(),
            draw_pile: Vec::new(),
            discard: Vec::new(),
            color: None,
            current: Seat(0),
            direction: Direction::Clockwise,
            dealer: Seat(0),
            phase: Phase::Play,
            first_card_to_turn: false,
            pending_draw: 0,
            drawn_card: None,
            wd4_guilty: false,
            uno_called: Vec::new(),
            uno_exposed: None,
            acted: false,
            dead_turns: 0,
            turns: 0,
            round: 1,
            scores: Vec::new(),
            round_winner: None,
            outcome: None,
        }
    }

    /// The position as JSON (pretty-printed).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a position from JSON; it is checked against rules only by
    /// [`Game::from_position`].
    ///
    /// # Errors
    /// [`PositionError::Syntax`] when the text is not a position.
    pub fn from_json(text: &str) -> Result<Position, PositionError> {
        serde_json::from_str(text).map_err(|e| PositionError::Syntax { line: e.line(), message: e.to_string() })
    }

    /// Checks the position against `rules` without starting a game: see
    /// [`Game::from_position`] for what is checked.
    ///
    /// # Errors
    /// The first refusal found, as a [`PositionError`].
    pub fn validate(&self, rules: &Rules) -> Result<(), PositionError> {
        let players = self.hands.len();
        if rules.check_players(players).is_err() {
            return Err(PositionError::PlayerCount {
                got: players,
                min: rules.min_players(),
                max: rules.max_players(),
            });
        }
        self.check_seats()?;
        if !self.scores.is_empty() && self.scores.len() != players {
            return Err(PositionError::Scores { got: self.scores.len(), players });
        }
        self.check_cards(rules)?;
        if let Some(c) = self.color {
            if !rules.colors().contains(&c) {
                return Err(PositionError::ColorNotInGame(c));
            }
        }
        if self.first_card_to_turn {
            let quiet = self.discard.is_empty()
                && self.phase == Phase::Play
                && self.pending_draw == 0
                && self.drawn_card.is_none()
                && self.color.is_none()
                && self.uno_called.is_empty()
                && self.uno_exposed.is_none();
            return if quiet { Ok(()) } else { Err(PositionError::FirstCardToTurn) };
        }
        let top = *self.discard.last().ok_or(PositionError::EmptyDiscard)?;
        self.check_phase(rules, top)?;
        self.check_hands_and_outcome()
    }

    /// Every seat the position names sits at the table.
    fn check_seats(&self) -> Result<(), PositionError> {
        let players = self.hands.len();
        let seat = |what: &'static str, s: Seat| {
            if s.index() < players {
                Ok(())
            } else {
                Err(PositionError::NoSuchSeat { what, seat: s })
            }
        };
        seat("current", self.current)?;
        seat("dealer", self.dealer)?;
        for &s in &self.uno_called {
            seat("uno_called", s)?;
        }
        if let Some(s) = self.uno_exposed {
            seat("uno_exposed", s)?;
        }
        if let Some(s) = self.round_winner {
            seat("round_winner", s)?;
        }
        if let Phase::Challenge { offender } = self.phase {
            seat("offender", offender)?;
        }
        if let Some(s) = self.outcome.as_ref().and_then(|o| o.winner) {
            seat("outcome winner", s)?;
        }
        Ok(())
    }

    /// The colour, the phase, the drawn card and the penalty fit the top card and the rules.
    fn check_phase(&self, rules: &Rules, top: Card) -> Result<(), PositionError> {
        let players = self.hands.len();
        match (top.color(), self.color, self.phase) {
            (Some(own), Some(c), _) if c != own => return Err(PositionError::ColorMismatch { top, color: c }),
            (Some(_), _, Phase::ChooseColor) => return Err(PositionError::NothingToChoose { top }),
            (None, Some(_), Phase::ChooseColor) => return Err(PositionError::ColorTooEarly),
            (None, None, phase) if phase != Phase::ChooseColor => return Err(PositionError::ColorMissing { top }),
            _ => {}
        }
        match self.phase {
            Phase::Challenge { offender } => {
                let ok = rules.wild_draw_four() == WildDrawFourRule::Challenge
                    && top == Card::WILD_DRAW_FOUR
                    && self.pending_draw > 0
                    && offender != self.current;
                if !ok {
                    return Err(PositionError::ChallengeImpossible);
                }
            }
            Phase::ChooseSwap if rules.seven_zero() != SevenZero::On || top.face() != Face::Digit(7) => {
                return Err(PositionError::SwapImpossible);
            }
            Phase::SameNumber => {
                let runs = rules.effect(top, players).number == crate::effect::NumberEffect::SameNumber;
                let face = CardSet::of_face(top.face_index());
                let holds = self.hands[self.current.index()].iter().any(|&c| face.contains(c));
                if !runs || !holds {
                    return Err(PositionError::SameNumberImpossible);
                }
            }
            _ => {}
        }
        match (self.phase, self.drawn_card) {
            (Phase::DrawnCard, Some(card)) if self.hands[self.current.index()].contains(&card) => {}
            (Phase::DrawnCard, _) => return Err(PositionError::DrawnCardMissing),
            (_, Some(_)) => return Err(PositionError::DrawnCardOutOfPhase),
            _ => {}
        }
        if self.pending_draw > 0 {
            let draw_card = matches!(top.face(), Face::DrawTwo | Face::WildDrawFour);
            let ok = draw_card
                && match self.phase {
                    Phase::Challenge { .. } => true,
                    Phase::Play => rules.stacking() != Stacking::Off,
                    _ => false,
                };
            if !ok {
                return Err(PositionError::PenaltyImpossible { pending: self.pending_draw });
            }
        }
        Ok(())
    }

    /// No hand is empty while the round goes on, UNO calls fit their hands, and the outcome
    /// fits the phase and the scores.
    fn check_hands_and_outcome(&self) -> Result<(), PositionError> {
        let players = self.hands.len();
        let over = matches!(self.phase, Phase::RoundOver | Phase::GameOver);
        if !over {
            if let Some(s) = self.hands.iter().position(Vec::is_empty) {
                return Err(PositionError::EmptyHand { seat: Seat(s as u8) });
            }
        }
        for &s in &self.uno_called {
            let cards = self.hands[s.index()].len();
            if cards > 2 {
                return Err(PositionError::UnoCallTooManyCards { seat: s, cards });
            }
        }
        let scores_match =
            |o: &Outcome| o.scores == self.scores || (self.scores.is_empty() && o.scores.iter().all(|&s| s == 0));
        match (&self.outcome, self.phase) {
            (None, Phase::GameOver) => return Err(PositionError::OutcomeMismatch),
            (Some(o), Phase::GameOver) if !scores_match(o) || o.scores.len() != players => {
                return Err(PositionError::OutcomeMismatch)
            }
            (Some(_), phase) if phase != Phase::GameOver => return Err(PositionError::OutcomeMismatch),
            _ => {}
        }
        Ok(())
    }

    fn check_cards(&self, rules: &Rules) -> Result<(), PositionError> {
        // A deck of the position's own is bounded as a rules deck is (`Rules::new`).
        if let Some(deck) = &self.deck {
            let over = |what: String, value: usize, max: usize| PositionError::DeckOverLimit { what, value, max };
            if deck.len() > MAX_DECK_CARDS {
                return Err(over("cards".into(), deck.len(), MAX_DECK_CARDS));
            }
            let mut copies = [0usize; Card::KINDS];
            for &c in deck {
                copies[c.index()] += 1;
            }
            if let Some(card) = Card::all().find(|c| copies[c.index()] > MAX_COPIES as usize) {
                return Err(over(format!("copies of {card}"), copies[card.index()], MAX_COPIES as usize));
            }
        }
        let mut counts = [0i32; Card::KINDS];
        for &c in self.deck.as_deref().unwrap_or(rules.deck()) {
            counts[c.index()] += 1;
        }
        for &c in self.hands.iter().flatten().chain(&self.draw_pile).chain(&self.discard) {
            counts[c.index()] -= 1;
        }
        let mut missing = Vec::new();
        let mut extra = Vec::new();
        for card in Card::all() {
            let n = counts[card.index()];
            let list = if n > 0 { &mut missing } else { &mut extra };
            list.extend(std::iter::repeat_n(card, n.unsigned_abs() as usize));
        }
        if missing.is_empty() && extra.is_empty() {
            Ok(())
        } else {
            Err(PositionError::Cards { missing, extra })
        }
    }
}

impl Game {
    /// The whole state of the game, hidden parts and the generator included: a game started
    /// from it with [`Game::from_position`] plays on exactly as this one does.
    pub fn position(&self) -> Position {
        let s = &self.state;
        let first_card_to_turn = false;
        let top = s.discard.last().copied();
        let color = match (top, s.phase) {
            (None, _) | (_, Phase::ChooseColor) => None,
            (Some(_), _) => Some(s.color),
        };
        // A game started from a position with a deck of its own keeps it.
        let cards = || s.hands.iter().flatten().chain(&s.draw_pile).chain(&s.discard);
        let mut counts = [0i32; Card::KINDS];
        cards().for_each(|c| counts[c.index()] += 1);
        self.rules.deck().iter().for_each(|c| counts[c.index()] -= 1);
        let deck = counts.iter().any(|&n| n != 0).then(|| {
            let mut deck: Vec<Card> = cards().copied().collect();
            deck.sort();
            deck
        });
        Position {
            seed: self.seed,
            deck,
            rng: Some(match &self.rng {
                GameRng::Portable(r) => {
                    RngState::Chacha { word_pos: u64::try_from(r.get_word_pos()).unwrap_or(u64::MAX) }
                }
                GameRng::Fast(r) => RngState::SplitMix { state: r.0 },
            }),
            hands: s.hands.iter().map(|h| h.to_vec()).collect(),
            draw_pile: s.draw_pile.clone(),
            discard: s.discard.clone(),
            color,
            current: s.current,
            direction: s.direction,
            dealer: s.dealer,
            phase: s.phase,
            first_card_to_turn,
            pending_draw: s.pending,
            drawn_card: s.drawn,
            wd4_guilty: s.wd4_guilty,
            uno_called: (0..s.players).map(|i| Seat(i as u8)).filter(|&seat| self.uno_called(seat)).collect(),
            uno_exposed: s.uno_exposed,
            acted: s.acted,
            dead_turns: s.dead_turns,
            turns: s.turns,
            round: s.round,
            scores: s.scores.clone(),
            round_winner: s.round_winner,
            outcome: s.outcome.clone(),
        }
    }

    /// A game in `position` under `rules`, after checking that the position could arise
    /// under them: the player count; every seat named; the cards are exactly the deck (the
    /// rules', or the position's own `deck`);
    /// the colour in play agrees with the top card (a coloured top is its own colour, a wild
    /// names one once it has been chosen); the phase agrees with the table (a colour to choose
    /// needs a wild on top, a challenge the challenge rule and a Wild Draw Four, a swap the
    /// 7–0 rule and a 7, a same-number run its rule, a number on top and another of it in
    /// the current hand, a drawn card its phase and the current hand, a penalty a draw card
    /// and a way to stack or answer it); no empty hand while the round goes on; UNO called
    /// only on two cards or fewer; an outcome exactly when the game is over.
    ///
    /// With `first_card_to_turn`, the game turns the first card now, as `Game::new` does.
    ///
    /// # Errors
    /// The first refusal found, as a [`PositionError`].
    pub fn from_position(rules: impl Into<Arc<Rules>>, position: &Position) -> Result<Game, PositionError> {
        let rules = rules.into();
        position.validate(&rules)?;
        let p = position;
        let players = p.hands.len();
        let mut game = Game::empty(rules, players, p.seed);
        game.rng = match p.rng {
            None => GameRng::Portable(ChaCha8Rng::seed_from_u64(p.seed)),
            Some(RngState::Chacha { word_pos }) => {
                let mut r = ChaCha8Rng::seed_from_u64(p.seed);
                r.set_word_pos(u128::from(word_pos));
                GameRng::Portable(r)
            }
            Some(RngState::SplitMix { state }) => GameRng::Fast(SimRng(state)),
        };
        let first_colour = game.rules.colors()[0];
        let s = &mut game.state;
        s.hands = p.hands.iter().map(|h| Hand::from_cards(h.clone())).collect();
        s.draw_pile.clone_from(&p.draw_pile);
        s.discard.clone_from(&p.discard);
        // While a colour is still to be chosen the engine keeps its first colour in its place.
        s.color = p.color.or_else(|| p.discard.last().and_then(|c| c.color())).unwrap_or(first_colour);
        s.current = p.current;
        s.direction = p.direction;
        s.dealer = p.dealer;
        s.phase = p.phase;
        s.pending = p.pending_draw;
        s.drawn = p.drawn_card;
        s.wd4_guilty = p.wd4_guilty;
        s.uno_called = p.uno_called.iter().fold(0u32, |m, seat| m | (1 << seat.0));
        s.uno_exposed = p.uno_exposed;
        s.acted = p.acted;
        s.dead_turns = p.dead_turns;
        s.turns = p.turns;
        s.round = p.round;
        s.scores = if p.scores.is_empty() { vec![0; players] } else { p.scores.clone() };
        s.round_winner = p.round_winner;
        s.outcome.clone_from(&p.outcome);
        if p.first_card_to_turn {
            game.turn_first_card(&mut Mute);
        }
        Ok(game)
    }
}
