//! Determinization: dealing the cards an observer cannot see, consistently with what it sees.
//!
//! A search bot (IS-MCTS) cannot search the true game: it does not know the other hands or the
//! order of the draw pile. It searches many *possible* games instead, each dealt from what its
//! [`Observation`] allows: its own hand, the discard pile and every public count and flag stay
//! as they are; the cards it has not seen (the deck, less its hand, less the discard pile) are
//! dealt at random to the other hands, at their known sizes, and the rest is the draw pile.
//!
//! The sampled game's observation for the same viewer equals the original one, field for
//! field. What no observation shows is filled in as follows:
//!
//! * the other hands: uniformly at random from the unseen cards, each hand's cards chosen from
//!   those the hands before it left; the draw pile: the cards left over, in no order that means
//!   anything (a sampled game runs on a [`SimRng`](crate::game::SimRng), whose draws take a
//!   uniformly random card of the pile, so only the pile's cards matter, not their order);
//! * another seat deciding about a card it just drew: that card is the last of its hand (where
//!   the engine puts it), and, when the rules let a player decide only about a playable card,
//!   a playable one whenever the unseen cards have one;
//! * a pending Wild Draw Four challenge: the offender was guilty exactly when its sampled hand
//!   holds the colour that was in play before the card. That colour is the colour of the card
//!   under it, or, when that card is itself a wild (whose declared colour no observation
//!   keeps), a colour drawn at random. [`Sampler::set_wd4_guilt`] can instead draw the guilt
//!   from a prior and deal the offender's hand to agree with it;
//! * the stalemate counter starts from zero, and "something happened this turn" is true only
//!   while a drawn card is being decided about;
//! * the generator is a [`SimRng`](crate::game::SimRng) seeded from the caller's generator.
//!
//! Nothing here remembers the past: cards the viewer saw and that left the discard pile (hands
//! swapped under 7–0, a reshuffle) are unseen again, as an observation alone says. A caller
//! that remembers more can say so: [`Sampler::set_known`] fixes cards in a hand, and
//! [`Sampler::set_beliefs`] keeps card kinds out of (part of) a hand when the unseen cards
//! allow it.

use std::sync::Arc;

use rand::Rng;
use thiserror::Error;

use crate::card::{Card, Color, Seat};
use crate::game::{Game, Phase, State};
use crate::hand::{CardSet, Hand};
use crate::observation::Observation;
use crate::rules::{
    DrawRule, Exhausted, ForcedPlay, JumpIn, MultiPlay, PlayConfig, Rules, SevenZero, Stacking, TwoPlayerRule,
    WildDrawFourRule,
};

/// Why an observation cannot be dealt out under a rule set.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SampleError {
    /// More seats than a table has, or fewer than two.
    #[error("the observation has {players} players, the rules allow {min} to {max}")]
    Players {
        /// The observation's seats.
        players: usize,
        /// The fewest the rules seat.
        min: usize,
        /// The most the rules seat.
        max: usize,
    },
    /// The viewer's hand and the discard pile hold more of a card than the deck.
    #[error("the observation shows more copies of {0} than the deck holds")]
    TooManyCopies(Card),
    /// The cards the viewer has not seen are not as many as the hidden places to fill.
    #[error("{unseen} unseen cards cannot fill hidden hands and a draw pile of {needed} cards")]
    CardCount {
        /// Cards of the deck the viewer has not seen.
        unseen: usize,
        /// Hidden cards in hands and the draw pile.
        needed: usize,
    },
    /// Per-seat lists of another length than the seat count.
    #[error("the observation's per-seat lists do not have one entry per seat")]
    Malformed,
    /// Nothing on the discard pile (no game shows that).
    #[error("the observation has an empty discard pile")]
    EmptyDiscard,
}

/// What the rules ask of a dealt world beyond the observation's counts.
struct Conditions {
    /// Another seat deciding about its drawn card holds a playable one (the rules let a
    /// player decide only about a card that matches).
    drawn_must_match: bool,
    /// A drawn card that must match cannot be a Wild Draw Four its holder may not play.
    restricted_wd4: bool,
}

