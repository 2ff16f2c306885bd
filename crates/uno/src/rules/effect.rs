//! What each card does under one rule set, and how the turn moves round the table.
//!
//! [`Rules::new`](crate::Rules::new) derives a [`CardEffect`] for every card kind once (one
//! table for two players, one for more, since a Reverse between two players may act as a
//! Skip). The engine, the simulation kernel, IS-MCTS inference and the seed checkers all read
//! these tables and [`next_seat`]; none of them decides on its own what a card does.

use crate::card::{Card, Color, Direction, Face};
use crate::hand::CardSet;
use crate::rules::{FirstCard, MultiPlay, SevenZero, Stacking, TwoPlayerRule, WildDrawFourRule};

/// What playing one card kind does, under one rule set and table size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardEffect {
    /// Players skipped after the turn.
    pub skip: u8,
    /// Whether play changes direction.
    pub flip: bool,
    /// Cards the card adds to the draw penalty.
    pub penalty: u8,
    /// Whether the penalty stays pending for the next player to answer (stacking, or a Wild
    /// Draw Four challenge) instead of being drawn by the next player at once.
    pub stacks: bool,
    /// A Wild Draw Four under the challenge rule: the next player may challenge it first.
    pub challenge: bool,
    /// Under the challenge rule: the cards a challenger who loses draws on top of the penalty
    /// (the official rules' "draws 6": the 4, and 2 more).
    pub challenge_lost: u8,
    /// Cards the next player draws when this card empties its player's hand (they score).
    pub out_draw: u8,
    /// What a number card does under the house rules that give number cards an effect (one
    /// byte, so a play of any other card tests it once).
    pub number: NumberEffect,
    /// What the card does when it is turned up as the round's first card.
    pub first: FirstEffect,
    /// Whether the first-card rule sends this card back into the deck when it is turned up.
    pub first_refused: bool,
}

/// A number card's effect under a house rule: at most one applies to a card (the 7–0 rule's
/// 7 and 0 act at once, so no run of the same number follows them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NumberEffect {
    /// None: an action card, a wild, or a number card without such a rule.
    #[default]
    None,
    /// Under the same-number rule: its player may go on playing cards of the same number
    /// before passing.
    SameNumber,
    /// Under the 7–0 rule: the player chooses a hand to swap with.
    Swap,
    /// Under the 7–0 rule: every hand passes one seat on in the direction of play.
    Rotate,
}

/// What may be stacked on one card kind while the penalty it asked for is pending: the
/// stacking rule, card by card. Kept apart from [`CardEffect`], which every play copies: 12
/// bytes without these two sets instead of 32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StackedBy {
    /// The kinds that may be stacked whatever the colour in play (empty for a card that asks
    /// for no penalty).
    pub any: CardSet,
    /// The kinds that may be stacked when they are of the colour in play (`cross` stacking: a
    /// Draw Two on a Wild Draw Four).
    pub in_colour: CardSet,
}

/// What the first card turned up does to the start of the round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FirstEffect {
    /// Nothing: the first player plays on it.
    #[default]
    None,
    /// A wild: the first player names the colour.
    ChooseColor,
    /// A wild: its colour is drawn at random (RLCard's first card).
    RandomColor,
    /// The first player is skipped.
    Skip,
    /// The dealer plays first and play goes the other way.
    Reverse,
    /// The first player draws two and is skipped.
    DrawTwo,
    /// The first player draws two and still plays (RLCard's first card).
    DrawTwoThenPlay,
}

/// The effect tables of one rule set: `[more than two players, two players]`, by card index.
pub(crate) type EffectTables = [[CardEffect; Card::KINDS]; 2];

