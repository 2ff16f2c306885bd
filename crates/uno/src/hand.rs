//! A player's hand, and sets of card kinds.
//!
//! A hand keeps its cards in the order they arrived (seed 000 plays "the left-most card", seeds
//! 002 and 004 print hands in order) and, beside them, the set of kinds it holds, so that "which
//! of my cards can go on this pile" is one AND of two 64-bit masks instead of a scan.

use std::fmt;
use std::ops::Deref;

use crate::card::{Card, Color};

/// [`CardSet::matching`] for every top card index (64, the last ten beyond the deck) and
/// colour index: what a turn reads instead of recomputing the rule.
const MATCHING: [u64; 64 * 4] = {
    let mut t = [0u64; 64 * 4];
    let mut i = 0;
    while i < 64 * 4 {
        t[i] = if i / 4 < Card::KINDS { CardSet::matching_rule(i / 4, i % 4) } else { CardSet::WILDS.0 };
        i += 1;
    }
    t
};

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
    /// Read from a table made once, at compile time ([`CardSet::matching_by_index`]).
    #[inline]
    pub const fn matching(top: Card, color: Color) -> CardSet {
        CardSet::matching_by_index(top.index(), color.index())
    }

    /// [`CardSet::matching`] by the card's and the colour's indices, as compact states keep
    /// them (a card index as a byte): the one matching table, which the engine and the
    /// simulation kernel both read. Indices are masked to 6 and 2 bits, so the lookup needs
    /// no bounds check; past `Card::KINDS` it answers the wilds alone.
    #[inline]
    pub const fn matching_by_index(top: usize, color: usize) -> CardSet {
        CardSet(MATCHING[(top & 63) * 4 + (color & 3)])
    }

    /// The matching rule itself, written out: the colour in play, the top card's face (none
    /// for a wild), the wilds.
    const fn matching_rule(top: usize, color: usize) -> u64 {
        let face = if top >= 52 { 0 } else { CardSet::of_face(top % 13).0 };
        (0x1FFF << (13 * color as u32)) | face | CardSet::WILDS.0
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
    /// The kinds in either set.
    #[inline]
    pub const fn or(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
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

/// The cards one player holds, in the order they arrived, with the set of kinds and the count
/// of each kind beside them.
///
/// The order is the rules' (seed 000's "left-most card") and what every view, position and
/// record shows, so it is kept; what the hot path asks ("which kinds do I hold", "how many of
/// this one", "take the left-most copy") costs no scan of the hand: the kinds and counts answer
/// the first two, and a removal finds and closes the gap eight cards at a time, as 64-bit
/// words (`take`), without a branch on where the card was for hands of up to eight cards.
#[derive(Clone)]
pub struct Hand {
    /// The cards, left-most first, then padding to a multiple of [`LANE`] cards: only the
    /// first `len` are the hand. The padding holds valid cards, so a word read past `len`
    /// is harmless.
    cards: Vec<Card>,
    len: usize,
    kinds: CardSet,
    /// How many copies of each kind the hand holds, by [`Card::index`]; 64 wide (the last ten
    /// always 0) so an index masked to six bits needs no bounds check on a push or a take.
    counts: [u8; 64],
}

/// Cards in one 64-bit word of a hand.
const LANE: usize = 8;
/// One in each byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The top bit of each byte.
const HIGHS: u64 = 0x8080_8080_8080_8080;

impl Default for Hand {
    fn default() -> Hand {
        Hand { cards: Vec::new(), len: 0, kinds: CardSet::EMPTY, counts: [0; 64] }
    }
}

impl PartialEq for Hand {
    fn eq(&self, other: &Hand) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Hand {}

impl Hand {
    /// An empty hand with room for `n` cards before it reallocates.
    pub fn with_capacity(n: usize) -> Hand {
        Hand { cards: Vec::with_capacity(n.next_multiple_of(LANE)), ..Hand::default() }
    }

    /// A hand holding `cards`, the first being the left-most (the first to have arrived).
    pub fn from_cards(cards: Vec<Card>) -> Hand {
        let mut hand = Hand::with_capacity(cards.len());
        for c in cards {
            hand.push(c);
        }
        hand
    }

    /// The kinds this hand holds.
    #[inline]
    pub fn kinds(&self) -> CardSet {
        self.kinds
    }

    /// How many copies of `card` the hand holds.
    #[inline]
    pub fn count(&self, card: Card) -> usize {
        usize::from(self.counts[card.index() & 63])
    }

    /// How many copies of each kind the hand holds, by [`Card::index`].
    #[inline]
    pub fn counts(&self) -> &[u8; Card::KINDS] {
        // Always there: the table is 64 wide.
        self.counts.first_chunk().unwrap_or(&[0; Card::KINDS])
    }

    /// How many cards the hand holds: the count kept beside the cards, read without going
    /// through the slice (which would check it against the buffer first).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the hand holds no card.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cards, left-most (oldest) first; also reachable through `Deref`.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len]
    }

    /// Adds a card at the back (the right-most place).
    #[inline]
    pub(crate) fn push(&mut self, card: Card) {
        // One test: the place past the last card is in the buffer, or the buffer grows.
        match self.cards.get_mut(self.len) {
            Some(slot) => *slot = card,
            None => self.grow(card),
        }
        self.len += 1;
        self.kinds.insert(card);
        self.counts[card.index() & 63] += 1;
    }

    /// The buffer is full: room for a word of cards more, `card` first.
    #[cold]
    fn grow(&mut self, card: Card) {
        self.cards.truncate(self.len);
        self.cards.push(card);
        self.cards.extend_from_slice(&[Card::WILD; LANE - 1]);
    }

    /// Takes out the left-most copy of `card`; false if the hand has none.
    #[inline]
    pub(crate) fn take(&mut self, card: Card) -> bool {
        if !self.kinds.contains(card) {
            return false;
        }
        // The hand as words of eight cards, the first in the lowest byte; the padding past
        // `len` (valid cards) fills the last one.
        let word = |c: &[Card; LANE]| u64::from_le_bytes(c.map(|c| c.index() as u8));
        let cards = |w: u64| w.to_le_bytes().map(Card::from_byte);
        let wanted = ONES * card.index() as u64;
        // The card's byte in a word: a zero byte of `word ^ wanted`, the lowest one found
        // exactly by the borrow trick; its top bit is set in the answer (0: not in the word).
        let found = |w: u64| {
            let x = w ^ wanted;
            x.wrapping_sub(ONES) & !x & HIGHS
        };
        // The word with that byte taken out: the bytes above it move down one (the top byte
        // becomes card 0), the bytes below it stay.
        let closed = |w: u64, zero: u64| {
            let keep = ((zero & zero.wrapping_neg()) >> 7).wrapping_sub(1);
            (w & keep) | ((w >> 8) & !keep)
        };
        let (chunks, _) = self.cards.as_chunks_mut::<LANE>();
        if self.len <= LANE {
            // The common hand, one word: no search for the word, nothing to carry.
            let Some(c) = chunks.first_mut() else {
                return false;
            };
            let first = word(c);
            let zero = found(first);
            debug_assert!(zero != 0, "the kinds hold {card}, so one of the first {} cards is it", self.len);
            *c = cards(closed(first, zero));
            self.forget(card);
            return true;
        }
        let words = self.len.div_ceil(LANE);
        let Some(chunks) = chunks.get_mut(..words) else {
            return false;
        };
        // The first word holding the card. The kinds say the hand holds it, so it is found
        // before the padding.
        let mut w = 0;
        let (first, zero) = loop {
            let Some(c) = chunks.get(w) else {
                return false;
            };
            let first = word(c);
            let zero = found(first);
            if zero != 0 {
                break (first, zero);
            }
            w += 1;
        };
        // Close the gap: each later word's first card moves into the word before (the last
        // word's top byte becomes card 0, padding).
        let mut low = closed(first, zero);
        for i in w + 1..words {
            let next = word(&chunks[i]);
            chunks[i - 1] = cards(low | (next << 56));
            low = next >> 8;
        }
        chunks[words - 1] = cards(low);
        self.forget(card);
        true
    }

    /// The count, the kinds and the length after one copy of `card` left the cards.
    #[inline(always)]
    fn forget(&mut self, card: Card) {
        self.len -= 1;
        let count = &mut self.counts[card.index() & 63];
        *count -= 1;
        if *count == 0 {
            self.kinds.remove(card);
        }
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.kinds = CardSet::EMPTY;
        self.counts = [0; 64];
    }

    /// Becomes a copy of `other`, reusing this hand's buffer.
    #[inline]
    pub(crate) fn copy_from(&mut self, other: &Hand) {
        self.cards.clear();
        self.cards.extend_from_slice(&other.cards);
        self.len = other.len;
        self.kinds = other.kinds;
        self.counts = other.counts;
    }
}

impl Deref for Hand {
    type Target = [Card];
    #[inline]
    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Hand {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
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

    /// `take` against the plain list it stands for: the left-most copy out, the order kept,
    /// kinds and counts following, over hands long enough to span several words.
    #[test]
    fn take_agrees_with_removing_from_a_list() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for _ in 0..2_000 {
            let mut hand = Hand::default();
            let mut list: Vec<Card> = Vec::new();
            for _ in 0..next(40) {
                // Few kinds, so copies are common.
                let c = Card::from_index(next(6) as usize * 9 + 1).expect("a card");
                if next(3) == 0 && !list.is_empty() {
                    let victim = list[next(list.len() as u64) as usize];
                    let pos = list.iter().position(|&x| x == victim).expect("held");
                    list.remove(pos);
                    assert!(hand.take(victim));
                } else {
                    list.push(c);
                    hand.push(c);
                }
                assert_eq!(hand.as_slice(), list.as_slice());
                for k in Card::all() {
                    let n = list.iter().filter(|&&x| x == k).count();
                    assert_eq!(hand.count(k), n);
                    assert_eq!(hand.kinds().contains(k), n > 0);
                }
            }
            let mut copy = Hand::with_capacity(3);
            copy.copy_from(&hand);
            assert_eq!(copy, hand);
            assert_eq!(Hand::from_cards(list.clone()), hand);
        }
    }

    /// The table says what the matching rule says: a wild, a card of the colour in play, or
    /// a card of the top card's face (a wild on top matches by colour alone).
    #[test]
    fn the_matching_table_is_the_matching_rule() {
        for top in Card::all() {
            for color in Color::ALL {
                for c in Card::all() {
                    let rule = c.is_wild()
                        || c.color() == Some(color)
                        || (!top.is_wild() && c.face_index() == top.face_index());
                    assert_eq!(CardSet::matching(top, color).contains(c), rule, "{c} on {top} in {color}");
                }
            }
        }
        assert_eq!(CardSet::matching_by_index(60, 1), CardSet::WILDS);
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
