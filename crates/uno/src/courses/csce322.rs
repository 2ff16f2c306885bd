//! Seed 000's four operations, driven by its precedence policy.
//!
//! The policy picks, for the hand to move, the first rule that applies:
//!
//! 1. extend a Wild Draw Four (the top is a Wild Draw Four, bare or behind its colour marker);
//! 2. extend a Draw Two (the top is a Draw Two);
//! 3. play the left-most card whose colour matches the top's;
//! 4. play the left-most Wild Draw Four;
//! 5. play the left-most card whose symbol matches the top's;
//! 6. play the left-most Wild;
//! 7. draw the first card of the deck.
//!
//! A player who must extend and cannot serves the penalty instead: draws everything built up
//! (or what the deck has left) and puts a colour marker on top; that is the whole turn.
//!
//! Colour and symbol are compared as the notation's characters, markers included, because the
//! course's reference does so and its published outputs depend on it: a colour marker `c,-` has
//! colour `c` and symbol `-`, so on a marker a Wild is a symbol match (rule 5) and is put down
//! without a marker of its own; on such a bare Wild (colour `w`) the left-most wild card is a
//! colour match (rule 3), again without a marker. See `docs/csce322.md` for every such point.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::card::{Card, Color, Face};
use crate::courses::notation::{bracketed, card_code, card_text, Entry, Layout};

pub use crate::rules::precedence::{marker_colour, precedence, Rule};

/// What a turn does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Plays the card at `index` of the hand; `declared` is the entry put on top of it
    /// (a colour marker, or `-,-` when a wild empties the hand), if any.
    Play {
        /// The card's place in the hand, 0 for the left-most.
        index: usize,
        /// The card played.
        card: Card,
        /// The entry put on top of it, if any.
        declared: Option<Entry>,
    },
    /// Draws the deck's first card to the back of the hand.
    Draw {
        /// The card drawn.
        card: Card,
    },
    /// Cannot extend: draws `drawn` of the `owed` cards (none when the deck is empty) and puts
    /// `marker` on top.
    ServePenalty {
        /// Cards built up by the draw cards on the pile.
        owed: usize,
        /// Cards actually drawn: `owed`, or what the deck had left.
        drawn: usize,
        /// The colour of the marker put on top, which ends the build-up.
        marker: Color,
    },
    /// Can neither play nor draw, in many-players-one-move: the turn is taken and passes on.
    Pass,
}

/// A move with the rule that chose it (for a penalty, the rule that could not be followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The rule that chose it (for a penalty, the rule that could not be followed).
    pub rule: Rule,
    /// What the turn did.
    pub action: Action,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            Action::Play { card, declared, .. } => {
                write!(f, "plays {}", card_text(card))?;
                if let Some(d) = declared {
                    write!(f, " then {d}")?;
                }
                write!(f, " ({})", self.rule)
            }
            Action::Draw { card } => write!(f, "draws {} ({})", card_text(card), self.rule),
            Action::ServePenalty { owed, drawn, marker } => write!(
                f,
                "cannot {}: draws {drawn} of {owed} and puts {} on top",
                self.rule.describe(),
                Entry::Marker(marker)
            ),
            Action::Pass => f.write_str("can neither play nor draw: the turn passes"),
        }
    }
}

/// The draw card the hand to move must answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Demand {
    WildDrawFour,
    DrawTwo,
}

fn demand(discard: &[Entry]) -> Option<Demand> {
    match discard {
        [Entry::Card(Card::WILD_DRAW_FOUR), ..] => Some(Demand::WildDrawFour),
        [Entry::Marker(_), Entry::Card(Card::WILD_DRAW_FOUR), ..] => Some(Demand::WildDrawFour),
        [Entry::Card(c), ..] if c.face() == Face::DrawTwo => Some(Demand::DrawTwo),
        _ => None,
    }
}

