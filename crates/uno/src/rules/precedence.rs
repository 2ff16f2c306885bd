//! Seed 000's precedence list: the order in which the course's policy picks a card, shared by
//! the `.uno` operations (`courses::csce322`), the engine's rule `forced_play = "precedence"`
//! (the `csce322` preset), under which it picks every move, and the `precedence` bot, which
//! plays it under any rules.
//!
//! The policy picks, for the hand to move, the first rule that applies:
//!
//! 1. extend a Wild Draw Four (a Wild Draw Four's penalty is to be answered);
//! 2. extend a Draw Two (a Draw Two's penalty is to be answered);
//! 3. play the left-most card whose colour matches;
//! 4. play the left-most Wild Draw Four;
//! 5. play the left-most card whose symbol matches;
//! 6. play the left-most Wild;
//! 7. draw.

use std::fmt;

use crate::card::{Card, Color, Face};

/// The precedence rule that chose a move (numbered as in the seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// 1: put a Wild Draw Four on the Wild Draw Four on top.
    ExtendWildDrawFour = 1,
    /// 2: put a Draw Two on the Draw Two on top.
    ExtendDrawTwo = 2,
    /// 3: the left-most card whose colour character matches the top's.
    ColourMatch = 3,
    /// 4: the left-most Wild Draw Four.
    WildDrawFour = 4,
    /// 5: the left-most card whose symbol character matches the top's.
    SymbolMatch = 5,
    /// 6: the left-most Wild.
    Wild = 6,
    /// 7: draw the deck's first card.
    Draw = 7,
}

impl Rule {
    /// The rule's number in the seed's list, 1 to 7.
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// A few words naming the rule, as traces print it (`colour match`).
    pub const fn describe(self) -> &'static str {
        match self {
            Rule::ExtendWildDrawFour => "extend a Wild Draw Four",
            Rule::ExtendDrawTwo => "extend a Draw Two",
            Rule::ColourMatch => "colour match",
            Rule::WildDrawFour => "Wild Draw Four",
            Rule::SymbolMatch => "symbol match",
            Rule::Wild => "Wild",
            Rule::Draw => "draw",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule {}: {}", self.number(), self.describe())
    }
}

/// The colour of the left-most non-wild card of `hand` other than the one at `played`: the
/// seed's marker rule, shared by the `.uno` operations, the engine's rule and the `precedence` bot. `None` when only wilds are
/// left (the seed then declares red, the bot its rules' first colour).
pub fn marker_colour(hand: &[Card], played: usize) -> Option<Color> {
    hand.iter().enumerate().filter(|&(i, _)| i != played).find_map(|(_, c)| c.color())
}

/// Seed 000's precedence (rules 1 to 6): the index of the card it plays from `hand` and the
/// rule that picked it, or `None` when the hand must draw (rule 7) or, `answering` a draw
/// penalty, serve it.
///
/// The `.uno` operations, the engine (under `forced_play = "precedence"`) and the `precedence`
/// bot share this order; the `.uno` operations judge a match differently (the notation's characters, markers included, against the engine's colour in
/// play), so the tests are given: `colour` and `symbol` say whether a card matches the top,
/// `allowed` whether the rules let it be played now (for the seed: which draw card extends).
pub fn precedence(
    hand: &[Card],
    answering: bool,
    colour: impl Fn(Card) -> bool,
    symbol: impl Fn(Card) -> bool,
    allowed: impl Fn(Card) -> bool,
) -> Option<(usize, Rule)> {
    let find = |pred: &dyn Fn(Card) -> bool| hand.iter().position(|&c| allowed(c) && pred(c));
    let extend: [(Rule, &dyn Fn(Card) -> bool); 2] = [
        (Rule::ExtendWildDrawFour, &|c| c == Card::WILD_DRAW_FOUR),
        (Rule::ExtendDrawTwo, &|c| c.face() == Face::DrawTwo),
    ];
    let plain: [(Rule, &dyn Fn(Card) -> bool); 4] = [
        (Rule::ColourMatch, &colour),
        (Rule::WildDrawFour, &|c| c == Card::WILD_DRAW_FOUR),
        (Rule::SymbolMatch, &symbol),
        (Rule::Wild, &|c| c == Card::WILD),
    ];
    let order: &[(Rule, &dyn Fn(Card) -> bool)] = if answering { &extend } else { &plain };
    order.iter().find_map(|&(rule, pred)| find(pred).map(|i| (i, rule)))
}