/// Every rule of the play section, each choice matched without a wildcard: a rule added to the
/// rule book fails to compile here until the sampler decides what it asks of a world.
fn conditions(rules: &Rules) -> Conditions {
    let PlayConfig {
        draw,
        forced_play,
        stacking,
        wild_draw_four,
        two_players,
        jump_in,
        seven_zero,
        exhausted_draw_pile,
        multi_play,
        turn_cap: _,
    } = &rules.config().play;
    let drawn_must_match = match draw {
        DrawRule::DrawOneMustPlay | DrawRule::DrawUntilPlayable => true,
        // Auto play decides at once: nobody is left deciding about a drawn card.
        DrawRule::DrawOneMayPlay | DrawRule::DrawOneEndTurn | DrawRule::DrawOneAutoPlay => false,
    };
    // A last-resort Wild Draw Four is playable only when nothing else in the hand is: never
    // drawn as the card to play, which keeps every dealt world possible.
    let restricted_wd4 = match wild_draw_four {
        WildDrawFourRule::Restricted | WildDrawFourRule::LastResort => true,
        WildDrawFourRule::Unrestricted | WildDrawFourRule::Challenge => false,
    };
    // These decide what is played, not what a hidden hand may hold: a world dealt from the
    // observation's counts is one the rules can reach. (Cards seen before a 7-0 swap or a
    // reshuffle are unseen again, as an observation alone says.)
    match forced_play {
        ForcedPlay::Optional | ForcedPlay::Required | ForcedPlay::Precedence => {}
    }
    match stacking {
        Stacking::Off | Stacking::DrawTwo | Stacking::WildDrawFour | Stacking::Both | Stacking::Cross => {}
    }
    match two_players {
        TwoPlayerRule::ReverseSkips | TwoPlayerRule::ReverseReverses => {}
    }
    match (jump_in, seven_zero) {
        (JumpIn::Off | JumpIn::On, SevenZero::Off | SevenZero::On) => {}
    }
    match (exhausted_draw_pile, multi_play) {
        (Exhausted::Reshuffle | Exhausted::NoReshuffle, MultiPlay::Off | MultiPlay::SameNumber) => {}
    }
    Conditions { drawn_must_match, restricted_wd4 }
}

/// Deals worlds for one observation, again and again, reusing its buffers: build it once per
/// decision, then call [`Sampler::sample_into`] once per search iteration.
#[derive(Clone, Debug)]
pub struct Sampler {
    rules: Arc<Rules>,
    world: State,
    viewer: Option<Seat>,
    /// The cards the viewer has not seen; each sample moves the cards it deals to the front.
    unseen: Vec<Card>,
    /// How many cards each seat holds that the viewer cannot see.
    hidden: Vec<usize>,
    /// Another seat deciding about the card it drew, and whether that card must be playable.
    drawn_by: Option<(Seat, bool)>,
    /// The offender of a pending Wild Draw Four challenge and the colour before it, if known.
    challenge: Option<(Seat, Option<Color>)>,
    guilt_prior: Option<f64>,
    /// Cards known to be in each hand (taken out of `unseen`).
    known: Vec<Vec<Card>>,
    /// Beliefs about each seat's hidden cards: `(count, kinds)` groups (see `set_beliefs`).
    groups: Vec<Vec<(usize, u64)>>,
}

impl Sampler {
    /// Prepares to deal worlds for `obs`, under the rules it carries.
    ///
    /// # Errors
    /// A [`SampleError`] when no deal of the rules' deck can give this observation.
    pub fn new(obs: &Observation) -> Result<Sampler, SampleError> {
        let rules = obs.rules.clone();
        let players = obs.players;
        if !(2..=crate::rules::MAX_PLAYERS).contains(&players) {
            return Err(SampleError::Players { players, min: rules.min_players(), max: rules.max_players() });
        }
        if obs.hand_sizes.len() != players || obs.uno_called.len() != players || obs.scores.len() != players {
            return Err(SampleError::Malformed);
        }
        if obs.discard.is_empty() {
            return Err(SampleError::EmptyDiscard);
        }
        let viewer = obs.viewer.filter(|v| v.index() < players);
        let (unseen, hidden) = unseen_and_hidden(obs, &rules, viewer)?;
        let drawn_by = match obs.phase {
            Phase::DrawnCard if Some(obs.current) != viewer && obs.hand_sizes[obs.current.index()] > 0 => {
                Some((obs.current, conditions(&rules).drawn_must_match))
            }
            _ => None,
        };
        let challenge = match obs.phase {
            Phase::Challenge { offender } if offender.index() < players => {
                let below = obs.discard.len().checked_sub(2).map(|i| obs.discard[i]);
                Some((offender, below.and_then(Card::color)))
            }
            _ => None,
        };
        let world = public_world(obs, &rules, viewer);
        Ok(Sampler {
            rules,
            world,
            viewer,
            unseen,
            hidden,
            drawn_by,
            challenge,
            guilt_prior: None,
            known: vec![Vec::new(); players],
            groups: vec![Vec::new(); players],
        })
    }