/// How many cards the build-up at the front of the pile is worth.
///
/// A Wild Draw Four counts only directly behind its marker (the seed: "if a Draw 4 was played,
/// it would be directly behind a marker"); a served penalty's copy (marker, marker) ends it.
fn owed(discard: &[Entry], d: Demand) -> usize {
    match d {
        Demand::WildDrawFour => {
            4 * discard
                .chunks_exact(2)
                .take_while(|pair| matches!(pair, [Entry::Marker(_), Entry::Card(Card::WILD_DRAW_FOUR)]))
                .count()
        }
        Demand::DrawTwo => {
            2 * discard.iter().take_while(|e| matches!(e, Entry::Card(c) if c.face() == Face::DrawTwo)).count()
        }
    }
}

/// The entry put on a wild played by rules 1, 4 and 6.
fn declaration(hand: &[Card], played: usize) -> Entry {
    match marker_colour(hand, played) {
        Some(c) => Entry::Marker(c),
        None if hand.len() <= 1 => Entry::End,
        None => Entry::Marker(Color::Red),
    }
}

fn play(hand: &[Card], index: usize, rule: Rule, declares: bool) -> Option<Move> {
    let card = *hand.get(index)?;
    let declared = declares.then(|| declaration(hand, index));
    Some(Move { rule, action: Action::Play { index, card, declared } })
}

/// The move the policy picks for hand `player` (0-based), or `None` when that player can
/// neither play nor draw a card (empty deck, or a penalty that would draw nothing).
pub fn choose_move(position: &Layout, player: usize) -> Option<Move> {
    let hand = position.hands.get(player)?;
    let discard = &position.discard;
    let top = discard.first()?;

    let demand = demand(discard);
    if let Some(d) = demand {
        let extends = |c: Card| match d {
            Demand::WildDrawFour => c == Card::WILD_DRAW_FOUR,
            Demand::DrawTwo => c.face() == Face::DrawTwo,
        };
        if let Some((i, rule)) = precedence(hand, true, |_| false, |_| false, extends) {
            return play(hand, i, rule, d == Demand::WildDrawFour);
        }
        let rule = match d {
            Demand::WildDrawFour => Rule::ExtendWildDrawFour,
            Demand::DrawTwo => Rule::ExtendDrawTwo,
        };
        let owed = owed(discard, d);
        let drawn = owed.min(position.deck.len());
        let marker = match (d, top) {
            (Demand::DrawTwo, Entry::Card(c)) => c.color(),
            (Demand::WildDrawFour, Entry::Marker(c)) => Some(*c),
            _ => None,
        };
        // A bare Wild Draw Four (played as a match, so without a marker) builds up nothing and
        // leaves no marker to copy: the course's reference then stops the game. An empty deck
        // does not: the seed draws "the number of cards required (or the size of the deck,
        // whichever is smaller)", none, and then places the marker.
        return marker.map(|marker| Move { rule, action: Action::ServePenalty { owed, drawn, marker } });
    }

    let [top_colour, top_symbol] = top.code();
    let colour = |c: Card| card_code(c)[0] == top_colour;
    let symbol = |c: Card| card_code(c)[1] == top_symbol;
    if let Some((i, rule)) = precedence(hand, false, colour, symbol, |_| true) {
        return play(hand, i, rule, matches!(rule, Rule::WildDrawFour | Rule::Wild));
    }
    let card = *position.deck.first()?;
    Some(Move { rule: Rule::Draw, action: Action::Draw { card } })
}

fn apply(position: &mut Layout, player: usize, mv: &Move) {
    let Some(hand) = position.hands.get_mut(player) else {
        return;
    };
    match mv.action {
        Action::Play { index, declared, .. } => {
            if index < hand.len() {
                let card = hand.remove(index);
                position.discard.insert(0, Entry::Card(card));
                if let Some(d) = declared {
                    position.discard.insert(0, d);
                }
            }
        }
        Action::Draw { .. } => {
            if !position.deck.is_empty() {
                hand.push(position.deck.remove(0));
            }
        }
        Action::ServePenalty { drawn, marker, .. } => {
            let n = drawn.min(position.deck.len());
            hand.extend(position.deck.drain(..n));
            position.discard.insert(0, Entry::Marker(marker));
        }
        Action::Pass => {}
    }
}

