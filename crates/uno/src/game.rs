//! The one state machine every rule set runs on.
//!
//! `Game::new` deals; `legal_actions` lists what the player to act may do; `apply` validates an
//! action and returns the events it caused, leaving the state untouched when it refuses;
//! `apply_unchecked` skips validation and event building for bots and simulation.

use std::sync::Arc;

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::{Action, IllegalAction};
use crate::card::{Card, Color, Direction, Face, Seat};
use crate::event::{DrawReason, EndReason, Event, Mute, Outcome, Sink};
use crate::hand::{CardSet, Hand};
use crate::rules::{
    DrawRule, Exhausted, FirstCard, FirstPlayer, ForcedPlay, JumpIn, Rules, RulesError, SevenZero, Stacking,
    TwoPlayerRule, UnoCall, WildDrawFourRule,
};

/// Where the game stands: who must decide what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The current player plays a card or draws (or, with a penalty pending, stacks or draws it).
    Play,
    /// The current player drew and decides about the drawn card.
    DrawnCard,
    /// The first card turned up is a wild: the current player names the colour.
    ChooseColor,
    /// A Wild Draw Four was played on the current player: challenge or accept.
    Challenge { offender: Seat },
    /// The current player played a 7 (7–0 rule) and chooses whom to swap hands with.
    ChooseSwap,
    /// A round of a match ended; `NextRound` deals the next.
    RoundOver,
    /// The game (or the match) is over.
    GameOver,
}

/// Why a game cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("a position needs between 2 and {max} hands, got {got}")]
    Hands { got: usize, max: usize },
    #[error("a position needs a card on the discard pile")]
    EmptyDiscard,
    #[error("seat {0} does not exist")]
    NoSuchSeat(Seat),
}

/// A position to start from, for tests, scenarios and the seed layers: hands in seat order,
/// piles listed top card first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    pub hands: Vec<Vec<Card>>,
    pub draw_pile: Vec<Card>,
    pub discard: Vec<Card>,
    /// The colour in play; defaults to the top card's colour (or the first rule colour).
    pub color: Option<Color>,
    pub current: Seat,
    pub direction: Direction,
    pub dealer: Seat,
}

impl Deal {
    /// A position with `current` to play, going clockwise, dealt by seat 0, the colour in play
    /// that of the top card: the usual start for a test or a scenario.
    pub fn new(hands: Vec<Vec<Card>>, draw_pile: Vec<Card>, discard: Vec<Card>, current: Seat) -> Deal {
        Deal { hands, draw_pile, discard, color: None, current, direction: Direction::Clockwise, dealer: Seat(0) }
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<Rules>,
    rng: GameRng,
    seed: u64,
    players: usize,
    hands: Vec<Hand>,
    /// Top card last.
    draw_pile: Vec<Card>,
    /// Top card last.
    discard: Vec<Card>,
    color: Color,
    current: Seat,
    direction: Direction,
    dealer: Seat,
    phase: Phase,
    /// Cards the current player must draw unless they stack (stacking rules, challenges).
    pending: u32,
    drawn: Option<Card>,
    /// Whether the last Wild Draw Four was played while holding the colour in play (hidden).
    wd4_guilty: bool,
    /// Seats that called UNO for their current low hand.
    uno_called: u16,
    /// The seat that went down to one card without calling, until the next player acts.
    uno_exposed: Option<Seat>,
    /// Something was drawn or played during the current turn (stalemate detection).
    acted: bool,
    dead_turns: usize,
    turns: u32,
    round: u32,
    scores: Vec<u32>,
    round_winner: Option<Seat>,
    outcome: Option<Outcome>,
}

impl Game {
    /// Deals a new game of `players` seats; everything random follows `seed`.
    pub fn new(rules: impl Into<Arc<Rules>>, players: usize, seed: u64) -> Result<Game, SetupError> {
        let mut events = Vec::new();
        Game::new_with_events(rules, players, seed, &mut events)
    }

    /// Like [`Game::new`], also returning the events of the deal (start card, first turn).
    pub fn new_with_events(
        rules: impl Into<Arc<Rules>>,
        players: usize,
        seed: u64,
        events: &mut Vec<Event>,
    ) -> Result<Game, SetupError> {
        let rules = rules.into();
        rules.check_players(players)?;
        let mut game = Game::empty(rules, players, seed);
        game.start_round(events);
        Ok(game)
    }

    /// Like [`Game::new`] without events, for simulation.
    pub fn new_quiet(rules: impl Into<Arc<Rules>>, players: usize, seed: u64) -> Result<Game, SetupError> {
        let rules = rules.into();
        rules.check_players(players)?;
        let mut game = Game::empty(rules, players, seed);
        game.start_round(&mut Mute);
        Ok(game)
    }

    /// Like [`Game::new_quiet`], but everything random follows [`SimRng`], a small portable
    /// generator several times faster than ChaCha: for simulation and bots' playouts. The same
    /// seed gives the same game on every platform, but not the game `Game::new` deals; records
    /// and the store keep using `Game::new`. Its draw pile has no fixed order: each draw takes
    /// a uniformly random card of it (see `pop_draw`), so `draw_pile()` lists its cards only.
    pub fn new_fast(rules: impl Into<Arc<Rules>>, players: usize, seed: u64) -> Result<Game, SetupError> {
        let rules = rules.into();
        rules.check_players(players)?;
        let mut game = Game::empty(rules, players, seed);
        game.rng = GameRng::Fast(SimRng::seed_from_u64(seed));
        game.start_round(&mut Mute);
        Ok(game)
    }

    /// Deals a new game on the same rules and seats, reusing every buffer: the game
    /// `new_quiet` (or `new_fast`, if this game was made by it) deals for `seed`.
    pub fn restart(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = match self.rng {
            GameRng::Portable(_) => GameRng::Portable(ChaCha8Rng::seed_from_u64(seed)),
            GameRng::Fast(_) => GameRng::Fast(SimRng::seed_from_u64(seed)),
        };
        self.scores.iter_mut().for_each(|s| *s = 0);
        self.round = 0;
        self.outcome = None;
        self.wd4_guilty = false;
        self.color = self.rules.colors()[0];
        self.start_round(&mut Mute);
    }

    /// What `seat` may see, borrowed: no allocation, for bots on the hot path.
    #[inline]
    pub fn view(&self, seat: Seat) -> View<'_> {
        View { game: self, seat }
    }