/// Derives every card kind's effect, and what may be stacked on it (the same at every table
/// size), from the rule choices that decide them.
pub(crate) fn derive(
    first_card: FirstCard,
    stacking: Stacking,
    wild_draw_four: WildDrawFourRule,
    two_players: TwoPlayerRule,
    seven_zero: SevenZero,
    multi_play: MultiPlay,
) -> (EffectTables, [StackedBy; Card::KINDS]) {
    let stacks_d2 = matches!(stacking, Stacking::DrawTwo | Stacking::Both | Stacking::Cross);
    let stacks_wd4 = matches!(stacking, Stacking::WildDrawFour | Stacking::Both | Stacking::Cross);
    let challenge = wild_draw_four == WildDrawFourRule::Challenge;
    let seven_zero = seven_zero == SevenZero::On;
    let first_acts = matches!(first_card, FirstCard::Official | FirstCard::RedrawWilds | FirstCard::Rlcard);
    let rlcard_first = first_card == FirstCard::Rlcard;
    let draw_twos = Card::all().filter(|c| c.face() == Face::DrawTwo).fold(CardSet::EMPTY, |mut set, c| {
        set.insert(c);
        set
    });
    let wd4 = CardSet::single(Card::WILD_DRAW_FOUR);
    // What may go on a pending penalty, by the card it was asked by (written once, read by the
    // engine's legality and every model of it).
    let stacked_by = |card: Card| -> StackedBy {
        let is_d2 = card.face() == Face::DrawTwo;
        let is_wd4 = card == Card::WILD_DRAW_FOUR;
        let same = |on: bool, kinds: CardSet| if on { kinds } else { CardSet::EMPTY };
        let (any, in_colour) = match stacking {
            Stacking::Off => (CardSet::EMPTY, CardSet::EMPTY),
            Stacking::DrawTwo => (same(is_d2, draw_twos), CardSet::EMPTY),
            Stacking::WildDrawFour => (same(is_wd4, wd4), CardSet::EMPTY),
            Stacking::Both => (same(is_d2, draw_twos).or(same(is_wd4, wd4)), CardSet::EMPTY),
            // Any Wild Draw Four on either; a Draw Two on a Draw Two, or of the colour in play.
            Stacking::Cross => (wd4.or(same(is_d2, draw_twos)), draw_twos),
        };
        StackedBy { any, in_colour }
    };
    let mut tables = [[CardEffect::default(); Card::KINDS]; 2];
    for (two, table) in tables.iter_mut().enumerate() {
        let reverse_skips = two == 1 && two_players == TwoPlayerRule::ReverseSkips;
        for card in Card::all() {
            let plain = CardEffect::default();
            let mut e = match card.face() {
                Face::Digit(7) if seven_zero => CardEffect { number: NumberEffect::Swap, ..plain },
                Face::Digit(0) if seven_zero => CardEffect { number: NumberEffect::Rotate, ..plain },
                // A 7 or 0 that swaps or rotates hands acts at once and ends the turn.
                Face::Digit(_) if multi_play == MultiPlay::SameNumber => {
                    CardEffect { number: NumberEffect::SameNumber, ..plain }
                }
                Face::Digit(_) => plain,
                Face::Wild => plain,
                Face::Skip => CardEffect { skip: 1, first: FirstEffect::Skip, ..plain },
                Face::Reverse if reverse_skips => CardEffect { skip: 1, first: FirstEffect::Skip, ..plain },
                Face::Reverse => CardEffect { flip: true, first: FirstEffect::Reverse, ..plain },
                Face::DrawTwo => CardEffect {
                    skip: u8::from(!stacks_d2),
                    penalty: 2,
                    stacks: stacks_d2,
                    out_draw: 2,
                    first: FirstEffect::DrawTwo,
                    ..plain
                },
                Face::WildDrawFour => {
                    let stacks = challenge || stacks_wd4;
                    let challenge_lost = if challenge { 2 } else { 0 };
                    CardEffect {
                        skip: u8::from(!stacks),
                        penalty: 4,
                        stacks,
                        challenge,
                        challenge_lost,
                        out_draw: 4,
                        ..plain
                    }
                }
            };
            if !first_acts {
                e.first = FirstEffect::None;
            }
            if card.is_wild() {
                e.first = if rlcard_first { FirstEffect::RandomColor } else { FirstEffect::ChooseColor };
            }
            if rlcard_first && e.first == FirstEffect::DrawTwo {
                e.first = FirstEffect::DrawTwoThenPlay;
            }
            e.first_refused = match first_card {
                FirstCard::Official | FirstCard::Rlcard => card == Card::WILD_DRAW_FOUR,
                FirstCard::RedrawUntilNumber => !matches!(card.face(), Face::Digit(_)),
                FirstCard::NoEffect => false,
                FirstCard::RedrawWilds => card.is_wild(),
            };
            table[card.index()] = e;
        }
    }
    let stacking = Card::all().fold([StackedBy::default(); Card::KINDS], |mut t, card| {
        t[card.index()] = stacked_by(card);
        t
    });
    (tables, stacking)
}

