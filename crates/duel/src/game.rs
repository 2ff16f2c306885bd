//! The game as an explicit state machine: setup (three rounds), play (rounds of a red turn and a
//! black turn), end. One entry point, [`DuelGame::apply`]; a refused action changes nothing.

use serde::{Deserialize, Serialize};

use crate::board::{code_side, Board};

use crate::bot::Bot;
use crate::error::DuelError;
use crate::key::Key;
use crate::pieces::{
    Cell, Coord, Dir, Move, Outcome, Piece, Side, DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_PIECES, RANK_LIMITS,
};

/// The three stages of the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Placing objects on the grid.
    Setup {
        /// 1 places blocks, 2 red pieces, 3 black pieces.
        round: u8,
    },
    /// Moving pieces, red then black in every round.
    Play {
        /// The play round, from 1.
        round: u32,
        /// The side whose turn it is.
        to_move: Side,
    },
    /// The play stage is over; the game reacts to nothing.
    End {
        /// The play round in which the game ended.
        round: u32,
        /// Who won, or a draw.
        outcome: Outcome,
        /// Why the play stage ended.
        reason: EndReason,
    },
}

/// Why the play stage ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The user ended the play stage.
    UserEnded,
    /// At the start of a turn no red piece could move (or none was left).
    RedCannotMove,
    /// At the start of a turn no black piece could move (or none was left).
    BlackCannotMove,
    /// The round cap of a simulation was reached (never set for a user's game).
    RoundLimit,
}

impl EndReason {
    /// The sentence shown at the end of the game, before the outcome's message.
    pub fn message(self) -> &'static str {
        match self {
            EndReason::UserEnded => "The play stage was ended by the user.",
            EndReason::RedCannotMove => "No red piece can move.",
            EndReason::BlackCannotMove => "No black piece can move.",
            EndReason::RoundLimit => "The round limit was reached.",
        }
    }
}

/// What the user (or the server on its behalf) does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Setup: type `key` on `cell` (`b` for a block in round 1, `1`–`6` for a piece in rounds
    /// 2 and 3). A key that means nothing is kept as typed, so it is reported, never dropped.
    Place {
        /// The cell to place on.
        cell: Coord,
        /// The key typed.
        key: Key,
    },
    /// Setup: the "next round" button.
    NextRound,
    /// Play: select the piece on `cell` and type `key` (`w`, `a`, `s`, `d`) for the side to move.
    Move {
        /// The cell of the piece to move.
        cell: Coord,
        /// The key typed.
        key: Key,
    },
    /// Play: the user ends the play stage.
    End,
}

impl Action {
    /// [`Action::Place`] from a key or the text typed.
    pub fn place(cell: Coord, key: impl Into<Key>) -> Action {
        Action::Place { cell, key: key.into() }
    }
    /// [`Action::Move`] from a key or the text typed.
    pub fn mv(cell: Coord, key: impl Into<Key>) -> Action {
        Action::Move { cell, key: key.into() }
    }
}

/// What happened, in order; drives the terminal view and the web page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A setup placement was accepted.
    Placed {
        /// Where.
        cell: Coord,
        /// What now stands there: a block or a piece.
        object: Cell,
    },
    /// The next-round button moved the setup to round 2 or 3.
    SetupRoundStarted {
        /// The setup round now open (2 or 3).
        round: u8,
    },
    /// Setup round 3 closed and the play stage began (red to move).
    PlayStarted,
    /// A new play round began (red to move); round 1 follows [`Event::PlayStarted`].
    RoundStarted {
        /// The play round, from 1.
        round: u32,
    },
    /// A piece moved; when it moved onto an enemy piece, [`Event::Combat`] follows.
    Moved {
        /// The side that moved.
        side: Side,
        /// The cell it left.
        from: Coord,
        /// The cell it moved to (for an attack, the defender's).
        to: Coord,
        /// The direction it went.
        dir: Dir,
    },
    /// A piece moved onto an enemy piece; `eliminated` lost.
    Combat {
        /// The defender's cell, where the winner now stands.
        at: Coord,
        /// The piece that moved.
        attacker: Piece,
        /// The piece that stood on `at`.
        defender: Piece,
        /// The side whose piece was removed.
        eliminated: Side,
    },
    /// The play stage ended; the game is in [`Stage::End`].
    PlayEnded {
        /// Why it ended.
        reason: EndReason,
        /// Who won, or a draw.
        outcome: Outcome,
    },
}