    /// Starts from a given position instead of dealing. The cards need not form the rules'
    /// deck; conservation is then about the cards given.
    pub fn from_deal(rules: impl Into<Arc<Rules>>, deal: Deal, seed: u64) -> Result<Game, SetupError> {
        let rules = rules.into();
        let players = deal.hands.len();
        if !(2..=crate::rules::MAX_PLAYERS).contains(&players) {
            return Err(SetupError::Hands { got: players, max: crate::rules::MAX_PLAYERS });
        }
        if deal.current.index() >= players {
            return Err(SetupError::NoSuchSeat(deal.current));
        }
        if deal.dealer.index() >= players {
            return Err(SetupError::NoSuchSeat(deal.dealer));
        }
        let top = *deal.discard.first().ok_or(SetupError::EmptyDiscard)?;
        let mut game = Game::empty(rules, players, seed);
        game.hands = deal.hands.into_iter().map(Hand::from_cards).collect();
        game.draw_pile = deal.draw_pile.into_iter().rev().collect();
        game.discard = deal.discard.into_iter().rev().collect();
        game.color = deal.color.or(top.color()).unwrap_or(game.rules.colors()[0]);
        game.current = deal.current;
        game.direction = deal.direction;
        game.dealer = deal.dealer;
        game.phase = Phase::Play;
        game.round = 1;
        Ok(game)
    }

    fn empty(rules: Arc<Rules>, players: usize, seed: u64) -> Game {
        let color = rules.colors()[0];
        Game {
            rng: GameRng::Portable(ChaCha8Rng::seed_from_u64(seed)),
            seed,
            players,
            hands: vec![Hand::with_capacity(rules.hand_size() * 2); players],
            draw_pile: Vec::with_capacity(rules.deck().len()),
            discard: Vec::with_capacity(rules.deck().len()),
            color,
            current: Seat(0),
            direction: rules.direction(),
            dealer: Seat(0),
            phase: Phase::Play,
            pending: 0,
            drawn: None,
            wd4_guilty: false,
            uno_called: 0,
            uno_exposed: None,
            acted: false,
            dead_turns: 0,
            turns: 0,
            round: 0,
            scores: vec![0; players],
            round_winner: None,
            outcome: None,
            rules,
        }
    }