/// Chooses and applies the move of hand `player` (0-based); `None` when the player cannot
/// continue (the position is left unchanged).
pub fn take_turn(position: &mut Layout, player: usize) -> Option<Move> {
    let mv = choose_move(position, player)?;
    apply(position, player, &mv);
    Some(mv)
}

/// Seed 000's four operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// The first hand takes one turn (a play, a draw or a penalty).
    OnePlayerOneMove,
    /// The first hand takes turns until it is empty or it can neither play nor draw.
    OnePlayerManyMoves,
    /// n turns for n players, Player 1 first; a player who can do nothing passes.
    ManyPlayersOneMove,
    /// Turns until a player empties their hand or the player to move can do nothing.
    ManyPlayersManyMoves,
}

impl Operation {
    /// The four operations in the seed's order.
    pub const ALL: [Operation; 4] = [
        Operation::OnePlayerOneMove,
        Operation::OnePlayerManyMoves,
        Operation::ManyPlayersOneMove,
        Operation::ManyPlayersManyMoves,
    ];

    /// The command-line name, e.g. `one-player-many-moves`.
    pub const fn name(self) -> &'static str {
        match self {
            Operation::OnePlayerOneMove => "one-player-one-move",
            Operation::OnePlayerManyMoves => "one-player-many-moves",
            Operation::ManyPlayersOneMove => "many-players-one-move",
            Operation::ManyPlayersManyMoves => "many-players-many-moves",
        }
    }

    /// Whether only the first hand plays (and only it is printed).
    pub const fn is_one_player(self) -> bool {
        matches!(self, Operation::OnePlayerOneMove | Operation::OnePlayerManyMoves)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`Operation::name`]'s.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown operation {0:?} (expected one-player-one-move, one-player-many-moves, many-players-one-move or many-players-many-moves)")]
pub struct UnknownOperation(
    /// The name given.
    pub String,
);

impl FromStr for Operation {
    type Err = UnknownOperation;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Operation::ALL.into_iter().find(|o| o.name() == s).ok_or_else(|| UnknownOperation(s.to_string()))
    }
}

/// One turn of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// 1-based.
    pub turn: usize,
    /// 1-based, as the seed numbers players (Player 1 is the first line of the hands file).
    pub player: usize,
    /// What the player did and why.
    pub mv: Move,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "turn {}: player {} {}", self.turn, self.player, self.mv)
    }
}

/// Why an operation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The operation took all the turns it takes (one, or n for n players).
    TurnsTaken,
    /// Player `player` (1-based) emptied their hand.
    HandEmptied {
        /// The player, from 1.
        player: usize,
    },
    /// Player `player` (1-based) could neither play nor draw.
    CannotContinue {
        /// The player, from 1.
        player: usize,
    },
    /// The position was already over: `-,-` on top, or an empty hand that would play.
    AlreadyOver,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::TurnsTaken => f.write_str("every turn taken"),
            Stop::HandEmptied { player } => write!(f, "player {player} emptied their hand"),
            Stop::CannotContinue { player } => {
                write!(f, "player {player} can neither play nor draw")
            }
            Stop::AlreadyOver => f.write_str("the position was already over"),
        }
    }
}

/// What an operation did: the position it leaves, each turn, and why it stopped (a trace, not
/// a game's outcome: the seed's operations stop, they do not decide a game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The position after the last turn.
    pub position: Layout,
    /// Every turn taken, in order.
    pub steps: Vec<Step>,
    /// Why the operation stopped.
    pub stop: Stop,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Turns {
    One,
    PerPlayer,
    Unbounded,
}

