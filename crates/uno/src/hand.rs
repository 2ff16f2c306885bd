//! A player's hand, and sets of card kinds.
//!
//! A hand keeps its cards in the order they arrived (seed 000 plays "the left-most card", seeds
//! 002 and 004 print hands in order) and, beside them, the set of kinds it holds, so that "which
//! of my cards can go on this pile" is one AND of two 64-bit masks instead of a scan.

use std::fmt;
use std::ops::Deref;

use crate::card::{Card, Color};

/// A set of card kinds (not a multiset): bit `i` stands for `Card::from_index(i)`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

impl Card {
    /// Whether this card may be put on `top` when `color` is the colour in play
    /// (the declared colour when `top` is a wild): [`CardSet::matching`] for one card, kept
    /// beside it so the matching rule is written once.
    #[inline]
    pub fn matches(self, top: Card, color: Color) -> bool {
        CardSet::matching(top, color).contains(self)
    }
}

impl CardSet {
    /// No kind.
    pub const EMPTY: CardSet = CardSet(0);
    /// Both wild kinds.
    pub const WILDS: CardSet = CardSet(0b11 << 52);
    /// Every kind.
    pub const ALL: CardSet = CardSet((1 << Card::KINDS) - 1);

    /// The kinds whose bits are set in `bits` (bit `i` for `Card::from_index(i)`); bits past the
    /// last kind are dropped.
    #[inline]
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & CardSet::ALL.0)
    }

    /// The coloured kinds of one colour.
    #[inline]
    pub const fn of_color(color: Color) -> CardSet {
        CardSet(0x1FFF << (13 * color as u32))
    }

    /// The coloured kinds with the face slot `face_index` (0–12), in every colour.
    #[inline]
    pub const fn of_face(face_index: usize) -> CardSet {
        if face_index >= 13 {
            return CardSet(0);
        }
        CardSet((1 | 1 << 13 | 1 << 26 | 1 << 39) << face_index)
    }

    /// The kinds that match `top` when `color` is in play: the colour, the face, the wilds.
    #[inline]
    pub const fn matching(top: Card, color: Color) -> CardSet {
        let face = if top.is_wild() { 0 } else { CardSet::of_face(top.face_index()).0 };
        CardSet(CardSet::of_color(color).0 | face | CardSet::WILDS.0)
    }

    /// The set of `card`'s kind alone.
    #[inline]
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.index())
    }
    /// The raw mask: bit `i` set when `Card::from_index(i)` is in the set (bits 54 to 63
    /// never are).
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }
    /// Whether no kind is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// How many kinds are in the set (copies are not counted: it is not a multiset).
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether `card`'s kind is in the set.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }
    /// Whether the two sets share a kind.
    #[inline]
    pub const fn intersects(self, other: CardSet) -> bool {
        self.0 & other.0 != 0
    }
    /// The kinds in both sets.
    #[inline]
    pub const fn and(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }
    /// The kinds of `self` that are not in `other`.
    #[inline]
    pub const fn without(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }
    /// Adds `card`'s kind (no change if it is there).
    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }
    /// Removes `card`'s kind (no change if it is not there).
    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    /// The `n`-th kind in index order, counting from 0; `None` when `n >= len()`.
    #[inline]
    pub fn nth(self, n: usize) -> Option<Card> {
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        (bits != 0).then(|| Card::from_index(bits.trailing_zeros() as usize)).flatten()
    }

    /// The kinds in index order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Card::from_index(i)
        })
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cards one player holds, in the order they arrived, with the set of kinds beside them.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Hand {
    cards: Vec<Card>,
    kinds: CardSet,
}

impl Hand {
    /// An empty hand with room for `n` cards before it reallocates.
    pub fn with_capacity(n: usize) -> Hand {
        Hand { cards: Vec::with_capacity(n), kinds: CardSet::EMPTY }
    }

    /// A hand holding `cards`, the first being the left-most (the first to have arrived).
    pub fn from_cards(cards: Vec<Card>) -> Hand {
        let mut kinds = CardSet::EMPTY;
        for &c in &cards {
            kinds.insert(c);
        }
        Hand { cards, kinds }
    }

    /// The kinds this hand holds.
    #[inline]
    pub fn kinds(&self) -> CardSet {
        self.kinds
    }

    /// The cards, left-most (oldest) first; also reachable through `Deref`.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards
    }

    /// Adds a card at the back (the right-most place).
    #[inline]
    pub(crate) fn push(&mut self, card: Card) {
        self.cards.push(card);
        self.kinds.insert(card);
    }

    /// Takes out the left-most copy of `card`; false if the hand has none.
    #[inline]
    pub(crate) fn take(&mut self, card: Card) -> bool {
        if !self.kinds.contains(card) {
            return false;
        }
        let Some(pos) = self.cards.iter().position(|&c| c == card) else {
            return false;
        };
        // Hands are short: shifting by hand beats a call to memmove.
        for i in pos..self.cards.len() - 1 {
            self.cards[i] = self.cards[i + 1];
        }
        self.cards.pop();
        if !self.cards[pos..].contains(&card) {
            self.kinds.remove(card);
        }
        true
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.cards.clear();
        self.kinds = CardSet::EMPTY;
    }
}

impl Deref for Hand {
    type Target = [Card];
    #[inline]
    fn deref(&self) -> &[Card] {
        &self.cards
    }
}

impl<'a> IntoIterator for &'a Hand {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;
    fn into_iter(self) -> Self::IntoIter {
        self.cards.iter()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.cards).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Face;

    fn card(s: &str) -> Card {
        s.parse().expect("a card")
    }

    #[test]
    fn kinds_follow_pushes_and_takes_of_duplicates() {
        let mut h = Hand::default();
        for c in ["R7", "B2", "R7", "W"] {
            h.push(card(c));
        }
        assert_eq!(h.kinds().len(), 3);
        assert!(h.take(card("R7")));
        assert!(h.kinds().contains(card("R7")), "one R7 is left");
        assert!(h.take(card("R7")));
        assert!(!h.kinds().contains(card("R7")));
        assert!(!h.take(card("R7")));
        assert_eq!(h.as_slice(), &[card("B2"), card("W")]);
    }

    #[test]
    fn take_removes_the_left_most_copy_and_keeps_order() {
        let mut h = Hand::from_cards(vec![card("G1"), card("Y5"), card("G1"), card("B0")]);
        assert!(h.take(card("G1")));
        assert_eq!(h.as_slice(), &[card("Y5"), card("G1"), card("B0")]);
    }

    #[test]
    fn matching_agrees_with_card_matches_for_every_top_and_colour() {
        for top in Card::all() {
            for color in Color::ALL {
                let set = CardSet::matching(top, color);
                for c in Card::all() {
                    assert_eq!(set.contains(c), c.matches(top, color), "{c} on {top} in {color}");
                }
            }
        }
    }

    #[test]
    fn nth_and_iter_walk_kinds_in_index_order() {
        let set = Hand::from_cards(vec![card("W4"), card("R0"), card("B9"), card("R0")]).kinds();
        let all: Vec<Card> = set.iter().collect();
        assert_eq!(all, vec![card("R0"), card("B9"), card("W4")]);
        for (i, c) in all.iter().enumerate() {
            assert_eq!(set.nth(i), Some(*c));
        }
        assert_eq!(set.nth(3), None);
        assert_eq!(CardSet::of_color(Color::Blue).len(), 13);
        assert_eq!(CardSet::of_face(Face::Skip.index()).len(), 4);
    }
}