    // ---- reading the state ----

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn rules_arc(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn players(&self) -> usize {
        self.players
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn current(&self) -> Seat {
        self.current
    }
    pub fn direction(&self) -> Direction {
        self.direction
    }
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    /// The colour in play (the declared colour when the top card is a wild).
    pub fn color(&self) -> Color {
        self.color
    }
    pub fn top(&self) -> Card {
        // Every phase after the deal has a card on the discard pile.
        self.discard.last().copied().unwrap_or(Card::WILD)
    }
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat.index()).map(Hand::as_slice).unwrap_or(&[])
    }
    pub fn hands(&self) -> &[Hand] {
        &self.hands
    }
    /// The draw pile, bottom card first (the next card drawn is the last).
    pub fn draw_pile(&self) -> &[Card] {
        &self.draw_pile
    }
    /// The discard pile, bottom card first (the top card is the last).
    pub fn discard_pile(&self) -> &[Card] {
        &self.discard
    }
    /// Cards the current player must draw unless they stack.
    pub fn pending_draw(&self) -> u32 {
        self.pending
    }
    /// The card the current player just drew, while they decide about it.
    pub fn drawn_card(&self) -> Option<Card> {
        self.drawn
    }
    pub fn uno_called(&self, seat: Seat) -> bool {
        // A seat past the table (or past the mask's 16 bits) has called nothing.
        seat.index() < self.players && self.uno_called & (1 << seat.0) != 0
    }
    /// The seat that can be caught for not calling UNO, if any.
    pub fn uno_exposed(&self) -> Option<Seat> {
        self.uno_exposed
    }
    /// Completed turns this round.
    pub fn turns(&self) -> u32 {
        self.turns
    }
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }
    pub fn round_winner(&self) -> Option<Seat> {
        self.round_winner
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// Whether the current round has ended (also true once the game is over).
    pub fn is_round_over(&self) -> bool {
        matches!(self.phase, Phase::RoundOver | Phase::GameOver)
    }
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Every card in the game, wherever it is, sorted: equal to the deck at all times.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.hands.iter().flatten().copied().collect();
        all.extend_from_slice(&self.draw_pile);
        all.extend_from_slice(&self.discard);
        all.sort();
        all
    }

    /// A hash of the whole state (RNG position included), stable across runs and platforms.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.u64(self.seed);
        h.u64(self.players as u64);
        for hand in &self.hands {
            h.u64(hand.len() as u64);
            for c in hand {
                h.byte(c.index() as u8);
            }
        }
        for pile in [&self.draw_pile, &self.discard] {
            h.u64(pile.len() as u64);
            for c in pile.iter() {
                h.byte(c.index() as u8);
            }
        }
        h.byte(self.color as u8);
        h.byte(self.current.0);
        h.byte(self.direction as u8);
        h.byte(self.dealer.0);
        let (tag, extra) = match self.phase {
            Phase::Play => (0, 0),
            Phase::DrawnCard => (1, 0),
            Phase::ChooseColor => (2, 0),
            Phase::Challenge { offender } => (3, offender.0),
            Phase::ChooseSwap => (4, 0),
            Phase::RoundOver => (5, 0),
            Phase::GameOver => (6, 0),
        };
        h.byte(tag);
        h.byte(extra);
        h.u64(self.pending as u64);
        h.byte(self.drawn.map_or(255, |c| c.index() as u8));
        h.byte(self.wd4_guilty as u8);
        h.u64(self.uno_called as u64);
        h.byte(self.uno_exposed.map_or(255, |s| s.0));
        h.byte(self.acted as u8);
        h.u64(self.dead_turns as u64);
        h.u64(self.turns as u64);
        h.u64(self.round as u64);
        for s in &self.scores {
            h.u64(*s as u64);
        }
        h.u64(self.rng.position());
        h.finish()
    }

    // ---- what is legal ----

    /// The actions the current player may take.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(self.current, &mut out);
        out
    }

    /// The actions `seat` may take now: the current player's moves, or out-of-turn ones
    /// (jump-ins, UNO calls and catches).
    pub fn legal_actions_for(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// Fills `out` (cleared first) with the legal actions of `seat`, without allocating when
    /// `out` has room.
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if seat.index() >= self.players || self.phase == Phase::GameOver {
            return;
        }
        let consider = |a: Action, out: &mut Vec<Action>| {
            if self.check(seat, a).is_ok() {
                out.push(a);
            }
        };
        let hand = &self.hands[seat.index()];
        let mut seen = [false; Card::KINDS];
        for &card in hand {
            if std::mem::replace(&mut seen[card.index()], true) {
                continue;
            }
            if card.is_wild() {
                for &c in self.rules.colors() {
                    consider(Action::Play { card, color: Some(c) }, out);
                }
            } else {
                consider(Action::Play { card, color: None }, out);
            }
        }
        for a in [Action::Draw, Action::Pass, Action::Challenge, Action::Accept, Action::NextRound] {
            consider(a, out);
        }
        if self.phase == Phase::ChooseColor {
            for &c in self.rules.colors() {
                consider(Action::DeclareColor { color: c }, out);
            }
        }
        if self.phase == Phase::ChooseSwap {
            for s in 0..self.players {
                consider(Action::SwapHands { with: Seat(s as u8) }, out);
            }
        }
        // Last, so "the first legal action" always moves the game on. False calls are never
        // listed: `apply` takes them under rules that punish them, but no player wants one.
        if self.own_uno(seat).is_ok() && self.check(seat, Action::CallUno).is_ok() {
            out.push(Action::CallUno);
        }
        if let Some(target) = self.uno_exposed.filter(|_| self.rules.uno_call() != UnoCall::Off) {
            if target != seat && self.check(seat, Action::CatchUno { seat: target }).is_ok() {
                out.push(Action::CatchUno { seat: target });
            }
        }
    }

    /// The distinct cards `seat` may play now, in hand order: exactly the cards of the `Play`
    /// actions `legal_actions_for(seat)` lists, found without allocating.
    pub fn plays_for(&self, seat: Seat) -> Plays {
        let mut out = Plays::default();
        if seat.index() >= self.players {
            return out;
        }
        if seat != self.current {
            // Out of turn only a jump-in can play: rare, so the general check is fine.
            let mut seen = 0u64;
            for &card in &self.hands[seat.index()] {
                let bit = 1u64 << card.index();
                if seen & bit == 0 && self.check(seat, Action::Play { card, color: self.play_color(card) }).is_ok() {
                    out.push(card);
                }
                seen |= bit;
            }
            return out;
        }
        match self.phase {
            Phase::Play | Phase::Challenge { .. } => {}
            Phase::DrawnCard => {
                // Only the drawn card may follow a draw.
                if let Some(card) = self.drawn {
                    if self.hands[seat.index()].contains(&card)
                        && self.check(seat, Action::Play { card, color: self.play_color(card) }).is_ok()
                    {
                        out.push(card);
                    }
                }
                return out;
            }
            _ => return out,
        }
        let ok = match self.phase {
            Phase::Challenge { .. } => {
                let top = self.top();
                let mut set = CardSet::EMPTY;
                for c in self.hands[seat.index()].kinds().iter() {
                    if self.stackable(c, top) {
                        set.insert(c);
                    }
                }
                set
            }
            _ => self.playable_kinds(seat),
        };
        let mut seen = CardSet::EMPTY;
        for &card in self.hands[seat.index()].iter() {
            if ok.contains(card) && !seen.contains(card) {
                seen.insert(card);
                out.push(card);
            }
        }
        out
    }

    /// A colour that makes `Play { card, color }` well-formed: any rule colour for a wild.
    fn play_color(&self, card: Card) -> Option<Color> {
        card.is_wild().then(|| self.rules.colors()[0])
    }

    /// Whether `card` could be played by the current player in the `Play` phase right now,
    /// ignoring whether it is in the hand.
    #[inline]
    pub fn is_playable(&self, card: Card) -> bool {
        let top = self.top();
        if self.pending > 0 {
            return self.stackable(card, top);
        }
        if !card.matches(top, self.color) {
            return false;
        }
        if card == Card::WILD_DRAW_FOUR && self.rules.wild_draw_four() == WildDrawFourRule::Restricted {
            return !self.holds_color(self.current, self.color);
        }
        true
    }

    fn stackable(&self, card: Card, top: Card) -> bool {
        let d2 = card.face() == Face::DrawTwo;
        let wd4 = card == Card::WILD_DRAW_FOUR;
        let top_d2 = top.face() == Face::DrawTwo;
        let top_wd4 = top == Card::WILD_DRAW_FOUR;
        match self.rules.stacking() {
            Stacking::Off => false,
            Stacking::DrawTwo => d2 && top_d2,
            Stacking::WildDrawFour => wd4 && top_wd4,
            Stacking::Both => (d2 && top_d2) || (wd4 && top_wd4),
            Stacking::Cross => wd4 || (d2 && (top_d2 || card.color() == Some(self.color))),
        }
    }

    #[inline]
    fn holds_color(&self, seat: Seat, color: Color) -> bool {
        self.hands[seat.index()].kinds().intersects(CardSet::of_color(color))
    }

    fn has_playable(&self, seat: Seat) -> bool {
        !self.playable_kinds(seat).is_empty()
    }

    /// The kinds in `seat`'s hand that `is_playable` accepts, as one set: an AND of masks on
    /// the common path, with the rare stacking answer filtered card by card.
    #[inline]
    fn playable_kinds(&self, seat: Seat) -> CardSet {
        let held = self.hands[seat.index()].kinds();
        let top = self.top();
        if self.pending > 0 {
            let mut out = CardSet::EMPTY;
            for c in held.iter() {
                if self.stackable(c, top) {
                    out.insert(c);
                }
            }
            return out;
        }
        let mut set = held.and(CardSet::matching(top, self.color));
        if self.rules.wild_draw_four() == WildDrawFourRule::Restricted && held.intersects(CardSet::of_color(self.color))
        {
            set.remove(Card::WILD_DRAW_FOUR);
        }
        set
    }

    /// The kinds `seat` may play now, as a set (index order): the same cards as the `Play`
    /// actions of `legal_actions_for(seat)` and as [`Game::plays_for`], without their order.
    #[inline]
    pub fn playable_set(&self, seat: Seat) -> CardSet {
        if seat.index() >= self.players {
            return CardSet::EMPTY;
        }
        if seat == self.current {
            match self.phase {
                Phase::Play => return self.playable_kinds(seat),
                // After a draw only the drawn card may follow, and no penalty is pending.
                Phase::DrawnCard => {
                    return match self.drawn {
                        Some(card) if self.hands[seat.index()].kinds().contains(card) && self.is_playable(card) => {
                            CardSet::single(card)
                        }
                        _ => CardSet::EMPTY,
                    }
                }
                _ => {}
            }
        }
        let mut out = CardSet::EMPTY;
        for c in self.plays_for(seat).iter() {
            out.insert(*c);
        }
        out
    }

    /// Whether a card can still come from the draw pile (directly or by reshuffling).
    pub fn can_draw(&self) -> bool {
        !self.draw_pile.is_empty() || (self.rules.exhausted() == Exhausted::Reshuffle && self.discard.len() > 1)
    }

    /// Validates an action without applying it.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        if seat.index() >= self.players {
            return Err(IllegalAction::NoSuchSeat);
        }
        match self.phase {
            Phase::GameOver => return Err(IllegalAction::GameOver),
            Phase::RoundOver => {
                return if action == Action::NextRound { Ok(()) } else { Err(IllegalAction::RoundOver) };
            }
            _ => {}
        }
        let is_current = seat == self.current;
        match action {
            Action::NextRound => Err(IllegalAction::RoundNotOver),
            Action::CallUno | Action::CatchUno { .. } => self.check_uno(seat, action),
            Action::Play { card, color } => {
                let hand = &self.hands[seat.index()];
                if !is_current {
                    return self.check_jump_in(seat, card, color);
                }
                match self.phase {
                    Phase::Play | Phase::DrawnCard | Phase::Challenge { .. } => {}
                    Phase::ChooseColor => return Err(IllegalAction::MustDeclareColor),
                    Phase::ChooseSwap => return Err(IllegalAction::MustChooseSwap),
                    Phase::RoundOver | Phase::GameOver => return Err(IllegalAction::GameOver),
                }
                if !hand.contains(&card) {
                    return Err(IllegalAction::CardNotInHand);
                }
                check_color(&self.rules, card, color)?;
                if self.phase == Phase::DrawnCard && self.drawn != Some(card) {
                    return Err(IllegalAction::OnlyDrawnCard);
                }
                if let Phase::Challenge { .. } = self.phase {
                    if !self.stackable(card, self.top()) {
                        return Err(IllegalAction::MustAnswerChallenge);
                    }
                    return Ok(());
                }
                if self.pending > 0 && !self.stackable(card, self.top()) {
                    return Err(IllegalAction::MustAnswerDrawPenalty);
                }
                if !card.matches(self.top(), self.color) && self.pending == 0 {
                    return Err(IllegalAction::DoesNotMatch);
                }
                if card == Card::WILD_DRAW_FOUR
                    && self.pending == 0
                    && self.rules.wild_draw_four() == WildDrawFourRule::Restricted
                    && self.holds_color(seat, self.color)
                {
                    return Err(IllegalAction::WildDrawFourNotAllowed);
                }
                Ok(())
            }
            _ if !is_current => Err(IllegalAction::NotYourTurn),
            Action::Draw => match self.phase {
                Phase::Play if self.pending > 0 => Ok(()),
                Phase::Play => {
                    let playable = self.has_playable(seat);
                    if playable && self.rules.forced_play() == ForcedPlay::Required {
                        Err(IllegalAction::MustPlayWhenAble)
                    } else if playable && !self.can_draw() {
                        Err(IllegalAction::DrawPileEmpty)
                    } else {
                        Ok(())
                    }
                }
                Phase::DrawnCard => Err(IllegalAction::AlreadyDrawn),
                Phase::Challenge { .. } => Err(IllegalAction::MustAnswerChallenge),
                Phase::ChooseColor => Err(IllegalAction::MustDeclareColor),
                Phase::ChooseSwap => Err(IllegalAction::MustChooseSwap),
                Phase::RoundOver | Phase::GameOver => Err(IllegalAction::GameOver),
            },
            Action::Pass => match self.phase {
                Phase::DrawnCard => {
                    let must = self.rules.draw_rule() == DrawRule::DrawOneMustPlay
                        && self.drawn.is_some_and(|c| self.is_playable(c));
                    if must {
                        Err(IllegalAction::MustPlayDrawnCard)
                    } else {
                        Ok(())
                    }
                }
                Phase::Play => Err(IllegalAction::MustDrawBeforePass),
                Phase::Challenge { .. } => Err(IllegalAction::MustAnswerChallenge),
                Phase::ChooseColor => Err(IllegalAction::MustDeclareColor),
                Phase::ChooseSwap => Err(IllegalAction::MustChooseSwap),
                Phase::RoundOver | Phase::GameOver => Err(IllegalAction::GameOver),
            },
            Action::DeclareColor { color } => {
                if self.phase != Phase::ChooseColor {
                    Err(IllegalAction::NoColorToDeclare)
                } else if !self.rules.colors().contains(&color) {
                    Err(IllegalAction::ColorNotInGame)
                } else {
                    Ok(())
                }
            }
            Action::Challenge | Action::Accept => match self.phase {
                Phase::Challenge { .. } => Ok(()),
                _ => Err(IllegalAction::NoChallengePending),
            },
            Action::SwapHands { with } => {
                if self.phase != Phase::ChooseSwap {
                    Err(IllegalAction::NoSwapPending)
                } else if with == seat || with.index() >= self.players {
                    Err(IllegalAction::InvalidSwapTarget)
                } else {
                    Ok(())
                }
            }
        }
    }

    fn check_jump_in(&self, seat: Seat, card: Card, color: Option<Color>) -> Result<(), IllegalAction> {
        let allowed = self.rules.jump_in() == JumpIn::On
            && self.phase == Phase::Play
            && self.pending == 0
            && !card.is_wild()
            && color.is_none()
            && card == self.top()
            && self.hands[seat.index()].contains(&card);
        if allowed {
            Ok(())
        } else if self.rules.jump_in() == JumpIn::Off {
            Err(IllegalAction::NotYourTurn)
        } else {
            Err(IllegalAction::JumpInNotAllowed)
        }
    }

    fn check_uno(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.uno_meaning(seat, action).map(|_| ())
    }

    /// Whether `seat` may call UNO for itself now: on its turn with two cards or fewer, or
    /// exposed with one card. `Err` names why not; a repeated call is refused, never punished.
    fn own_uno(&self, seat: Seat) -> Result<(), IllegalAction> {
        if self.rules.uno_call() == UnoCall::Off {
            return Err(IllegalAction::UnoCallsOff);
        }
        if self.uno_called(seat) {
            return Err(IllegalAction::UnoAlreadyCalled);
        }
        let own_turn = seat == self.current
            && matches!(self.phase, Phase::Play | Phase::DrawnCard)
            && self.hands[seat.index()].len() <= 2;
        if own_turn || self.uno_exposed == Some(seat) {
            Ok(())
        } else {
            Err(IllegalAction::NothingToCall)
        }
    }

    /// Whether `seat` may catch `target` now. `Err` names why not.
    fn catch_uno(&self, seat: Seat, target: Seat) -> Result<(), IllegalAction> {
        if self.rules.uno_call() == UnoCall::Off {
            return Err(IllegalAction::UnoCallsOff);
        }
        if target.index() >= self.players {
            return Err(IllegalAction::NoSuchSeat);
        }
        if target == seat {
            return Err(IllegalAction::CannotCatchYourself);
        }
        if self.uno_exposed == Some(target) {
            return Ok(());
        }
        Err(if self.hands[target.index()].len() != 1 {
            IllegalAction::NotOnOneCard
        } else if self.uno_called(target) {
            IllegalAction::UnoCalledInTime
        } else {
            IllegalAction::CatchTooLate
        })
    }

    /// What an UNO call or catch by `seat` does now. A call or catch that the rules refuse
    /// becomes a false call when the rules punish false calls (seed 003's "the yelling player
    /// draws instead"); a repeated own call, a catch of oneself and calls under rules without
    /// UNO calls stay refusals.
    fn uno_meaning(&self, seat: Seat, action: Action) -> Result<UnoMeaning, IllegalAction> {
        let meaning = match action {
            Action::CallUno => self.own_uno(seat).map(|()| UnoMeaning::Own),
            Action::CatchUno { seat: target } => self.catch_uno(seat, target).map(|()| UnoMeaning::Catch(target)),
            _ => Err(IllegalAction::NothingToCall),
        };
        meaning.or_else(|e| match e {
            IllegalAction::NothingToCall
            | IllegalAction::NotOnOneCard
            | IllegalAction::UnoCalledInTime
            | IllegalAction::CatchTooLate
                if self.rules.false_call_penalty() > 0 =>
            {
                Ok(UnoMeaning::False)
            }
            e => Err(e),
        })
    }

    // ---- changing the state ----

    /// Validates and applies an action; returns the events, or the reason it was refused
    /// (then nothing changed).
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check(seat, action)?;
        let mut events = Vec::new();
        self.step(seat, action, &mut events);
        Ok(events)
    }

    /// Applies an action known to be legal (from `legal_actions` or `check`), building no
    /// events. An illegal action here leaves the game in an unspecified but safe state.
    #[inline]
    pub fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        self.step(seat, action, &mut Mute);
    }

    fn step<S: Sink>(&mut self, seat: Seat, action: Action, sink: &mut S) {
        match action {
            Action::Play { card, color } => self.play(seat, card, color, sink),
            Action::Draw => self.draw(sink),
            Action::Pass => {
                self.close_uno_window();
                sink.emit(|| Event::Passed { seat });
                self.end_turn(0, sink);
            }
            Action::DeclareColor { color } => {
                self.color = color;
                self.phase = Phase::Play;
                sink.emit(|| Event::ColorDeclared { seat, color });
            }
            Action::Challenge => self.resolve_challenge(sink),
            Action::Accept => {
                self.close_uno_window();
                let n = std::mem::take(&mut self.pending);
                self.give(self.current, n, DrawReason::Penalty, sink);
                self.end_turn(0, sink);
            }
            Action::SwapHands { with } => {
                let (a, b) = (self.current.index(), with.index());
                self.hands.swap(a, b);
                self.uno_called &= !((1 << a) | (1 << b));
                sink.emit(|| Event::HandsSwapped { a: Seat(a as u8), b: with });
                self.end_turn(0, sink);
            }
            Action::CallUno | Action::CatchUno { .. } => match self.uno_meaning(seat, action) {
                Ok(UnoMeaning::Own) => {
                    self.uno_called |= 1 << seat.0;
                    if self.uno_exposed == Some(seat) {
                        self.uno_exposed = None;
                    }
                    sink.emit(|| Event::UnoCalled { seat });
                }
                Ok(UnoMeaning::Catch(v)) => {
                    self.uno_exposed = None;
                    sink.emit(|| Event::UnoPenalty { seat: v, caught_by: seat });
                    self.give(v, self.rules.uno_penalty(), DrawReason::UnoPenalty, sink);
                }
                Ok(UnoMeaning::False) => {
                    sink.emit(|| Event::FalseUnoCall { seat });
                    self.give(seat, self.rules.false_call_penalty(), DrawReason::FalseUnoCall, sink);
                }
                Err(_) => {}
            },
            Action::NextRound => {
                if self.phase == Phase::RoundOver {
                    self.start_round(sink);
                }
            }
        }
    }

    fn close_uno_window(&mut self) {
        self.uno_exposed = None;
    }

    fn play<S: Sink>(&mut self, seat: Seat, card: Card, color: Option<Color>, sink: &mut S) {
        let jump_in = seat != self.current;
        if jump_in {
            self.current = seat;
        }
        self.close_uno_window();
        let prev_color = self.color;
        let guilty = card == Card::WILD_DRAW_FOUR && self.holds_color(seat, prev_color);
        let hand = &mut self.hands[seat.index()];
        if !hand.take(card) {
            return;
        }
        let left = hand.len();
        self.discard.push(card);
        self.color = card.color().or(color).unwrap_or(prev_color);
        self.drawn = None;
        self.acted = true;
        sink.emit(|| Event::CardPlayed { seat, card, jump_in });
        if card.is_wild() {
            let c = self.color;
            sink.emit(|| Event::ColorDeclared { seat, color: c });
        }
        if left == 1 && !self.uno_called(seat) && self.rules.uno_call() == UnoCall::Required {
            self.uno_exposed = Some(seat);
        }
        if left > 1 {
            self.uno_called &= !(1 << seat.0);
        }
        if left == 0 {
            // Going out on a draw card still makes the next player draw; those cards score.
            let extra = match card.face() {
                Face::DrawTwo => 2,
                Face::WildDrawFour => 4,
                _ => 0,
            };
            if extra > 0 {
                let victim = self.next_seat(1);
                let n = self.pending + extra;
                self.pending = 0;
                self.give(victim, n, DrawReason::Penalty, sink);
            }
            self.end_round(seat, sink);
            return;
        }
        let two = self.players == 2;
        match card.face() {
            Face::Digit(7) if self.rules.seven_zero() == SevenZero::On => {
                self.phase = Phase::ChooseSwap;
            }
            Face::Digit(0) if self.rules.seven_zero() == SevenZero::On => {
                self.rotate_hands();
                let direction = self.direction;
                sink.emit(|| Event::HandsRotated { direction });
                self.end_turn(0, sink);
            }
            Face::Digit(_) | Face::Wild => self.end_turn(0, sink),
            Face::Skip => self.end_turn(1, sink),
            Face::Reverse if two && self.rules.two_players() == TwoPlayerRule::ReverseSkips => self.end_turn(1, sink),
            Face::Reverse => {
                self.direction = self.direction.flipped();
                let direction = self.direction;
                sink.emit(|| Event::DirectionReversed { direction });
                self.end_turn(0, sink);
            }
            Face::DrawTwo => {
                if matches!(self.rules.stacking(), Stacking::DrawTwo | Stacking::Both | Stacking::Cross) {
                    self.pending += 2;
                    self.end_turn(0, sink);
                } else {
                    let n = std::mem::take(&mut self.pending) + 2;
                    let victim = self.next_seat(1);
                    self.give(victim, n, DrawReason::Penalty, sink);
                    self.end_turn(1, sink);
                }
            }
            Face::WildDrawFour => {
                self.pending += 4;
                if self.rules.wild_draw_four() == WildDrawFourRule::Challenge {
                    self.wd4_guilty = guilty;
                    self.end_turn(0, sink);
                    if !self.is_round_over() {
                        self.phase = Phase::Challenge { offender: seat };
                    }
                } else if matches!(self.rules.stacking(), Stacking::WildDrawFour | Stacking::Both | Stacking::Cross) {
                    self.end_turn(0, sink);
                } else {
                    let n = std::mem::take(&mut self.pending);
                    let victim = self.next_seat(1);
                    self.give(victim, n, DrawReason::Penalty, sink);
                    self.end_turn(1, sink);
                }
            }
        }
    }

    fn draw<S: Sink>(&mut self, sink: &mut S) {
        self.close_uno_window();
        let seat = self.current;
        if self.pending > 0 {
            let n = std::mem::take(&mut self.pending);
            self.give(seat, n, DrawReason::Penalty, sink);
            self.end_turn(0, sink);
            return;
        }
        let rule = self.rules.draw_rule();
        let mut drawn: Option<Card> = None;
        let mut cards: Vec<Card> = Vec::new();
        while let Some(card) = self.draw_one(sink) {
            self.hands[seat.index()].push(card);
            self.acted = true;
            if S::RECORDS {
                cards.push(card);
            }
            drawn = Some(card);
            if rule != DrawRule::DrawUntilPlayable || self.is_playable(card) {
                break;
            }
        }
        self.uno_called &= !(1 << seat.0);
        if S::RECORDS {
            let count = cards.len() as u32;
            sink.emit(|| Event::CardsDrawn { seat, count, cards, reason: DrawReason::Turn });
        }
        let Some(card) = drawn else {
            self.end_turn(0, sink);
            return;
        };
        let decide = match rule {
            DrawRule::DrawOneMayPlay => true,
            DrawRule::DrawUntilPlayable | DrawRule::DrawOneMustPlay => self.is_playable(card),
            DrawRule::DrawOneEndTurn => false,
        };
        if decide {
            self.drawn = Some(card);
            self.phase = Phase::DrawnCard;
        } else {
            self.end_turn(0, sink);
        }
    }

    fn resolve_challenge<S: Sink>(&mut self, sink: &mut S) {
        self.close_uno_window();
        let Phase::Challenge { offender } = self.phase else {
            return;
        };
        let challenger = self.current;
        let guilty = self.wd4_guilty;
        sink.emit(|| Event::ChallengeResolved { challenger, offender, guilty });
        let n = std::mem::take(&mut self.pending);
        if guilty {
            // The offender takes the penalty; the challenger plays on as normal.
            self.give(offender, n, DrawReason::ChallengeGuilty, sink);
            self.phase = Phase::Play;
        } else {
            self.give(challenger, n + 2, DrawReason::ChallengeLost, sink);
            self.end_turn(0, sink);
        }
    }

    /// Moves `n` cards from the draw pile to `seat` (fewer if the pile runs dry).
    fn give<S: Sink>(&mut self, seat: Seat, n: u32, reason: DrawReason, sink: &mut S) {
        let mut cards = Vec::new();
        let mut count = 0;
        for _ in 0..n {
            let Some(card) = self.draw_one(sink) else {
                break;
            };
            self.hands[seat.index()].push(card);
            count += 1;
            if S::RECORDS {
                cards.push(card);
            }
        }
        if count > 0 {
            self.acted = true;
            self.uno_called &= !(1 << seat.0);
            if self.uno_exposed == Some(seat) {
                self.uno_exposed = None;
            }
        }
        sink.emit(|| Event::CardsDrawn { seat, count, cards, reason });
    }

    fn draw_one<S: Sink>(&mut self, sink: &mut S) -> Option<Card> {
        if self.draw_pile.is_empty() {
            if self.rules.exhausted() != Exhausted::Reshuffle || self.discard.len() < 2 {
                return None;
            }
            let top = self.discard.pop()?;
            std::mem::swap(&mut self.draw_pile, &mut self.discard);
            self.discard.push(top);
            self.shuffle_draw_pile();
            let cards = self.draw_pile.len() as u32;
            sink.emit(|| Event::DeckReshuffled { cards });
        }
        self.pop_draw()
    }

    /// Shuffles the draw pile. A fast game leaves it unordered instead: see [`Game::pop_draw`].
    fn shuffle_draw_pile(&mut self) {
        if let GameRng::Portable(rng) = &mut self.rng {
            shuffle(&mut self.draw_pile, rng);
        }
    }

    /// Takes the next card of the draw pile. A fast game never fixes the pile's order: taking
    /// a uniformly random card of the pile is the same, in distribution, as taking the top card
    /// of a shuffled pile, and costs one random number per card drawn instead of one per card
    /// in the deck each time it is shuffled.
    #[inline]
    fn pop_draw(&mut self) -> Option<Card> {
        if let GameRng::Fast(rng) = &mut self.rng {
            let n = self.draw_pile.len();
            if n > 1 {
                let i = rng.below(n);
                self.draw_pile.swap(i, n - 1);
            }
        }
        self.draw_pile.pop()
    }

    #[inline]
    fn next_seat(&self, steps: usize) -> Seat {
        let n = self.players;
        let cur = self.current.index();
        let i = match self.direction {
            Direction::Clockwise => (cur + steps) % n,
            Direction::CounterClockwise => (cur + n * (steps / n + 1) - steps) % n,
        };
        Seat(i as u8)
    }

    fn rotate_hands(&mut self) {
        let n = self.players;
        let mut rotated = vec![Hand::default(); n];
        for (s, hand) in self.hands.drain(..).enumerate() {
            let to = match self.direction {
                Direction::Clockwise => (s + 1) % n,
                Direction::CounterClockwise => (s + n - 1) % n,
            };
            rotated[to] = hand;
        }
        self.hands = rotated;
        self.uno_called = 0;
    }

    /// Ends the current player's turn and hands it on, skipping `skip` players.
    #[inline]
    fn end_turn<S: Sink>(&mut self, skip: usize, sink: &mut S) {
        self.turns += 1;
        self.phase = Phase::Play;
        self.drawn = None;
        if self.acted {
            self.dead_turns = 0;
        } else {
            self.dead_turns += 1;
        }
        self.acted = false;
        for k in 1..=skip {
            let skipped = self.next_seat(k);
            sink.emit(|| Event::PlayerSkipped { seat: skipped });
        }
        self.current = self.next_seat(1 + skip);
        if self.dead_turns >= self.players {
            self.finish(None, EndReason::Stalemate, sink);
            return;
        }
        if self.rules.turn_cap().is_some_and(|cap| self.turns >= cap) {
            self.finish(None, EndReason::TurnCap, sink);
            return;
        }
        if self.turns >= self.rules.max_turns() {
            self.finish(None, EndReason::MaxTurns, sink);
            return;
        }
        let seat = self.current;
        sink.emit(|| Event::TurnStarted { seat });
    }

    fn end_round<S: Sink>(&mut self, winner: Seat, sink: &mut S) {
        let points: u32 = self.hands.iter().flatten().map(|&c| self.rules.points(c)).sum();
        self.scores[winner.index()] += points;
        self.round_winner = Some(winner);
        self.turns += 1;
        if S::RECORDS {
            let totals = self.scores.clone();
            sink.emit(|| Event::RoundScored { winner, points, totals });
        }
        let match_over = self.rules.target().is_none_or(|t| self.scores[winner.index()] >= t);
        if match_over {
            self.finish(Some(winner), EndReason::Won, sink);
        } else {
            self.phase = Phase::RoundOver;
        }
    }

    fn finish<S: Sink>(&mut self, winner: Option<Seat>, reason: EndReason, sink: &mut S) {
        self.phase = Phase::GameOver;
        let outcome = Outcome { winner, reason, scores: self.scores.clone() };
        if S::RECORDS {
            let o = outcome.clone();
            sink.emit(|| Event::GameOver { outcome: o });
        }
        self.outcome = Some(outcome);
    }

    /// Shuffles the whole deck, picks the dealer, deals and turns the first card.
    fn start_round<S: Sink>(&mut self, sink: &mut S) {
        let n = self.players;
        self.round += 1;
        self.draw_pile.clear();
        self.draw_pile.extend_from_slice(self.rules.deck());
        self.discard.clear();
        for h in &mut self.hands {
            h.clear();
        }
        self.shuffle_draw_pile();
        self.dealer = match (self.rules.first_player(), self.round) {
            (FirstPlayer::Seat0, _) => Seat((n - 1) as u8),
            (_, 1) => Seat(self.rng.gen_range(0..n) as u8),
            (_, _) => Seat(((self.dealer.index() + 1) % n) as u8),
        };
        self.direction = self.rules.direction();
        self.phase = Phase::Play;
        self.pending = 0;
        self.drawn = None;
        self.uno_called = 0;
        self.uno_exposed = None;
        self.acted = false;
        self.dead_turns = 0;
        self.turns = 0;
        self.round_winner = None;
        let (round, dealer) = (self.round, self.dealer);
        sink.emit(|| Event::RoundStarted { round, dealer });
        for _ in 0..self.rules.hand_size() {
            for s in 0..n {
                if let Some(c) = self.pop_draw() {
                    self.hands[s].push(c);
                }
            }
        }
        self.current = self.dealer;
        self.current = self.next_seat(1);
        self.turn_first_card(sink);
    }

    fn turn_first_card<S: Sink>(&mut self, sink: &mut S) {
        let rule = self.rules.first_card();
        let card = loop {
            let Some(card) = self.pop_draw() else {
                return;
            };
            let refused = |c: Card| match rule {
                FirstCard::Official => c == Card::WILD_DRAW_FOUR,
                FirstCard::RedrawUntilNumber => !matches!(c.face(), Face::Digit(_)),
                FirstCard::NoEffect => false,
                FirstCard::RedrawWilds => c.is_wild(),
            };
            // With a small deck every acceptable card may sit in the hands: then the card
            // stays, or turning cards would never end.
            let back = refused(card) && self.draw_pile.iter().any(|&c| !refused(c));
            sink.emit(|| Event::StartCard { card, returned: back });
            if !back {
                break card;
            }
            // Back into the deck, and shuffle so the same card does not come up again.
            self.draw_pile.push(card);
            self.shuffle_draw_pile();
        };
        self.discard.push(card);
        self.color = card.color().unwrap_or(self.rules.colors()[0]);
        if card.is_wild() {
            self.phase = Phase::ChooseColor;
        } else if matches!(rule, FirstCard::Official | FirstCard::RedrawWilds) {
            match card.face() {
                Face::Skip => self.skip_first_player(sink),
                Face::Reverse if self.players == 2 && self.rules.two_players() == TwoPlayerRule::ReverseSkips => {
                    self.skip_first_player(sink)
                }
                Face::Reverse => {
                    // The dealer plays first and play goes the other way.
                    self.direction = self.direction.flipped();
                    self.current = self.dealer;
                    let direction = self.direction;
                    sink.emit(|| Event::DirectionReversed { direction });
                }
                Face::DrawTwo => {
                    self.give(self.current, 2, DrawReason::Penalty, sink);
                    self.acted = false;
                    self.skip_first_player(sink);
                }
                _ => {}
            }
        }
        let seat = self.current;
        sink.emit(|| Event::TurnStarted { seat });
    }

    fn skip_first_player<S: Sink>(&mut self, sink: &mut S) {
        let seat = self.current;
        sink.emit(|| Event::PlayerSkipped { seat });
        self.current = self.next_seat(1);
    }
}