    /// The cards the viewer has not seen (their order changes with every sample).
    pub fn unseen(&self) -> &[Card] {
        &self.unseen
    }

    /// Draws a pending Wild Draw Four's guilt from `prior` (the chance the offender held the
    /// colour in play) and deals the offender a hand that agrees with it, instead of letting
    /// the uniformly dealt hand decide. A search that knows its opponents rarely bluff gets a
    /// better challenge decision from this than from uniform hands, which hold most colours.
    /// `None` goes back to uniform hands.
    pub fn set_wd4_guilt(&mut self, prior: Option<f64>) {
        self.guilt_prior = prior.map(|p| p.clamp(0.0, 1.0));
    }

    /// Fixes cards known to be in `seat`'s hand (seen in a 7–0 swap, say): every world deals
    /// them there. Replaces what was known of that seat before. Refused, changing nothing, for
    /// the viewer's own seat, for more cards than the seat holds, or for cards not unseen.
    ///
    /// # Errors
    /// A [`SampleError`] when the cards cannot be in `seat`'s hand.
    pub fn set_known(&mut self, seat: Seat, cards: &[Card]) -> Result<(), SampleError> {
        let s = seat.index();
        if s >= self.hidden.len() || Some(seat) == self.viewer || cards.len() > self.hidden[s] {
            return Err(SampleError::Malformed);
        }
        let mut pool = self.unseen.clone();
        pool.extend_from_slice(&self.known[s]);
        for &c in cards {
            let i = pool.iter().position(|&x| x == c).ok_or(SampleError::TooManyCopies(c))?;
            pool.swap_remove(i);
        }
        pool.sort();
        self.unseen = pool;
        self.known[s] = cards.to_vec();
        Ok(())
    }

    /// What is believed of `seat`'s hidden cards: groups of `(count, kinds)`, each `count`
    /// of its cards holding none of the card kinds in the mask `kinds` (bit `i` stands for
    /// `Card::from_index(i)`); say, the cards it held when it drew instead of playing. Its other
    /// hidden cards are free. A belief, not a fact: when the unseen cards cannot honour it, the
    /// groups are filled with what there is. Replaces what was believed of that seat before.
    pub fn set_beliefs(&mut self, seat: Seat, groups: &[(usize, u64)]) {
        let s = seat.index();
        if s >= self.hidden.len() || Some(seat) == self.viewer {
            return;
        }
        let mut room = self.hidden[s] - self.known[s].len();
        let g = &mut self.groups[s];
        g.clear();
        for &(count, kinds) in groups {
            let count = count.min(room);
            if count > 0 && kinds != 0 {
                g.push((count, kinds));
                room -= count;
            }
        }
        // The most restrictive groups choose first, while the pool still has what they allow.
        g.sort_by_key(|&(_, kinds)| std::cmp::Reverse(kinds.count_ones()));
    }

    /// A fresh game dealt from the observation.
    pub fn sample<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Game {
        self.deal(rng);
        Game::from_state(self.rules.clone(), &self.world, rng.gen())
    }

    /// Deals into `game` (which must run on the same rules, as one made by [`Sampler::sample`]
    /// does), reusing its buffers: the search loop's form.
    pub fn sample_into<R: Rng + ?Sized>(&mut self, rng: &mut R, game: &mut Game) {
        self.deal(rng);
        game.load_state(&self.world, rng.gen());
    }