/// The seat `steps` places after `seat` in `direction`, at a table of `players` seats.
///
/// The one place the turn's arithmetic lives. Written without a division on the common path
/// (`steps < players`), since the simulators call it on every turn.
#[inline]
pub fn next_seat(seat: usize, direction: Direction, players: usize, steps: usize) -> usize {
    let steps = if steps >= players { steps % players } else { steps };
    let forward = match direction {
        Direction::Clockwise => steps,
        Direction::CounterClockwise => players - steps,
    };
    let s = seat + forward;
    if s >= players {
        s - players
    } else {
        s
    }
}

impl crate::card::Seat {
    /// The seat `steps` places after this one in `direction`, at a table of `players` seats:
    /// [`next_seat`] for seats, the one way code outside the engine counts round a table.
    #[inline]
    pub fn step(self, direction: Direction, players: usize, steps: usize) -> crate::card::Seat {
        crate::card::Seat(next_seat(self.index(), direction, players.max(1), steps) as u8)
    }
}

/// The kinds of `held` that may go on `top` with `color` in play, no penalty pending: those
/// of the colour or of the top card's face, and the wilds, less the Wild Draw Four when
/// `wd4_refused` (the restricted rule, its player holding `color`).
///
/// The one matching rule: [`Game::playable`](crate::Game::playable) asks it, and so do the
/// bots' models of past positions and the sampler. The simulation kernel reads the same table
/// ([`CardSet::matching_by_index`]) and applies the restricted Wild Draw
/// Four as `Game::playable` does; `uno-lab/tests/kernel.rs` proves it plays the engine's games.
#[inline]
pub fn matching_plays(held: CardSet, top: Card, color: Color, wd4_refused: bool) -> CardSet {
    let mut set = held.and(CardSet::matching(top, color));
    if wd4_refused {
        set.remove(Card::WILD_DRAW_FOUR);
    }
    set
}

/// The kinds of `held` that may be stacked on a pending penalty asked by a card whose
/// [`StackedBy`] is `on` (the top card's), with `color` in play: the one stacking rule, read
/// from the tables.
#[inline]
pub fn stackable(held: CardSet, on: StackedBy, color: Color) -> CardSet {
    held.and(on.any.or(on.in_colour.and(CardSet::of_color(color))))
}