#[derive(Clone, Copy)]
enum UnoMeaning {
    Own,
    Catch(Seat),
    False,
}

fn check_color(rules: &Rules, card: Card, color: Option<Color>) -> Result<(), IllegalAction> {
    match (card.is_wild(), color) {
        (true, None) => Err(IllegalAction::ColorRequired),
        (true, Some(c)) if !rules.colors().contains(&c) => Err(IllegalAction::ColorNotInGame),
        (false, Some(_)) => Err(IllegalAction::ColorNotAllowed),
        _ => Ok(()),
    }
}

/// Fisher–Yates with the game's portable RNG, so every platform deals the same cards.
pub(crate) fn shuffle<T, R: Rng>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = rng.gen_range(0..=i as u32) as usize;
        items.swap(i, j);
    }
}

/// FNV-1a: tiny, stable, good enough to compare states.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
    fn u64(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.byte(b);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The game's source of randomness: ChaCha for dealt games (records replay them), or the fast
/// [`SimRng`] for simulation. A match per draw is cheaper than making `Game` generic.
// A game holds exactly one generator inline; boxing ChaCha would add a pointer chase to every
// draw of a recorded game to save bytes nobody has many copies of.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum GameRng {
    Portable(ChaCha8Rng),
    Fast(SimRng),
}