    /// Loads the world last dealt into `game` again, its generator seeded `seed`: to play
    /// several lines from one world with the same luck (common random numbers).
    pub fn reload_into(&self, game: &mut Game, seed: u64) {
        game.load_state(&self.world, seed);
    }

    fn deal<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let (order, len) = self.deal_order();
        // The colour in play before a pending Wild Draw Four, and, when a prior decides it,
        // whether the offender held it.
        let challenge = self.challenge.map(|(offender, before)| {
            let colour = before.unwrap_or_else(|| {
                let colors = self.rules.colors();
                colors[rng.gen_range(0..colors.len())]
            });
            (offender, colour, self.guilt_prior.map(|p| rng.gen_bool(p)))
        });
        let mut next = 0usize;
        for &s in &order[..len] {
            let seat = Seat(s as u8);
            let guilt = challenge.filter(|c| c.0 == seat).map(|(_, colour, guilty)| (colour, guilty));
            next = self.deal_seat(seat, next, guilt, rng);
        }
        if let Some((o, colour, _)) = challenge.filter(|c| Some(c.0) == self.viewer) {
            // The viewer is the offender: its own hand decides.
            self.world.wd4_guilty = self.world.hands[o.index()].iter().any(|c| c.color() == Some(colour));
        }
        self.world.draw_pile.clear();
        self.world.draw_pile.extend_from_slice(&self.unseen[next..]);
    }

    /// The seats to deal, the viewer's left out: they are dealt one after the other from the
    /// front of the pool, first the ones whose hands carry a condition (a challenge's
    /// guilt, a drawn card, beliefs).
    #[inline]
    fn deal_order(&self) -> ([usize; crate::rules::MAX_PLAYERS], usize) {
        let players = self.hidden.len();
        let mut order = [usize::MAX; crate::rules::MAX_PLAYERS];
        let mut len = 0;
        let first = [self.challenge.map(|(o, _)| o.index()), self.drawn_by.map(|(d, _)| d.index())];
        for s in
            first.into_iter().flatten().chain((0..players).filter(|&s| !self.groups[s].is_empty())).chain(0..players)
        {
            if Some(Seat(s as u8)) != self.viewer && !order[..len].contains(&s) {
                order[len] = s;
                len += 1;
            }
        }
        (order, len)
    }

    /// Deals `seat`'s hidden cards from `unseen[next..]`; returns where the next seat's start.
    /// `guilt`: for the offender of a pending challenge, the colour in play before it and, when
    /// a prior decides it, whether it held that colour.
    #[inline]
    fn deal_seat<R: Rng + ?Sized>(
        &mut self,
        seat: Seat,
        mut next: usize,
        guilt: Option<(Color, Option<bool>)>,
        rng: &mut R,
    ) -> usize {
        let s = seat.index();
        let mut need = self.hidden[s] - self.known[s].len();
        // An innocent offender held no card of the colour: every group, and the free cards,
        // avoid it.
        let extra = match guilt {
            Some((colour, Some(false))) => colour_mask(colour),
            _ => 0,
        };
        let mut drawn = None;
        if let Some((d, must_match)) = self.drawn_by {
            if d == seat && must_match && need > 0 {
                drawn = self.deal_drawn(next, extra, rng);
                if drawn.is_some() {
                    next += 1;
                    need -= 1;
                }
            }
        }
        let wanted = match guilt {
            Some((colour, Some(true))) if !self.known[s].iter().any(|c| c.color() == Some(colour)) => Some(colour),
            _ => None,
        };
        self.deal_share(s, next, need, extra, wanted, rng);
        let hand = &mut self.world.hands[s];
        hand.clear();
        for &c in self.known[s].iter().chain(&self.unseen[next..next + need]) {
            hand.push(c);
        }
        next += need;
        if let Some((d, _)) = self.drawn_by {
            if d == seat {
                if let Some(c) = drawn {
                    hand.push(c);
                }
                self.world.drawn = hand.last().copied();
            }
        }
        if let Some((colour, _)) = guilt {
            self.world.wd4_guilty = hand.iter().any(|c| c.color() == Some(colour));
        }
        next
    }

    /// The card a seat drew and must be able to play: one of the playable unseen cards (none
    /// of the kinds in `extra`), at random, moved to `unseen[next]`; `None` if there is none.
    #[inline]
    fn deal_drawn<R: Rng + ?Sized>(&mut self, next: usize, extra: u64, rng: &mut R) -> Option<Card> {
        let (top, color) = (self.world.discard[self.world.discard.len() - 1], self.world.color);
        let restricted = conditions(&self.rules).restricted_wd4;
        let allowed = crate::effect::matching_plays(CardSet::ALL, top, color, restricted);
        let ok = |c: Card| allowed.contains(c) && extra & bit(c) == 0;
        let playable = self.unseen[next..].iter().filter(|&&c| ok(c)).count();
        if playable == 0 {
            return None;
        }
        let k = rng.gen_range(0..playable);
        let i = self.unseen[next..].iter().enumerate().filter(|(_, &c)| ok(c)).nth(k).map_or(0, |x| x.0);
        self.unseen.swap(next, next + i);
        Some(self.unseen[next])
    }

    /// Puts seat `s`'s `need` hidden cards at `unseen[share..share + need]`, chosen at random
    /// from `unseen[share..]`, honouring its belief groups and avoiding the kinds in `extra`.
    /// With `wanted` (a guilty offender's colour), redeals its share until it holds the colour:
    /// a hand of one card holds a given colour about a quarter of the time, so a few tries
    /// nearly always do.
    #[inline]
    fn deal_share<R: Rng + ?Sized>(
        &mut self,
        s: usize,
        share: usize,
        need: usize,
        extra: u64,
        wanted: Option<Color>,
        rng: &mut R,
    ) {
        for attempt in 0..64 {
            let mut at = share;
            let mut left = need;
            for &(count, kinds) in &self.groups[s] {
                let count = count.min(left);
                choose(&mut self.unseen[at..], count, kinds | extra, rng);
                at += count;
                left -= count;
            }
            choose(&mut self.unseen[at..], left, extra, rng);
            let ok = wanted.is_none_or(|c| self.unseen[share..share + need].iter().any(|x| x.color() == Some(c)));
            if ok || attempt == 63 {
                break;
            }
        }
    }
}