/// Whether a seat may call UNO for itself: it has not called yet, and either it is on its
/// own turn (`own_turn`: its `Play` or drawn-card decision) with two cards or fewer, or it
/// is exposed (down to one card uncalled, before anyone caught it).
///
/// The one answer to "may this seat call UNO"; whether the rules have UNO calls at all is
/// the caller's first question.
#[inline]
pub fn may_call_uno(called: bool, own_turn: bool, hand_len: usize, exposed: bool) -> bool {
    !called && ((own_turn && hand_len <= 2) || exposed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_seat_agrees_with_modular_arithmetic() {
        for n in 2..=10 {
            for seat in 0..n {
                for steps in 0..=25 {
                    assert_eq!(next_seat(seat, Direction::Clockwise, n, steps), (seat + steps) % n);
                    assert_eq!(
                        next_seat(seat, Direction::CounterClockwise, n, steps),
                        (seat + n * (steps / n + 1) - steps) % n
                    );
                }
            }
        }
    }

    #[test]
    fn the_official_tables_say_what_the_cards_do() {
        let (t, _) = derive(
            FirstCard::Official,
            Stacking::Off,
            WildDrawFourRule::Challenge,
            TwoPlayerRule::ReverseSkips,
            SevenZero::Off,
            MultiPlay::Off,
        );
        let reverse = Card::all().find(|c| c.face() == Face::Reverse).map(|c| c.index()).unwrap_or(0);
        assert!(t[0][reverse].flip);
        assert_eq!((t[1][reverse].flip, t[1][reverse].skip), (false, 1));
        let wd4 = t[0][Card::WILD_DRAW_FOUR.index()];
        assert!(wd4.challenge && wd4.stacks && wd4.penalty == 4 && wd4.skip == 0 && wd4.first_refused);
        assert_eq!(t[0][Card::WILD.index()].first, FirstEffect::ChooseColor);
        let d2 = Card::all().find(|c| c.face() == Face::DrawTwo).map(|c| c.index()).unwrap_or(0);
        assert_eq!((t[0][d2].skip, t[0][d2].penalty, t[0][d2].stacks), (1, 2, false));
        let (stacked, _) = derive(
            FirstCard::NoEffect,
            Stacking::Both,
            WildDrawFourRule::Unrestricted,
            TwoPlayerRule::ReverseReverses,
            SevenZero::On,
            MultiPlay::SameNumber,
        );
        assert_eq!((stacked[0][d2].skip, stacked[0][d2].stacks), (0, true));
        assert!(stacked[1][reverse].flip);
        assert_eq!(stacked[0][reverse].first, FirstEffect::None);
        assert!(stacked[0].iter().filter(|e| e.number == NumberEffect::Swap).count() >= 4);
        assert!(stacked[0].iter().filter(|e| e.number == NumberEffect::Rotate).count() >= 4);
        // Under 7-0 a 7 or a 0 acts on the hands and ends the turn: it does not start a run.
        let runs = |face: u8| {
            stacked[0]
                .iter()
                .zip(Card::all())
                .any(|(e, c)| c.face() == Face::Digit(face) && e.number == NumberEffect::SameNumber)
        };
        assert!(runs(5) && !runs(7) && !runs(0));
        assert!(t[0].iter().all(|e| e.number == NumberEffect::None), "off in the official rules");
    }

    /// The stacking rule as `Stacking` states it, card by card, against the tables' sets.
    #[test]
    fn the_tables_stack_what_each_stacking_rule_says() {
        for stacking in [Stacking::Off, Stacking::DrawTwo, Stacking::WildDrawFour, Stacking::Both, Stacking::Cross] {
            let (e, t) = derive(
                FirstCard::Official,
                stacking,
                WildDrawFourRule::Challenge,
                TwoPlayerRule::ReverseSkips,
                SevenZero::Off,
                MultiPlay::Off,
            );
            for top in Card::all() {
                for color in Color::ALL {
                    let set = stackable(CardSet::ALL, t[top.index()], color);
                    for card in Card::all() {
                        let (d2, wd4) = (card.face() == Face::DrawTwo, card == Card::WILD_DRAW_FOUR);
                        let (top_d2, top_wd4) = (top.face() == Face::DrawTwo, top == Card::WILD_DRAW_FOUR);
                        let stated = match stacking {
                            Stacking::Off => false,
                            Stacking::DrawTwo => d2 && top_d2,
                            Stacking::WildDrawFour => wd4 && top_wd4,
                            Stacking::Both => (d2 && top_d2) || (wd4 && top_wd4),
                            Stacking::Cross => wd4 || (d2 && (top_d2 || card.color() == Some(color))),
                        };
                        assert_eq!(set.contains(card), stated, "{stacking:?}: {card} on {top} in {color:?}");
                    }
                }
            }
            let wd4 = e[0][Card::WILD_DRAW_FOUR.index()];
            assert_eq!(wd4.challenge_lost, 2, "the official rules' challenger draws 6");
        }
    }

    #[test]
    fn rlcards_first_card_draws_a_wilds_colour_and_lets_a_draw_two_victim_play() {
        let (t, _) = derive(
            FirstCard::Rlcard,
            Stacking::Off,
            WildDrawFourRule::LastResort,
            TwoPlayerRule::ReverseReverses,
            SevenZero::Off,
            MultiPlay::Off,
        );
        let find = |face: Face| Card::all().find(|c| c.face() == face).map(|c| c.index()).unwrap_or(0);
        for table in &t {
            assert_eq!(table[Card::WILD.index()].first, FirstEffect::RandomColor);
            assert!(table[Card::WILD_DRAW_FOUR.index()].first_refused);
            assert!(!table[Card::WILD.index()].first_refused);
            assert_eq!(table[find(Face::DrawTwo)].first, FirstEffect::DrawTwoThenPlay);
            assert_eq!(table[find(Face::Skip)].first, FirstEffect::Skip);
            assert_eq!(table[find(Face::Reverse)].first, FirstEffect::Reverse);
        }
        // Its Wild Draw Four is never challenged: the next player draws 4 at once.
        let wd4 = t[0][Card::WILD_DRAW_FOUR.index()];
        assert!(!wd4.challenge && !wd4.stacks && wd4.penalty == 4 && wd4.skip == 1);
        // Between two players a Reverse only reverses (so the other player is next).
        assert!(t[1][find(Face::Reverse)].flip && t[1][find(Face::Reverse)].skip == 0);
    }

    #[test]
    fn may_call_uno_needs_a_reason_and_no_earlier_call() {
        assert!(may_call_uno(false, true, 2, false));
        assert!(!may_call_uno(false, true, 3, false));
        assert!(may_call_uno(false, false, 1, true));
        assert!(!may_call_uno(true, true, 1, true));
        assert!(!may_call_uno(false, false, 2, false));
    }
}