impl GameRng {
    /// How far the generator has run; part of the state hash.
    fn position(&self) -> u64 {
        match self {
            GameRng::Portable(r) => r.get_word_pos() as u64,
            GameRng::Fast(r) => r.0,
        }
    }
}

impl RngCore for GameRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        match self {
            GameRng::Portable(r) => r.next_u32(),
            GameRng::Fast(r) => r.next_u32(),
        }
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        match self {
            GameRng::Portable(r) => r.next_u64(),
            GameRng::Fast(r) => r.next_u64(),
        }
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        match self {
            GameRng::Portable(r) => r.fill_bytes(dest),
            GameRng::Fast(r) => r.fill_bytes(dest),
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): one add and two multiply-xorshifts per 64 bits,
/// statistically sound for simulation, and portable because it is plain wrapping `u64`
/// arithmetic. Not for anything an opponent could exploit: the state is the output's preimage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRng(u64);

impl SimRng {
    /// A value uniform in `0..n` (`n >= 1`) by Lemire's multiply-shift; the bias is below
    /// n / 2^64, far under anything a simulation can see, and there is no division.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

impl RngCore for SimRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl SeedableRng for SimRng {
    type Seed = [u8; 8];
    fn from_seed(seed: [u8; 8]) -> SimRng {
        SimRng(u64::from_le_bytes(seed))
    }
    fn seed_from_u64(state: u64) -> SimRng {
        SimRng(state)
    }
}

/// The distinct cards a seat may play, in hand order, held inline (at most one per card kind).
#[derive(Clone, Copy)]
pub struct Plays {
    cards: [Card; Card::KINDS],
    len: u8,
}

impl Default for Plays {
    fn default() -> Plays {
        Plays { cards: [Card::WILD; Card::KINDS], len: 0 }
    }
}

impl Plays {
    #[inline]
    fn push(&mut self, card: Card) {
        if (self.len as usize) < Card::KINDS {
            self.cards[self.len as usize] = card;
            self.len += 1;
        }
    }
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl std::ops::Deref for Plays {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl std::fmt::Debug for Plays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// One seat's view of a game, borrowed from it: the seat's own hand and everything public,
/// nothing else. It is what an [`Observation`](crate::Observation) holds, without the copies,
/// so a bot can decide every turn without allocating.
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a Game,
    seat: Seat,
}

impl<'a> View<'a> {
    pub fn seat(&self) -> Seat {
        self.seat
    }
    pub fn rules(&self) -> &'a Rules {
        &self.game.rules
    }
    pub fn players(&self) -> usize {
        self.game.players
    }
    pub fn hand(&self) -> &'a [Card] {
        self.game.hand(self.seat)
    }
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.game.hand(seat).len()
    }
    pub fn top(&self) -> Card {
        self.game.top()
    }
    pub fn color(&self) -> Color {
        self.game.color
    }
    pub fn current(&self) -> Seat {
        self.game.current
    }
    pub fn is_my_turn(&self) -> bool {
        self.game.current == self.seat
    }
    pub fn direction(&self) -> Direction {
        self.game.direction
    }
    pub fn dealer(&self) -> Seat {
        self.game.dealer
    }
    pub fn phase(&self) -> Phase {
        self.game.phase
    }
    pub fn pending_draw(&self) -> u32 {
        self.game.pending
    }
    /// The card this seat just drew, while it decides about it.
    pub fn drawn_card(&self) -> Option<Card> {
        self.game.drawn.filter(|_| self.is_my_turn())
    }
    /// The discard pile, bottom card first: it is face up.
    pub fn discard_pile(&self) -> &'a [Card] {
        &self.game.discard
    }
    pub fn draw_pile_size(&self) -> usize {
        self.game.draw_pile.len()
    }
    pub fn uno_called(&self, seat: Seat) -> bool {
        self.game.uno_called(seat)
    }
    pub fn uno_exposed(&self) -> Option<Seat> {
        self.game.uno_exposed
    }
    pub fn turns(&self) -> u32 {
        self.game.turns
    }
    pub fn round(&self) -> u32 {
        self.game.round
    }
    pub fn scores(&self) -> &'a [u32] {
        &self.game.scores
    }
    /// The distinct cards this seat may play now, in hand order.
    #[inline]
    pub fn plays(&self) -> Plays {
        self.game.plays_for(self.seat)
    }
    /// The same cards as [`View::plays`], as a set in card-index order: the cheapest form.
    #[inline]
    pub fn playable_set(&self) -> CardSet {
        self.game.playable_set(self.seat)
    }
    pub fn is_legal(&self, action: Action) -> bool {
        self.game.check(self.seat, action).is_ok()
    }
    pub fn legal_actions(&self) -> Vec<Action> {
        self.game.legal_actions_for(self.seat)
    }
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.game.legal_actions_into(self.seat, out);
    }
    /// Whether this seat may call UNO for itself now (two cards or fewer on its turn, or
    /// exposed with one), the call being neither repeated nor false.
    #[inline]
    pub fn can_call_own_uno(&self) -> bool {
        self.game.phase != Phase::RoundOver
            && self.game.phase != Phase::GameOver
            && self.game.own_uno(self.seat).is_ok()
    }
    /// The owned observation of the same seat (allocates).
    pub fn observation(&self) -> crate::Observation {
        self.game.observation(Some(self.seat))
    }
}

