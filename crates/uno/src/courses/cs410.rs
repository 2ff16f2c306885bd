//! Seed 002's `GameState` API over the engine.
//!
//! The course's class deals a game from five counts and runs it one whole turn at a time. Here
//! that is a thin layer over [`Game`] under the `cs410` preset: the preset carries the rules
//! (a playable card must be played; otherwise draw one and play it at once if it is playable;
//! Skip, Reverse and Draw Two take effect; an empty draw pile is refreshed from the discard pile
//! less its top card) and this module only chooses, for the player whose turn it is, which
//! card to play, by a pluggable [`Strategy`] (by default the first playable card of the hand).
//!
//! A game in which nobody can play or draw any more (every card but the top of the discard
//! pile is in the hands and no hand holds a playable card) ends as a stalemate: once every
//! player in turn has been unable to do anything, [`GameState::is_game_over`] is true with no
//! winner, and [`GameState::is_stalemate`] says why.
//!
//! ```
//! use uno::courses::cs410::GameState;
//! let mut game = GameState::start_game_seeded(7, 4, 7, 1, 1, 4).expect("valid counts");
//! assert_eq!(game.hand(0).len(), 7);
//! while !game.is_game_over() {
//!     game.run_one_turn();
//! }
//! assert!(game.winner().is_some() || game.is_stalemate());
//! ```

use thiserror::Error;

use crate::action::Action;
use crate::card::{Card, Color, Direction, Seat};
use crate::event::{EndReason, Event};
use crate::game::{Deal, Game, Phase, SetupError};
use crate::position::PositionError;
use crate::rules::{preset_config, Rules, RulesConfig, RulesError, MAX_PLAYERS};

/// Why `start_game` cannot make a game from the counts it was given.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartError {
    /// Fewer than 2 players; holds the count given.
    #[error("a game needs at least 2 players, got {0}")]
    TooFewPlayers(u32),
    /// More players than the engine seats; holds the count given.
    #[error("a game takes at most {MAX_PLAYERS} players, got {0}")]
    TooManyPlayers(u32),
    /// A hand size of 0.
    #[error("every player must be dealt at least one card")]
    NoInitialCards,
    /// All three card counts are 0.
    #[error("the counts make a deck with no card at all")]
    EmptyDeck,
    /// The deck cannot deal every hand and turn one card.
    #[error("the deck has {have} cards; dealing the hands and starting the discard pile needs {needed}")]
    DeckTooSmall {
        /// Players × hand size + 1.
        needed: u64,
        /// Cards the counts make.
        have: u64,
    },
    /// A count beyond what the engine accepts (more than 64 copies of one card, a deck of more
    /// than 432 cards, more than 50 cards a player).
    #[error(transparent)]
    Rules(RulesError),
    /// The engine refused to deal.
    #[error(transparent)]
    Setup(SetupError),
    /// The engine refused the position of [`GameState::from_deal`].
    #[error(transparent)]
    Position(PositionError),
}

/// What a strategy sees when it must choose.
#[derive(Clone, Copy, Debug)]
pub struct Choice<'a> {
    /// The player (0-based seat) choosing.
    pub player: usize,
    /// Their hand, in the order the cards were received.
    pub hand: &'a [Card],
    /// The distinct playable cards, in hand order. Never empty when a card is asked for.
    pub playable: &'a [Card],
    /// The top card of the discard pile.
    pub top: Card,
    /// The colour in play (the declared colour when the top card is a wild).
    pub color: Color,
}

/// How a player chooses. Only the choice is pluggable: whether a card must be played, and what
/// it does, are the rules'.
pub trait Strategy: Send {
    /// One of `view.playable`. Any other answer is ignored and the first playable card is
    /// played instead, so a strategy cannot break the rules.
    fn choose_card(&mut self, view: &Choice<'_>) -> Card;

    /// The colour to declare for a wild card (also for a wild turned up as the first card);
    /// `hand` is what the player holds besides the wild. By default the colour they hold most
    /// of, red when they hold none.
    fn choose_color(&mut self, hand: &[Card]) -> Color {
        most_held_color(hand)
    }
}

/// The default strategy: the first playable card in the hand.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstPlayable;

impl Strategy for FirstPlayable {
    fn choose_card(&mut self, view: &Choice<'_>) -> Card {
        view.playable[0]
    }
}

/// Any closure from the view to a card is a strategy (tests pin choices down this way).
impl<F: FnMut(&Choice<'_>) -> Card + Send> Strategy for F {
    fn choose_card(&mut self, view: &Choice<'_>) -> Card {
        self(view)
    }
}

/// The colour a hand holds most of; ties go to the first in red, yellow, green, blue.
pub fn most_held_color(hand: &[Card]) -> Color {
    let mut count = [0usize; 4];
    for c in hand.iter().filter_map(|c| c.color()) {
        count[c.index()] += 1;
    }
    let mut best = Color::Red;
    for c in Color::ALL {
        if count[c.index()] > count[best.index()] {
            best = c;
        }
    }
    best
}

/// Seed 002's game: dealt from five counts, played one turn at a time.
pub struct GameState {
    game: Game,
    strategies: Vec<Box<dyn Strategy>>,
}

impl std::fmt::Debug for GameState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameState").field("game", &self.game).finish_non_exhaustive()
    }
}