/// The status line of the seed plus the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Status {
    /// The stage, as [`DuelGame::stage`] gives it.
    pub stage: Stage,
    /// The play round (0 during setup).
    pub round: u32,
    /// Red pieces on the grid.
    pub red_left: usize,
    /// Black pieces on the grid.
    pub black_left: usize,
    /// Whose turn it is in the play stage.
    pub to_move: Option<Side>,
    /// Set in the end stage.
    pub outcome: Option<Outcome>,
}

/// One game of Duel: the grid and the stage. Serialize it to store a game, deserialize to resume.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelGame {
    position: Board,
    stage: Stage,
    /// Simulations stop at this round with a draw; `None` for games with a user.
    #[serde(default)]
    max_rounds: Option<u32>,
}

impl Default for DuelGame {
    fn default() -> Self {
        match DuelGame::new(DEFAULT_WIDTH, DEFAULT_HEIGHT) {
            Ok(g) => g,
            // The default size is a constant inside the allowed range.
            Err(_) => unreachable!("default grid size is valid"),
        }
    }
}

impl DuelGame {
    /// A new game in setup round 1 on an empty `width` × `height` grid (1..=26 each).
    ///
    /// # Errors
    ///
    /// [`DuelError::BadSize`] when either dimension is outside 1..=26.
    pub fn new(width: u8, height: u8) -> Result<DuelGame, DuelError> {
        Ok(DuelGame { position: Board::empty(width, height)?, stage: Stage::Setup { round: 1 }, max_rounds: None })
    }

    /// A game that starts the play stage on `position` (red moves first), as after setup.
    /// Used by simulations and tests; the position's side to move is reset to red.
    pub fn from_position(mut position: Board) -> DuelGame {
        position.set_to_move(Side::Red);
        let mut g = DuelGame { position, stage: Stage::Play { round: 1, to_move: Side::Red }, max_rounds: None };
        let mut events = Vec::new();
        g.check_turn_start(&mut events);
        g
    }

    /// Ends the game in a draw after this many rounds (simulations only).
    pub fn set_max_rounds(&mut self, max_rounds: Option<u32>) {
        self.max_rounds = max_rounds;
    }

    /// The grid and the side to move, in the compact form bots and the search read.
    pub fn position(&self) -> &Board {
        &self.position
    }
    /// Where the game is: setup round, play round and side to move, or the end.
    pub fn stage(&self) -> Stage {
        self.stage
    }
    /// The grid's columns.
    pub fn width(&self) -> u8 {
        self.position.width()
    }
    /// The grid's rows.
    pub fn height(&self) -> u8 {
        self.position.height()
    }

    /// The cell at `c`, `None` off the grid.
    pub fn cell(&self, c: Coord) -> Option<Cell> {
        self.position.get(c)
    }

    /// The status line: stage, round, pieces left, side to move and outcome.
    pub fn status(&self) -> Status {
        let (round, to_move, outcome) = match self.stage {
            Stage::Setup { .. } => (0, None, None),
            Stage::Play { round, to_move } => (round, Some(to_move), None),
            Stage::End { round, outcome, .. } => (round, None, Some(outcome)),
        };
        Status {
            stage: self.stage,
            round,
            red_left: self.position.count(Side::Red),
            black_left: self.position.count(Side::Black),
            to_move,
            outcome,
        }
    }

    /// Whether the game is in the end stage.
    pub fn is_over(&self) -> bool {
        matches!(self.stage, Stage::End { .. })
    }

    /// Applies one action. On error nothing changes and the error's `Display` is the message
    /// for the user.
    ///
    /// # Errors
    ///
    /// The [`DuelError`] naming the first rule the action breaks: [`DuelError::GameOver`] in
    /// the end stage, [`DuelError::NotPlaying`] or [`DuelError::SetupOver`] for an action of
    /// the other stage, and for a placement or a move the check that failed (wrong key,
    /// occupied or missing cell, a piece limit, a move off the grid or onto a block or an own
    /// piece, black's duty to attack).
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, DuelError> {
        match (self.stage, action) {
            (Stage::End { .. }, _) => Err(DuelError::GameOver),
            (Stage::Setup { round }, Action::Place { cell, key }) => self.place(round, cell, &key),
            (Stage::Setup { round }, Action::NextRound) => self.next_round(round),
            (Stage::Setup { .. }, Action::Move { .. } | Action::End) => Err(DuelError::NotPlaying),
            (Stage::Play { .. }, Action::Place { .. } | Action::NextRound) => Err(DuelError::SetupOver),
            (Stage::Play { to_move, .. }, Action::Move { cell, key }) => {
                let mv = self.check_move(to_move, cell, &key)?;
                Ok(self.play(mv))
            }
            (Stage::Play { round, .. }, Action::End) => Ok(self.finish(round, EndReason::UserEnded)),
        }
    }