/// The cards the viewer of `obs` has not seen, in deck order, and how many cards each seat
/// holds that the viewer cannot see; refused when no deal of the rules' deck gives `obs`.
fn unseen_and_hidden(
    obs: &Observation,
    rules: &Rules,
    viewer: Option<Seat>,
) -> Result<(Vec<Card>, Vec<usize>), SampleError> {
    let mut counts = [0i32; Card::KINDS];
    for &c in rules.deck() {
        counts[c.index()] += 1;
    }
    for &c in obs.hand.iter().chain(&obs.discard) {
        counts[c.index()] -= 1;
        if counts[c.index()] < 0 {
            return Err(SampleError::TooManyCopies(c));
        }
    }
    let unseen: Vec<Card> = Card::all().flat_map(|c| std::iter::repeat_n(c, counts[c.index()] as usize)).collect();
    let hidden: Vec<usize> =
        (0..obs.players).map(|s| if Some(Seat(s as u8)) == viewer { 0 } else { obs.hand_sizes[s] }).collect();
    let needed = hidden.iter().sum::<usize>() + obs.draw_pile_size;
    if needed != unseen.len() {
        return Err(SampleError::CardCount { unseen: unseen.len(), needed });
    }
    if viewer.is_some_and(|v| obs.hand.len() != obs.hand_sizes[v.index()]) {
        return Err(SampleError::Malformed);
    }
    Ok((unseen, hidden))
}