/// The `cs410` rules with the deck and hand size made from the counts: `count_digit_cards_per_color`
/// copies of each digit and `count_special_cards_per_color` of each Skip, Reverse and Draw
/// Two in every colour, and `count_wild_cards` Wilds.
///
/// # Errors
///
/// The [`StartError`] naming the count that cannot make a game.
pub fn rules_from_counts(
    count_players: u32,
    count_initial_cards_per_player: u32,
    count_digit_cards_per_color: u32,
    count_special_cards_per_color: u32,
    count_wild_cards: u32,
) -> Result<Rules, StartError> {
    if count_players < 2 {
        return Err(StartError::TooFewPlayers(count_players));
    }
    if count_players as usize > MAX_PLAYERS {
        return Err(StartError::TooManyPlayers(count_players));
    }
    if count_initial_cards_per_player == 0 {
        return Err(StartError::NoInitialCards);
    }
    // Counted in u64: the deck size of hostile counts must not overflow before it is judged.
    let have = 4 * (10 * count_digit_cards_per_color as u64 + 3 * count_special_cards_per_color as u64)
        + count_wild_cards as u64;
    if have == 0 {
        return Err(StartError::EmptyDeck);
    }
    let needed = count_players as u64 * count_initial_cards_per_player as u64 + 1;
    if needed > have {
        return Err(StartError::DeckTooSmall { needed, have });
    }
    let mut config: RulesConfig = preset_config("cs410").map_err(StartError::Rules)?;
    config.deck =
        RulesConfig::deck_from_counts(count_digit_cards_per_color, count_special_cards_per_color, count_wild_cards);
    config.deal.hand_size = count_initial_cards_per_player;
    config.players.min = 2;
    config.players.max = MAX_PLAYERS as u32;
    Rules::new(config).map_err(StartError::Rules)
}

impl GameState {
    /// Deals a game from the five counts, with a random shuffle: the state just before the
    /// first player's first turn. Player 1 (seat 0) plays first and play goes up the seats.
    ///
    /// # Errors
    ///
    /// As [`rules_from_counts`].
    pub fn start_game(
        count_players: u32,
        count_initial_cards_per_player: u32,
        count_digit_cards_per_color: u32,
        count_special_cards_per_color: u32,
        count_wild_cards: u32,
    ) -> Result<GameState, StartError> {
        GameState::start_game_seeded(
            rand::random(),
            count_players,
            count_initial_cards_per_player,
            count_digit_cards_per_color,
            count_special_cards_per_color,
            count_wild_cards,
        )
    }

    /// [`GameState::start_game`] with the shuffles fixed by `seed`.
    ///
    /// # Errors
    ///
    /// As [`rules_from_counts`].
    pub fn start_game_seeded(
        seed: u64,
        count_players: u32,
        count_initial_cards_per_player: u32,
        count_digit_cards_per_color: u32,
        count_special_cards_per_color: u32,
        count_wild_cards: u32,
    ) -> Result<GameState, StartError> {
        let rules = rules_from_counts(
            count_players,
            count_initial_cards_per_player,
            count_digit_cards_per_color,
            count_special_cards_per_color,
            count_wild_cards,
        )?;
        let game = Game::new(rules, count_players as usize, seed).map_err(StartError::Setup)?;
        Ok(GameState::over(game))
    }

    /// A game from a given position under the `cs410` rules (for tests that need exact cards).
    ///
    /// # Errors
    ///
    /// [`StartError::Position`] when the engine refuses the position.
    pub fn from_deal(deal: Deal, seed: u64) -> Result<GameState, StartError> {
        let mut config = preset_config("cs410").map_err(StartError::Rules)?;
        config.deal.hand_size = 1;
        config.players.min = 2;
        let rules = Rules::new(config).map_err(StartError::Rules)?;
        let game = Game::from_position(rules, &deal.into_position(seed)).map_err(StartError::Position)?;
        Ok(GameState::over(game))
    }

    fn over(game: Game) -> GameState {
        let strategies = (0..game.players()).map(|_| Box::new(FirstPlayable) as Box<dyn Strategy>).collect();
        GameState { game, strategies }
    }

