//! Seed 003's `uno-engine`-style API: a table of named players.
//!
//! The npm package's README is mapped point by point onto the engine under the `uno-engine`
//! preset (the published rules with the package's own two: wild first cards go back, and a
//! yell with nobody to catch costs the yeller); the engine keeps the rules, this module only translates names to seats and the
//! engine's events to the package's three (`cardplay`, `nextplayer`, `end`):
//!
//! | `uno-engine`                         | [`Table`]                                            |
//! |--------------------------------------|------------------------------------------------------|
//! | `Game(players)` (2–10 unique names)  | [`Table::new`], [`Table::with_seed`]                 |
//! | `game.newGame()`                     | [`Table::new_game`]                                  |
//! | `game.currentPlayer`                 | [`Table::current_player`]                            |
//! | `game.getPlayer(name)`               | [`Table::player`]                                    |
//! | `player.hand`                        | [`Player::hand`]                                     |
//! | `player.getCardByValue(value)`       | [`Player::card_by_value`]                            |
//! | `game.discardedCard`                 | [`Table::discarded_card`], [`Table::color`]          |
//! | `game.play(card)`                    | [`Table::play`] (a wild's colour is the 2nd argument)|
//! | `game.draw()` / `game.pass()`        | [`Table::draw`] / [`Table::pass`]                    |
//! | `game.uno(name?)`                    | [`Table::uno`]                                       |
//! | `game.on('cardplay'/'nextplayer'/'end')` | [`Table::on`], and every action returns its events |
//!
//! The package's failure modes are not ours: cards are never duplicated (an empty draw pile is
//! rebuilt from the discard pile less its top card), a player cannot draw twice in a turn,
//! and nothing is accepted after the end.
//!
//! ```
//! use uno::courses::uno_engine::{Table, TableEvent};
//! let mut table = Table::with_seed(["Ann", "Bob", "Cid"], 7).expect("unique names");
//! table.new_game().expect("dealt");
//! let me = table.current_player().expect("dealt").name().to_string();
//! let events = table.draw().expect("drawing is always allowed");
//! assert!(table.player(&me).is_some() && !events.is_empty() || table.is_round_over());
//! ```

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::action::{Action, IllegalAction};
use crate::card::{Card, Color, Face, Seat};
use crate::event::Event;
use crate::game::{Game, Phase, SetupError};
use crate::position::PositionError;
use crate::rules::{Rules, RulesError, MAX_PLAYERS};

/// Why the table refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    /// A number of names (or of a position's hands) the table cannot seat; holds it.
    #[error("a table seats 2 to {MAX_PLAYERS} players, got {0}")]
    PlayerCount(usize),
    /// A name given twice; holds it.
    #[error("player names must be unique: '{0}' is given twice")]
    DuplicateName(String),
    /// An empty or blank name.
    #[error("a player needs a name")]
    EmptyName,
    /// An action or a question about the game before the first deal.
    #[error("no game yet: call new_game first")]
    NoGame,
    /// A name not at the table; holds it.
    #[error("no player is called '{0}'")]
    UnknownPlayer(String),
    /// The engine's reason: `CardNotInHand`, `DoesNotMatch`, `ColorRequired` (a wild with no
    /// colour named), `MustDrawBeforePass`, `AlreadyDrawn`, `RoundOver`, `GameOver`, …
    #[error(transparent)]
    Refused(#[from] IllegalAction),
    /// The `uno-engine` preset did not load, or the rules do not seat this many players.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The engine refused to deal.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The engine refused the position given.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// What happened, as the package's listeners see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableEvent {
    /// `cardplay`: a card was played; `color` is the colour named for a wild.
    CardPlay {
        /// The card played.
        card: Card,
        /// The colour named for a wild; `None` for a coloured card.
        color: Option<Color>,
        /// The player's name.
        played_by: String,
    },
    /// `nextplayer`: a turn begins.
    NextPlayer {
        /// The name of the player to act.
        player: String,
    },
    /// `end`: a player has no card left; `score` is what the other hands are worth to them.
    End {
        /// The name of the player who emptied their hand.
        winner: String,
        /// The points the round won them.
        score: u32,
    },
    /// Everything else the engine reports (draws, skips, UNO calls, challenges, …).
    Other(Event),
}

type Listener = Box<dyn FnMut(&TableEvent) + Send>;