/// The world as `obs` shows it: the public state and the viewer's own hand; the other hands and
/// the draw pile are left for each deal.
fn public_world(obs: &Observation, rules: &Rules, viewer: Option<Seat>) -> State {
    let mut hands = vec![Hand::default(); obs.players];
    if let Some(v) = viewer {
        hands[v.index()] = Hand::from_cards(obs.hand.clone());
    }
    let round_winner = match obs.phase {
        Phase::RoundOver | Phase::GameOver => match &obs.outcome {
            Some(o) => o.winner,
            None => obs.hand_sizes.iter().position(|&n| n == 0).map(|s| Seat(s as u8)),
        },
        _ => None,
    };
    State {
        players: obs.players,
        hands,
        draw_pile: Vec::with_capacity(obs.draw_pile_size),
        discard: obs.discard.clone(),
        color: obs.color.unwrap_or(rules.colors()[0]),
        current: obs.current,
        direction: obs.direction,
        dealer: obs.dealer,
        phase: obs.phase,
        pending: obs.pending_draw,
        drawn: if Some(obs.current) == viewer { obs.drawn_card } else { None },
        wd4_guilty: false,
        uno_called: obs.uno_called.iter().enumerate().fold(0u32, |m, (s, &c)| m | (u32::from(c) << s)),
        uno_exposed: obs.uno_exposed,
        acted: matches!(obs.phase, Phase::DrawnCard | Phase::SameNumber),
        dead_turns: 0,
        turns: obs.turns,
        round: obs.round,
        scores: obs.scores.clone(),
        round_winner,
        outcome: obs.outcome.clone(),
    }
}

fn bit(card: Card) -> u64 {
    1u64 << card.index()
}

/// The card kinds of one colour, as a mask.
fn colour_mask(colour: Color) -> u64 {
    Card::all().filter(|c| c.color() == Some(colour)).fold(0, |m, c| m | bit(c))
}

/// Moves to the front of `pool` `n` of its cards outside `mask`, chosen uniformly at random,
/// then, if there are not enough of them, as many of the others, chosen the same way: a
/// belief gives way to the cards there are. Only the cards chosen get random numbers, not the
/// whole pool: what is left behind is chosen from by the next call, or is the draw pile.
fn choose<R: Rng + ?Sized>(pool: &mut [Card], n: usize, mask: u64, rng: &mut R) {
    let n = n.min(pool.len());
    if mask == 0 {
        pick_front(pool, n, rng);
        return;
    }
    // A belief keeps a few kinds out, so a random card of the rest is nearly always allowed:
    // draw one, and draw again when it is not (still uniform over the allowed ones). A run of
    // misses means few are allowed, and one pass over the rest settles it.
    let len = pool.len();
    let (mut k, mut misses) = (0, 0);
    while k < n {
        let j = k + rng.gen_range(0..(len - k) as u32) as usize;
        if mask & bit(pool[j]) == 0 {
            pool.swap(k, j);
            k += 1;
            misses = 0;
        } else if misses == 8 {
            choose_by_pass(&mut pool[k..], n - k, mask, rng);
            return;
        } else {
            misses += 1;
        }
    }
}

/// [`choose`] by one pass over the pool: the allowed cards to the front, then the choice.
fn choose_by_pass<R: Rng + ?Sized>(pool: &mut [Card], n: usize, mask: u64, rng: &mut R) {
    // Whether a card is allowed is a coin toss to the branch predictor, so both stores are
    // made either way (a card swapped with itself when it stays).
    let mut allowed = 0;
    for i in 0..pool.len() {
        let (here, front) = (pool[i], pool[allowed]);
        let ok = mask & bit(here) == 0;
        pool[allowed] = if ok { here } else { front };
        pool[i] = if ok { front } else { here };
        allowed += usize::from(ok);
    }
    if allowed >= n {
        pick_front(&mut pool[..allowed], n, rng);
    } else {
        // Every allowed card, in random order (a hand's order matters to some rules and
        // bots), then the others chosen.
        pick_front(&mut pool[..allowed], allowed, rng);
        pick_front(&mut pool[allowed..], n - allowed, rng);
    }
}

/// The first `n` steps of Fisher–Yates from the front: `pool[..n]` becomes a uniformly random
/// choice of `n` of its cards, in random order.
fn pick_front<R: Rng + ?Sized>(pool: &mut [Card], n: usize, rng: &mut R) {
    let len = pool.len();
    for k in 0..n.min(len.saturating_sub(1)) {
        let j = k + rng.gen_range(0..(len - k) as u32) as usize;
        pool.swap(k, j);
    }
}

impl Observation {
    /// One world consistent with this observation (see the module docs): a game whose
    /// observation for the same viewer is this one.
    ///
    /// # Errors
    /// As [`Sampler::new`].
    pub fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Game, SampleError> {
        Ok(Sampler::new(self)?.sample(rng))
    }
}