    /// Every player chooses with `strategy`'s copies from now on.
    pub fn set_strategy_for_all<S: Strategy + Clone + 'static>(&mut self, strategy: S) {
        for s in &mut self.strategies {
            *s = Box::new(strategy.clone());
        }
    }

    /// `player` (0-based) chooses with `strategy` from now on; an unknown player is ignored.
    pub fn set_strategy(&mut self, player: usize, strategy: impl Strategy + 'static) {
        if let Some(s) = self.strategies.get_mut(player) {
            *s = Box::new(strategy);
        }
    }

    /// True once somebody has emptied their hand, or nobody can play or draw any more.
    pub fn is_game_over(&self) -> bool {
        self.game.is_round_over()
    }

    /// Whether the game ended because nobody could play or draw.
    pub fn is_stalemate(&self) -> bool {
        self.game.outcome().is_some_and(|o| o.reason == EndReason::Stalemate)
    }

    /// Runs the current player's whole turn and returns what happened. On a finished game it
    /// does nothing and returns no event.
    pub fn run_one_turn(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if self.is_game_over() {
            return events;
        }
        let seat = self.game.current();
        let start = self.game.turns();
        // Every branch applies a legal action or stops, and the engine refuses nothing legal:
        // the loop ends when the turn counter moves (or the game ends).
        for _ in 0..8 {
            if self.game.turns() != start || self.is_game_over() {
                break;
            }
            let Some(action) = self.next_action(seat) else { break };
            match self.game.apply(seat, action) {
                Ok(mut e) => events.append(&mut e),
                Err(_) => break,
            }
        }
        events
    }

    /// The action the rules and the strategy take next, within the current player's turn.
    fn next_action(&mut self, seat: Seat) -> Option<Action> {
        let legal = self.game.legal_actions();
        let hand = self.game.hand(seat).to_vec();
        let strategy = &mut self.strategies[seat.index()];
        if self.game.phase() == Phase::ChooseColor {
            return Some(Action::DeclareColor { color: strategy.choose_color(&hand) });
        }
        let mut playable: Vec<Card> = Vec::new();
        for &card in &hand {
            let legal_card = legal.iter().any(|a| matches!(a, Action::Play { card: c, .. } if *c == card));
            if legal_card && !playable.contains(&card) {
                playable.push(card);
            }
        }
        if playable.is_empty() {
            return legal.iter().copied().find(|a| matches!(a, Action::Draw | Action::Pass));
        }
        let view = Choice {
            player: seat.index(),
            hand: &hand,
            playable: &playable,
            top: self.game.top(),
            color: self.game.state.color,
        };
        let mut card = strategy.choose_card(&view);
        if !playable.contains(&card) {
            card = playable[0];
        }
        let color = if card.is_wild() {
            let mut rest = hand.clone();
            if let Some(i) = rest.iter().position(|&c| c == card) {
                rest.remove(i);
            }
            Some(strategy.choose_color(&rest))
        } else {
            None
        };
        Some(Action::Play { card, color })
    }

    // ---- reading the state ----

    /// The engine game underneath (every read-only accessor of the engine).
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// How many players the game seats.
    pub fn count_players(&self) -> usize {
        self.game.players()
    }
    /// A player's hand (0-based), in the order the cards were received.
    pub fn hand(&self, player: usize) -> &[Card] {
        self.game.hand(Seat(player.min(255) as u8))
    }
    /// Every hand in seat order, each in the order its cards were received.
    pub fn hands(&self) -> &[crate::hand::Hand] {
        self.game.hands()
    }
    /// The draw pile, top card (the next one drawn) first.
    pub fn draw_pile(&self) -> Vec<Card> {
        self.game.draw_pile().iter().rev().copied().collect()
    }
    /// The discard pile, top card first.
    pub fn discard_pile(&self) -> Vec<Card> {
        self.game.discard_pile().iter().rev().copied().collect()
    }
    /// The top card of the discard pile.
    pub fn top_card(&self) -> Card {
        self.game.top()
    }
    /// The colour in play: the top card's, or the one declared for a wild.
    pub fn current_color(&self) -> Color {
        // The seed turns a first Wild with no effect: a colour is always in play.
        self.game.state.color
    }
    /// The player (0-based) whose turn is next.
    pub fn current_player(&self) -> usize {
        self.game.current().index()
    }
    /// `Clockwise` is the starting direction: Player 1, Player 2, … in seat order.
    pub fn direction(&self) -> Direction {
        self.game.direction()
    }
    /// The player (0-based) who emptied their hand, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.game.round_winner().map(Seat::index)
    }
}