    fn place(&mut self, round: u8, cell: Coord, key: &Key) -> Result<Vec<Event>, DuelError> {
        let side = match round {
            1 => None,
            2 => Some(Side::Red),
            _ => Some(Side::Black),
        };
        let object = match (side, key) {
            (None, Key::Block) => Cell::Block,
            (None, _) => return Err(DuelError::NotBlockKey { key: key.to_string() }),
            (Some(side), &Key::Rank(rank)) => Cell::Piece(Piece { side, rank }),
            (Some(side), _) => return Err(DuelError::NotRankKey { side, key: key.to_string() }),
        };
        let here = self.position.get(cell).ok_or(DuelError::OutsideGrid {
            cell,
            width: self.width(),
            height: self.height(),
        })?;
        if here != Cell::Empty {
            return Err(DuelError::CellOccupied { cell, holds: here.describe() });
        }
        if let Cell::Piece(p) = object {
            // The total is checked first: the rank limits add up to 12, so otherwise "more than
            // 12 pieces" could never be reported.
            if self.position.count(p.side) >= MAX_PIECES {
                return Err(DuelError::TooManyPieces { side: p.side });
            }
            let limit = RANK_LIMITS[usize::from(p.rank.get() - 1)];
            if self.position.count_rank(p.side, p.rank.get()) >= usize::from(limit) {
                return Err(DuelError::TooManyOfRank { side: p.side, rank: p.rank.get(), limit });
            }
        }
        self.position.set(cell, object);
        Ok(vec![Event::Placed { cell, object }])
    }

    fn next_round(&mut self, round: u8) -> Result<Vec<Event>, DuelError> {
        match round {
            1 => {
                self.stage = Stage::Setup { round: 2 };
                Ok(vec![Event::SetupRoundStarted { round: 2 }])
            }
            2 => {
                if self.position.count(Side::Red) == 0 {
                    return Err(DuelError::NoRedPiece);
                }
                self.stage = Stage::Setup { round: 3 };
                Ok(vec![Event::SetupRoundStarted { round: 3 }])
            }
            _ => {
                if self.position.count(Side::Black) == 0 {
                    return Err(DuelError::NoBlackPiece);
                }
                self.position.set_to_move(Side::Red);
                self.stage = Stage::Play { round: 1, to_move: Side::Red };
                let mut events = vec![Event::PlayStarted, Event::RoundStarted { round: 1 }];
                self.check_turn_start(&mut events);
                Ok(events)
            }
        }
    }

    /// Validates a move of `side` in the order the user meets the checks: the selected
    /// piece, the key, the target cell, black's duty to attack.
    fn check_move(&self, side: Side, cell: Coord, key: &Key) -> Result<Move, DuelError> {
        let here = self.position.get(cell).ok_or(DuelError::OutsideGrid {
            cell,
            width: self.width(),
            height: self.height(),
        })?;
        match here {
            Cell::Piece(p) if p.side == side => {}
            _ => return Err(DuelError::NotOwnPiece { side, cell, holds: here.describe() }),
        }
        let &Key::Dir(dir) = key else {
            return Err(DuelError::NotMoveKey { key: key.to_string() });
        };
        let mv = self.position.move_from(cell, dir).ok_or(DuelError::OffGrid { cell, dir })?;
        let target = self.position.cell_at(usize::from(mv.to));
        match target {
            Cell::Block => return Err(DuelError::OntoBlock { cell, dir }),
            Cell::Piece(p) if p.side == side => return Err(DuelError::OntoOwnPiece { cell, dir, side }),
            _ => {}
        }
        if side == Side::Black && target == Cell::Empty && self.position.black_must_attack() {
            return Err(DuelError::MustAttack);
        }
        Ok(mv)
    }