/// Runs `op` on `start` (which is not changed).
pub fn run(op: Operation, start: &Layout) -> Trace {
    let mut position = start.clone();
    let (players, turns) = match op {
        Operation::OnePlayerOneMove => (Players::First, Turns::One),
        Operation::OnePlayerManyMoves => (Players::First, Turns::Unbounded),
        Operation::ManyPlayersOneMove => (Players::All, Turns::PerPlayer),
        Operation::ManyPlayersManyMoves => (Players::All, Turns::Unbounded),
    };
    let n = position.hands.len();
    let limit = match turns {
        Turns::One => 1,
        Turns::PerPlayer => n,
        // Every turn plays a card or draws at least one: the game ends by itself.
        Turns::Unbounded => usize::MAX,
    };
    let mut steps = Vec::new();
    let over = |p: &Layout| {
        p.discard.first() == Some(&Entry::End)
            || match players {
                Players::First => p.hands.first().map_or(0, Vec::len) == 0,
                Players::All => p.hands.iter().any(Vec::is_empty),
            }
    };
    if over(&position) {
        return Trace { position, steps, stop: Stop::AlreadyOver };
    }
    let mut player = 0usize;
    let mut ascending = true;
    let mut stop = Stop::TurnsTaken;
    for turn in 1..=limit {
        let Some(mv) = take_turn(&mut position, player) else {
            if turns == Turns::PerPlayer {
                // The seed's "n turns being taken": a player who can neither play nor draw
                // takes their turn by doing nothing, and the later players still move.
                steps.push(Step { turn, player: player + 1, mv: Move { rule: Rule::Draw, action: Action::Pass } });
                (player, ascending) = next_player(player, n, ascending, None);
                continue;
            }
            stop = Stop::CannotContinue { player: player + 1 };
            break;
        };
        steps.push(Step { turn, player: player + 1, mv });
        if position.hands.get(player).map_or(0, Vec::len) == 0 {
            stop = Stop::HandEmptied { player: player + 1 };
            break;
        }
        if players == Players::All {
            let played = match mv.action {
                Action::Play { card, .. } => Some(card.face()),
                _ => None,
            };
            (player, ascending) = next_player(player, n, ascending, played);
        }
    }
    Trace { position, steps, stop }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Players {
    First,
    All,
}

/// Who moves after hand `player` (0-based) of `n`, and in which direction, as the seed's
/// section 4 states: a Reverse turns the direction and passes to the neighbour in the new one,
/// a Skip passes over one player; both wrap around the table.
pub fn next_player(player: usize, n: usize, ascending: bool, played: Option<Face>) -> (usize, bool) {
    if n == 0 {
        return (0, ascending);
    }
    let (ascending, step) = match played {
        Some(Face::Reverse) => (!ascending, 1),
        Some(Face::Skip) => (ascending, 2),
        _ => (ascending, 1),
    };
    let step = step % n;
    let next = if ascending { (player + step) % n } else { (player + n - step) % n };
    (next, ascending)
}

/// The course driver's print form of a position after `op`: `discard`, the pile, `deck`, the
/// deck, `hands`, then one line per hand (only the first hand for the one-player operations).
pub fn driver_output(op: Operation, position: &Layout) -> String {
    let mut out = String::new();
    out.push_str("discard\n");
    out.push_str(&bracketed(position.discard.iter().copied()));
    out.push_str("\ndeck\n");
    out.push_str(&bracketed(position.deck.iter().map(|c| Entry::Card(*c))));
    out.push_str("\nhands\n");
    let shown = if op.is_one_player() { &position.hands[..position.hands.len().min(1)] } else { &position.hands[..] };
    for hand in shown {
        out.push_str(&bracketed(hand.iter().map(|c| Entry::Card(*c))));
        out.push('\n');
    }
    out
}