/// A table of named players around one engine game.
pub struct Table {
    names: Vec<String>,
    rules: Arc<Rules>,
    rng: ChaCha8Rng,
    game: Option<Game>,
    listeners: Vec<Listener>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("names", &self.names).field("game", &self.game).finish_non_exhaustive()
    }
}

/// One player as the table shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player<'a> {
    name: &'a str,
    seat: Seat,
    hand: &'a [Card],
    yelled: bool,
}

impl<'a> Player<'a> {
    /// The player's name.
    pub fn name(&self) -> &'a str {
        self.name
    }
    /// The player's seat: their place in the names given to the table, from 0.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// The hand, in the order the cards were received (empty before the first deal).
    pub fn hand(&self) -> &'a [Card] {
        self.hand
    }
    /// The card of this face and colour in the hand; for a wild face the colour is ignored
    /// (a wild has none until it is played).
    pub fn card_by_value(&self, face: Face, color: Option<Color>) -> Option<Card> {
        let card = Card::new(color, face)?;
        self.hand.contains(&card).then_some(card)
    }
    /// Whether the player has yelled UNO for their current hand.
    pub fn has_yelled_uno(&self) -> bool {
        self.yelled
    }
}

/// What a yell of UNO did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Yell {
    /// The yeller is marked as having yelled.
    Marked,
    /// A player with one card who had not yelled drew the penalty.
    Caught(String),
    /// Nobody to catch: the yeller drew the penalty.
    FalseCall,
}

impl Table {
    /// A table for these players (2–10 unique, non-empty names), shuffled at random.
    ///
    /// # Errors
    ///
    /// As [`Table::with_rules`].
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Result<Table, TableError> {
        Table::with_seed(names, rand::random())
    }

    /// A table whose deals all follow `seed`.
    ///
    /// # Errors
    ///
    /// As [`Table::with_rules`].
    pub fn with_seed<S: Into<String>>(names: impl IntoIterator<Item = S>, seed: u64) -> Result<Table, TableError> {
        Table::with_rules(names, Rules::preset("uno-engine")?, seed)
    }

    /// A table playing other rules (a preset or a house-rules file).
    ///
    /// # Errors
    ///
    /// [`TableError::PlayerCount`], [`TableError::EmptyName`] or
    /// [`TableError::DuplicateName`] for the names, [`TableError::Rules`] when the rules do not
    /// seat that many players.
    pub fn with_rules<S: Into<String>>(
        names: impl IntoIterator<Item = S>,
        rules: Rules,
        seed: u64,
    ) -> Result<Table, TableError> {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        if names.len() < 2 || names.len() > MAX_PLAYERS {
            return Err(TableError::PlayerCount(names.len()));
        }
        for (i, name) in names.iter().enumerate() {
            if name.trim().is_empty() {
                return Err(TableError::EmptyName);
            }
            if names[..i].contains(name) {
                return Err(TableError::DuplicateName(name.clone()));
            }
        }
        rules.check_players(names.len())?;
        Ok(Table {
            names,
            rules: Arc::new(rules),
            rng: ChaCha8Rng::seed_from_u64(seed),
            game: None,
            listeners: Vec::new(),
        })
    }

    /// A table already dealt from a given position (for tests and puzzles); `names` in seat order.
    ///
    /// # Errors
    ///
    /// As [`Table::with_rules`]; [`TableError::PlayerCount`] when the position has not one
    /// hand per name, [`TableError::Position`] when the engine refuses it.
    pub fn from_deal<S: Into<String>>(
        names: impl IntoIterator<Item = S>,
        rules: Rules,
        deal: crate::game::Deal,
        seed: u64,
    ) -> Result<Table, TableError> {
        let mut table = Table::with_rules(names, rules, seed)?;
        if deal.hands.len() != table.names.len() {
            return Err(TableError::PlayerCount(deal.hands.len()));
        }
        table.game = Some(Game::from_position(Arc::clone(&table.rules), &deal.into_position(seed))?);
        Ok(table)
    }

    /// Calls `listener` with every event from now on.
    pub fn on(&mut self, listener: impl FnMut(&TableEvent) + Send + 'static) {
        self.listeners.push(Box::new(listener));
    }