    /// Plays a checked move, then starts the next turn (and round) and checks for the end.
    fn play(&mut self, mv: Move) -> Vec<Event> {
        let Stage::Play { round, to_move } = self.stage else {
            return Vec::new();
        };
        let pos = &self.position;
        let from = pos.coord(usize::from(mv.from));
        let to = pos.coord(usize::from(mv.to));
        let dir = pos.dir_of(mv);
        let attacker = pos.cell_at(usize::from(mv.from));
        let mut events = vec![Event::Moved { side: to_move, from, to, dir }];
        let undo = self.position.make(mv);
        if let (Cell::Piece(attacker), Some(defender)) = (attacker, undo.defender()) {
            let winner = code_side(self.position.code(usize::from(mv.to)));
            events.push(Event::Combat {
                at: to,
                attacker,
                defender,
                eliminated: winner.unwrap_or(attacker.side).opponent(),
            });
        }
        match to_move {
            Side::Red => {
                self.stage = Stage::Play { round, to_move: Side::Black };
            }
            Side::Black => {
                if self.position.is_terminal() {
                    // The end check of the next turn decides; no new round is counted for a
                    // turn that cannot be played.
                    self.stage = Stage::Play { round, to_move: Side::Red };
                } else if self.max_rounds.is_some_and(|m| round >= m) {
                    events.extend(self.finish(round, EndReason::RoundLimit));
                    return events;
                } else {
                    self.stage = Stage::Play { round: round + 1, to_move: Side::Red };
                    events.push(Event::RoundStarted { round: round + 1 });
                }
            }
        }
        self.check_turn_start(&mut events);
        events
    }

    /// At the start of every turn: if either side has no piece that can move, the play stage
    /// ends.
    fn check_turn_start(&mut self, events: &mut Vec<Event>) {
        let Stage::Play { round, .. } = self.stage else {
            return;
        };
        let reason = if !self.position.can_move(Side::Red) {
            EndReason::RedCannotMove
        } else if !self.position.can_move(Side::Black) {
            EndReason::BlackCannotMove
        } else {
            return;
        };
        events.extend(self.finish(round, reason));
    }

    fn finish(&mut self, round: u32, reason: EndReason) -> Vec<Event> {
        let outcome = if reason == EndReason::RoundLimit { Outcome::Draw } else { self.position.outcome() };
        self.stage = Stage::End { round, outcome, reason };
        vec![Event::PlayEnded { reason, outcome }]
    }

    /// Asks `bot` for the move of the side to move and plays it (the computer's turn).
    ///
    /// # Errors
    ///
    /// [`DuelError::NotPlaying`] in setup, [`DuelError::GameOver`] in the end stage,
    /// [`DuelError::NoBotMove`] if the bot finds no move, and any refusal the user's move
    /// would meet if the bot's move breaks a rule (the game is then unchanged).
    pub fn bot_move(&mut self, bot: &mut dyn Bot) -> Result<Vec<Event>, DuelError> {
        let side = match self.stage {
            Stage::Play { to_move, .. } => to_move,
            Stage::Setup { .. } => return Err(DuelError::NotPlaying),
            Stage::End { .. } => return Err(DuelError::GameOver),
        };
        let mv = bot.choose(&self.position).ok_or(DuelError::NoBotMove)?;
        // The bot's move goes through the same checks as the user's.
        let cell = self.position.coord(usize::from(mv.from));
        let mv = self.check_move(side, cell, &Key::Dir(self.position.dir_of(mv)))?;
        Ok(self.play(mv))
    }

    /// The computer's turn for black: refused unless it is black's turn.
    ///
    /// # Errors
    ///
    /// [`DuelError::NotTurnOf`] when red is to move, otherwise as [`DuelGame::bot_move`].
    pub fn computer_move(&mut self, bot: &mut dyn Bot) -> Result<Vec<Event>, DuelError> {
        match self.stage {
            Stage::Play { to_move: Side::Red, .. } => Err(DuelError::NotTurnOf { side: Side::Black }),
            _ => self.bot_move(bot),
        }
    }

    /// Plays a move for the side to move, as a bot would, through the user's checks. Used by
    /// simulations.
    ///
    /// # Errors
    ///
    /// [`DuelError::NotPlaying`] in setup, [`DuelError::GameOver`] in the end stage, and the
    /// refusal the user would see if `mv` is not legal (the game is then unchanged).
    pub fn play_move(&mut self, mv: Move) -> Result<Vec<Event>, DuelError> {
        let Stage::Play { to_move, .. } = self.stage else {
            return Err(if self.is_over() { DuelError::GameOver } else { DuelError::NotPlaying });
        };
        let cell = self.position.coord(usize::from(mv.from));
        let checked = self.check_move(to_move, cell, &Key::Dir(self.position.dir_of(mv)))?;
        Ok(self.play(checked))
    }
}