// ---- Restoring a sampled world (determinization: see `crate::sample`) ----
//
// Apart from the state machine on purpose: it only writes fields, so the sampler needs no
// access to private state and nothing above changes.
impl Game {
    /// A game in the position `world` describes, its randomness on a [`SimRng`] seeded `seed`.
    pub(crate) fn from_world(rules: Arc<Rules>, world: &crate::sample::World, seed: u64) -> Game {
        let mut game = Game::empty(rules, world.hands.len(), seed);
        game.load_world(world, seed);
        game
    }

    /// Overwrites this game with `world` (the rules stay), reusing its buffers.
    pub(crate) fn load_world(&mut self, world: &crate::sample::World, seed: u64) {
        self.seed = seed;
        self.rng = GameRng::Fast(SimRng::seed_from_u64(seed));
        self.players = world.hands.len();
        self.hands.resize_with(self.players, Default::default);
        for (hand, cards) in self.hands.iter_mut().zip(&world.hands) {
            hand.clear();
            for &c in cards {
                hand.push(c);
            }
        }
        self.draw_pile.clear();
        self.draw_pile.extend_from_slice(&world.draw_pile);
        self.discard.clear();
        self.discard.extend_from_slice(&world.discard);
        self.color = world.color;
        self.current = world.current;
        self.direction = world.direction;
        self.dealer = world.dealer;
        self.phase = world.phase;
        self.pending = world.pending;
        self.drawn = world.drawn;
        self.wd4_guilty = world.wd4_guilty;
        self.uno_called = world.uno_called;
        self.uno_exposed = world.uno_exposed;
        self.acted = world.acted;
        self.dead_turns = 0;
        self.turns = world.turns;
        self.round = world.round;
        self.scores.clear();
        self.scores.extend_from_slice(&world.scores);
        self.round_winner = world.round_winner;
        self.outcome.clone_from(&world.outcome);
    }
}