    /// Deals a new game (scores back to zero): shuffles, deals 7 cards each, picks a dealer at
    /// random (the player after them plays first) and turns the first card, which takes effect
    /// as the official rules say.
    ///
    /// # Errors
    ///
    /// [`TableError::Setup`] when the engine cannot deal.
    pub fn new_game(&mut self) -> Result<Vec<TableEvent>, TableError> {
        let mut events = Vec::new();
        let seed = self.rng.gen();
        let mut game = Game::new(Arc::clone(&self.rules), self.names.len(), seed)?;
        game.restart_with_events(seed, &mut events);
        self.game = Some(game);
        Ok(self.publish(&events))
    }

    /// Deals the next round of a match, keeping the scores (after an `End`, while nobody has
    /// reached the target).
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal, [`TableError::Refused`] while the round
    /// is still being played or the match is over.
    pub fn next_round(&mut self) -> Result<Vec<TableEvent>, TableError> {
        let seat = self.game()?.current();
        self.act(seat, Action::NextRound)
    }

    /// The engine game, once dealt.
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal.
    pub fn game(&self) -> Result<&Game, TableError> {
        self.game.as_ref().ok_or(TableError::NoGame)
    }

    /// The players' names in seat order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    fn seat_of(&self, name: &str) -> Result<Seat, TableError> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| Seat(i as u8))
            .ok_or_else(|| TableError::UnknownPlayer(name.into()))
    }

    fn view(&self, seat: Seat) -> Player<'_> {
        let (hand, yelled) = match &self.game {
            Some(g) => (g.hand(seat), g.uno_called(seat)),
            None => (&[][..], false),
        };
        Player { name: &self.names[seat.index()], seat, hand, yelled }
    }

    /// The player whose turn it is (`None` before the first deal).
    pub fn current_player(&self) -> Option<Player<'_>> {
        self.game.as_ref().map(|g| self.view(g.current()))
    }

    /// A player by name, whether or not it is their turn.
    pub fn player(&self, name: &str) -> Option<Player<'_>> {
        self.seat_of(name).ok().map(|s| self.view(s))
    }

    /// Every player in seat order (with empty hands before the first deal).
    pub fn players(&self) -> Vec<Player<'_>> {
        (0..self.names.len()).map(|i| self.view(Seat(i as u8))).collect()
    }

    /// The card in play (the top of the discard pile).
    pub fn discarded_card(&self) -> Option<Card> {
        self.game.as_ref().map(Game::top)
    }

    /// The colour in play: the top card's, or the one named for a wild.
    pub fn color(&self) -> Option<Color> {
        self.game.as_ref().and_then(Game::color)
    }

    /// Points won so far, by player, in seat order.
    pub fn scores(&self) -> Vec<(&str, u32)> {
        let scores = self.game.as_ref().map(|g| g.scores().to_vec()).unwrap_or_else(|| vec![0; self.names.len()]);
        self.names.iter().map(String::as_str).zip(scores).collect()
    }

    /// Whether the round has ended (a player has no card left).
    pub fn is_round_over(&self) -> bool {
        self.game.as_ref().is_some_and(Game::is_round_over)
    }

    /// The player who emptied their hand this round.
    pub fn winner(&self) -> Option<&str> {
        let seat = self.game.as_ref()?.round_winner()?;
        Some(&self.names[seat.index()])
    }

    /// The current player plays `card` from their hand; `color` names the colour of a wild and
    /// must be `None` for any other card.
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal; [`TableError::Refused`] with the
    /// engine's reason when the play breaks the rules.
    pub fn play(&mut self, card: Card, color: Option<Color>) -> Result<Vec<TableEvent>, TableError> {
        let seat = self.game()?.current();
        self.act(seat, Action::Play { card, color })
    }

    /// The current player draws a card. Facing a Wild Draw Four, drawing takes its four cards
    /// (use [`Table::challenge`] to challenge it instead).
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal; [`TableError::Refused`] with the engine's
    /// reason (already drawn this turn, a colour to name first, the round over, …).
    pub fn draw(&mut self) -> Result<Vec<TableEvent>, TableError> {
        let game = self.game()?;
        let seat = game.current();
        let action = if matches!(game.phase(), Phase::Challenge { .. }) { Action::Accept } else { Action::Draw };
        self.act(seat, action)
    }

    /// The current player keeps the card they drew and ends the turn; an error unless they drew.
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal; [`TableError::Refused`] before a draw
    /// (or when the rules say the drawn card must be played).
    pub fn pass(&mut self) -> Result<Vec<TableEvent>, TableError> {
        let seat = self.game()?.current();
        self.act(seat, Action::Pass)
    }

    /// The current player challenges the Wild Draw Four played on them.
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal; [`TableError::Refused`] when no Wild
    /// Draw Four waits for an answer.
    pub fn challenge(&mut self) -> Result<Vec<TableEvent>, TableError> {
        let seat = self.game()?.current();
        self.act(seat, Action::Challenge)
    }

    /// The first player names the colour when the first card turned up is a Wild.
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal; [`TableError::Refused`] when no colour
    /// is asked for.
    pub fn choose_color(&mut self, color: Color) -> Result<Vec<TableEvent>, TableError> {
        let seat = self.game()?.current();
        self.act(seat, Action::DeclareColor { color })
    }

    /// Yells UNO, as `name` or (with `None`) as the current player. The current player with two
    /// cards or fewer is marked as having yelled (again, harmlessly, if they already had); so is
    /// a player who has just gone down to one card, until the next player acts. Otherwise the
    /// player with one card who did not yell in time draws two, or, when there is none, the
    /// yeller draws two.
    ///
    /// # Errors
    ///
    /// [`TableError::NoGame`] before the first deal, [`TableError::UnknownPlayer`] for a
    /// name not at the table, [`TableError::Refused`] when the engine refuses the yell (the
    /// round is over).
    pub fn uno(&mut self, name: Option<&str>) -> Result<(Yell, Vec<TableEvent>), TableError> {
        let game = self.game()?;
        let seat = match name {
            Some(n) => self.seat_of(n)?,
            None => game.current(),
        };
        let own = seat == game.current() && game.phase().is_own_turn() && game.hand(seat).len() <= 2;
        if own && game.uno_called(seat) {
            // The seed marks such a yeller again and nothing else; the engine refuses a
            // repeated call (it changes nothing), so it is not passed on.
            return match game.check(seat, Action::CallUno) {
                Err(IllegalAction::UnoAlreadyCalled) => Ok((Yell::Marked, Vec::new())),
                Err(e) => Err(e.into()),
                Ok(()) => Ok((Yell::Marked, self.act(seat, Action::CallUno)?)),
            };
        }
        // Anyone else's yell catches the player left with one card who did not yell in time,
        // or, with nobody to catch, is the rules' false call.
        let action = match game.uno_exposed() {
            Some(v) if !own && v != seat => Action::CatchUno { seat: v },
            _ => Action::CallUno,
        };
        let events = self.act(seat, action)?;
        let yell = events
            .iter()
            .find_map(|e| match e {
                TableEvent::Other(Event::UnoPenalty { seat: caught, .. }) => {
                    Some(Yell::Caught(self.names[caught.index()].clone()))
                }
                TableEvent::Other(Event::FalseUnoCall { .. }) => Some(Yell::FalseCall),
                _ => None,
            })
            .unwrap_or(Yell::Marked);
        Ok((yell, events))
    }

    fn act(&mut self, seat: Seat, action: Action) -> Result<Vec<TableEvent>, TableError> {
        let game = self.game.as_mut().ok_or(TableError::NoGame)?;
        let events = game.apply(seat, action)?;
        Ok(self.publish(&events))
    }

    /// Translates engine events to the table's and hands them to the listeners.
    fn publish(&mut self, events: &[Event]) -> Vec<TableEvent> {
        let name = |s: &Seat| self.names[s.index()].clone();
        let mut out = Vec::with_capacity(events.len());
        for (i, e) in events.iter().enumerate() {
            out.push(match e {
                Event::CardPlayed { seat, card, .. } => {
                    let color = events[i + 1..].iter().find_map(|e| match e {
                        Event::ColorDeclared { color, .. } if card.is_wild() => Some(*color),
                        _ => None,
                    });
                    TableEvent::CardPlay { card: *card, color, played_by: name(seat) }
                }
                Event::TurnStarted { seat } => TableEvent::NextPlayer { player: name(seat) },
                Event::RoundScored { winner, points, .. } => TableEvent::End { winner: name(winner), score: *points },
                e => TableEvent::Other(e.clone()),
            });
        }
        for listener in &mut self.listeners {
            for e in &out {
                listener(e);
            }
        }
        out
    }
}
