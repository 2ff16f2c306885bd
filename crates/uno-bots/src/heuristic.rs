//! `heuristic`: how a good casual player plays, as a handful of weighted rules of thumb.
//!
//! Every card it could play gets a score, and the best one is played:
//!
//! * **keep wilds for emergencies**: a Wild or Wild Draw Four costs so much that it is played
//!   only when no other card can be, the emergency it is kept for; with two cards left, a wild
//!   is kept as the last card (it can always be played);
//! * **stay in your colour**: a card scores for every card of the colour it leaves in play that
//!   stays in the hand, so the next turns have something to play;
//! * **punish a player about to go out**: when the next player has one or two cards, a Skip, a
//!   Draw Two, a Wild Draw Four (or, with three or more players, a Reverse that does not hand
//!   the turn to another such player) earns a bonus;
//! * **dump high-point cards when it counts**: while an opponent is about to go out, a card
//!   scores its point value, so what would cost the most leaves first (dumping them earlier
//!   measured worse: it spends the action cards the attacks need);
//! * **no cheap bluffs**: a Wild Draw Four played while holding the colour in play costs extra,
//!   as the next player may challenge it.
//! * **runs** (same-number house rule): every card of the number goes, a card fewer being a
//!   turn nearer going out; the one that scores best goes last, as it leaves the colour in play.
//!
//! A wild names the colour the hand holds most of (ties: the one worth more points, then the
//! rules' order). It calls UNO for itself, catches any player who forgot to, stacks a pending
//! penalty when it can, and draws only when it cannot play. A drawn card that can be played is
//! played, except a wild while the hand is bigger than [`HeuristicConfig::play_drawn_wild_at`]
//! (or a Wild Draw Four that would be a bluff). It challenges a Wild Draw Four when the chance
//! that the offender held the colour that was in play is at least
//! [`HeuristicConfig::challenge_threshold`]: the chance that a hand of the offender's size,
//! dealt from the cards the bot has not seen, holds one of that colour's unseen cards
//! (hypergeometric).
//!
//! It sees only what an observation shows, so it does not know the rules: it values cards as
//! the official rules do and assumes the official deck when counting unseen cards. It has no
//! randomness: the seed is accepted for uniformity. The default weights were tuned against
//! `random` and against itself (see `docs/bots.md`).

use serde::{Deserialize, Serialize};
use uno::game::{TurnPolicy, View};
use uno::rules::MAX_DECK_CARDS;
use uno::{Action, Card, CardSet, Color, Face, Game, Observation, Phase, Seat};

use crate::any_view::AnyViewExt;
use crate::Bot;

/// The weights of the heuristic (scores are in card points).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HeuristicConfig {
    /// Score per point of the card played, always.
    pub points: f64,
    /// Further score per point of the card played while an opponent is about to go out: then
    /// the cards that would cost the most are dumped first.
    pub points_under_threat: f64,
    /// Score per card of the resulting colour still in hand after the play.
    pub colour_depth: f64,
    /// Cost of spending a Skip, Reverse or Draw Two: they are worth more later, against a
    /// player about to go out.
    pub keep_action: f64,
    /// Cost of spending a Wild: large enough that a wild is the last resort, played only when
    /// nothing else can be (the emergency it is kept for).
    pub keep_wild: f64,
    /// Cost of spending a Wild Draw Four (an attack on a threatening player can outweigh it).
    pub keep_wild_draw_four: f64,
    /// Play a drawn wild at once when the hand (the drawn card included) has at most this many
    /// cards; otherwise keep it for later.
    pub play_drawn_wild_at: usize,
    /// Bonus for keeping a wild as the last card when going down to one.
    pub last_card_wild: f64,
    /// A player with this many cards or fewer is about to go out: a threat.
    pub threat_cards: usize,
    /// Bonus for a Skip (or a Reverse that passes the turn away) against a threatening next player.
    pub attack_skip: f64,
    /// Bonus for a Draw Two against a threatening next player.
    pub attack_draw_two: f64,
    /// Bonus for a Wild Draw Four against a threatening next player.
    pub attack_wild_draw_four: f64,
    /// Cost of a Wild Draw Four played while holding the colour in play (it can be challenged).
    pub bluff_risk: f64,
    /// Challenge a Wild Draw Four when the estimated chance of guilt is at least this. Winning
    /// a challenge saves four cards and the turn; losing costs two more cards: about 1/3 breaks
    /// even, and offenders who know the rule bluff less than random hands suggest.
    pub challenge_threshold: f64,
}

impl Default for HeuristicConfig {
    fn default() -> Self {
        HeuristicConfig {
            points: 0.0,
            points_under_threat: 1.0,
            colour_depth: 4.0,
            keep_action: 0.0,
            keep_wild: 200.0,
            keep_wild_draw_four: 200.0,
            play_drawn_wild_at: 2,
            last_card_wild: 30.0,
            threat_cards: 2,
            attack_skip: 60.0,
            attack_draw_two: 80.0,
            attack_wild_draw_four: 100.0,
            bluff_risk: 60.0,
            challenge_threshold: 0.5,
        }
    }
}

/// The official point value of a card: what the heuristic believes a card costs.
#[inline]
pub const fn casual_points(card: Card) -> u32 {
    CASUAL_POINTS[card.index() & 63]
}

// Every kind's index fits six bits, so `index() & 63` is the index itself.
const _: () = assert!(Card::KINDS <= 64);

/// [`casual_points`] by card index, 64 entries so a masked index needs no bounds check.
const CASUAL_POINTS: [u32; 64] = {
    let mut t = [0; 64];
    let mut i = 0;
    while i < Card::KINDS {
        if let Some(card) = Card::from_index(i) {
            t[i] = match card.face() {
                Face::Digit(d) => d as u32,
                Face::Skip | Face::Reverse | Face::DrawTwo => 20,
                Face::Wild | Face::WildDrawFour => 50,
            };
        }
        i += 1;
    }
    t
};

/// Which of [`HeuristicConfig`]'s keep weights a kind has, by card index: 0 none (a number),
/// 1 an action card, 2 the Wild, 3 the Wild Draw Four.
const KEEP_CLASS: [u8; 64] = {
    let mut t = [0; 64];
    let mut i = 0;
    while i < Card::KINDS {
        if let Some(card) = Card::from_index(i) {
            t[i] = match card.face() {
                Face::Skip | Face::Reverse | Face::DrawTwo => 1,
                Face::Wild => 2,
                Face::WildDrawFour => 3,
                Face::Digit(_) => 0,
            };
        }
        i += 1;
    }
    t
};

/// Coloured cards of one colour in the official deck (one 0, two of 1–9, Skip, Reverse,
/// Draw Two).
const OFFICIAL_PER_COLOUR: usize = 25;

pub struct HeuristicBot {
    config: HeuristicConfig,
    /// The colour a fused turn's `pick` chose with its wild ([`TurnPolicy`]).
    pending_color: Option<Color>,
}

impl HeuristicBot {
    pub fn new(_seed: u64) -> HeuristicBot {
        HeuristicBot::with_config(HeuristicConfig::default())
    }

    pub fn with_config(config: HeuristicConfig) -> HeuristicBot {
        HeuristicBot { config, pending_color: None }
    }

    pub fn config(&self) -> &HeuristicConfig {
        &self.config
    }
}

impl Bot for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        decide(&self.config, obs, || obs.legal_actions.first().copied().unwrap_or(Action::Draw))
    }

    fn choose_view(&mut self, view: &View<'_>) -> Action {
        decide(&self.config, view, || first_legal(view))
    }

    fn play_turn(&mut self, game: &mut Game) -> u32 {
        game.play_turn(self)
    }
}

/// The heuristic a turn at a time ([`uno::Game::play_turn`]), for the weights `cfg`: it calls
/// UNO and catches whenever it may, plays its best-scoring card (naming the colour it scored it
/// with) and draws only when it has none, as [`decide`] does; `fallback` answers where
/// [`decide`] asks its own (a seat out of turn), so a playout that falls back on a random bot
/// keeps drawing that bot's numbers in the same order.
pub struct HeuristicTurn<'a, F> {
    cfg: &'a HeuristicConfig,
    fallback: F,
    /// The colour `pick` scored the wild it picked with, for `color`.
    color: Option<Color>,
}

impl<'a, F: FnMut(&View<'_>) -> Action> HeuristicTurn<'a, F> {
    pub fn new(cfg: &'a HeuristicConfig, fallback: F) -> Self {
        HeuristicTurn { cfg, fallback, color: None }
    }
}

impl<F: FnMut(&View<'_>) -> Action> TurnPolicy for HeuristicTurn<'_, F> {
    fn decide(&mut self, view: &View<'_>) -> Action {
        decide(self.cfg, view, || (self.fallback)(view))
    }
    #[inline]
    fn call_uno(&mut self, _view: &View<'_>) -> bool {
        true
    }
    #[inline]
    fn catch_uno(&mut self, _view: &View<'_>, _victim: Seat) -> bool {
        true
    }
    /// `playable` is what [`View::playable`] answers in a fused turn's state (the fused turn
    /// never asks under seed 000's precedence), so it is not asked again.
    fn pick(&mut self, view: &View<'_>, playable: CardSet) -> Option<Card> {
        let play = match view.phase() {
            Phase::DrawnCard => {
                let play = view.drawn_card().and_then(|c| best_play(self.cfg, view, playable.and(CardSet::single(c))));
                match play {
                    Some(Action::Play { card, .. })
                        if view.is_legal(Action::Pass) && card.is_wild() && !spend_wild(self.cfg, view, card) =>
                    {
                        None
                    }
                    play => play,
                }
            }
            _ => best_play(self.cfg, view, playable),
        };
        let Some(Action::Play { card, color }) = play else {
            return None;
        };
        self.color = color;
        Some(card)
    }
    fn color(&mut self, view: &View<'_>, _card: Card) -> Color {
        self.color.take().unwrap_or_else(|| best_colour(view, view.hand(), usize::MAX))
    }
}

/// The bot itself, a turn at a time: [`HeuristicTurn`] with its weights.
impl TurnPolicy for HeuristicBot {
    fn decide(&mut self, view: &View<'_>) -> Action {
        self.choose_view(view)
    }
    fn call_uno(&mut self, _view: &View<'_>) -> bool {
        true
    }
    fn catch_uno(&mut self, _view: &View<'_>, _victim: Seat) -> bool {
        true
    }
    fn pick(&mut self, view: &View<'_>, playable: CardSet) -> Option<Card> {
        let (card, color) = {
            let mut turn = HeuristicTurn::new(&self.config, first_legal);
            (turn.pick(view, playable), turn.color)
        };
        self.pending_color = color;
        card
    }
    fn color(&mut self, view: &View<'_>, _card: Card) -> Color {
        self.pending_color.take().unwrap_or_else(|| best_colour(view, view.hand(), usize::MAX))
    }
}

/// [`HeuristicBot`]'s answer where the heuristic has none of its own: the first legal action.
fn first_legal(view: &View<'_>) -> Action {
    view.legal_actions().first().copied().unwrap_or(Action::Draw)
}

/// A hand's cards and points per colour (by `Color::index`) and its wilds.
struct Tally {
    counts: [usize; 4],
    points: [u32; 4],
    wilds: usize,
}

/// Bits per colour's count in [`COUNT_LANES`]' words, and where the wilds' count starts.
const COUNT_BITS: usize = 12;
const WILD_LANE: usize = 4 * COUNT_BITS;
/// Bits per colour's points in [`POINT_LANES`]' words.
const POINT_BITS: usize = 16;

/// Each kind's one card as lanes of a word, a count per colour and the wilds'
/// ([`COUNT_BITS`] each), so that a hand's counts are one sum: a deck of at most
/// `MAX_DECK_CARDS` (432) cards never carries from one lane into the next.
const COUNT_LANES: [u64; 64] = lanes(false);
/// Each kind's [`casual_points`] in its colour's lane ([`POINT_BITS`] each; 432 cards of 20
/// points at most fit); wilds add none.
const POINT_LANES: [u64; 64] = lanes(true);
const _: () = assert!(MAX_DECK_CARDS < 1 << COUNT_BITS && MAX_DECK_CARDS * 20 < 1 << POINT_BITS);

/// 64 entries, so that a card index masked to six bits needs no bounds check.
const fn lanes(points: bool) -> [u64; 64] {
    let mut out = [0; 64];
    let mut i = 0;
    while i < Card::KINDS {
        if let Some(card) = Card::from_index(i) {
            out[i] = match (card.color(), points) {
                (Some(c), false) => 1 << (COUNT_BITS * c.index()),
                (None, false) => 1 << WILD_LANE,
                (Some(c), true) => (casual_points(card) as u64) << (POINT_BITS * c.index()),
                (None, true) => 0,
            };
        }
        i += 1;
    }
    out
}

impl Tally {
    /// Two sums of table words over the hand (no stores to a counter per card).
    #[inline]
    fn of(hand: &[Card]) -> Tally {
        let (mut n, mut p) = (0u64, 0u64);
        for c in hand {
            n += COUNT_LANES[c.index() & 63];
            p += POINT_LANES[c.index() & 63];
        }
        let lane = |w: u64, bits: usize, k: usize| (w >> (bits * k)) & ((1 << bits) - 1);
        Tally {
            counts: std::array::from_fn(|k| lane(n, COUNT_BITS, k) as usize),
            points: std::array::from_fn(|k| lane(p, POINT_BITS, k) as u32),
            wilds: (n >> WILD_LANE) as usize,
        }
    }
}

/// Cards of each colour in `hand`, by `Color::index`, leaving out the card at `skip`.
fn colour_counts(hand: &[Card], skip: usize) -> [usize; 4] {
    let mut n = [0; 4];
    for (i, c) in hand.iter().enumerate() {
        if let (Some(col), true) = (c.color(), i != skip) {
            n[col.index()] += 1;
        }
    }
    n
}

/// The colour a wild played from `hand[skip]` should name: the one the rest of the hand holds
/// most of, then the one worth more points, then the rules' order.
pub(crate) fn best_colour<S: AnyViewExt>(s: &S, hand: &[Card], skip: usize) -> Color {
    let counts = colour_counts(hand, skip);
    let mut points = [0u32; 4];
    for (i, c) in hand.iter().enumerate() {
        if let (Some(col), true) = (c.color(), i != skip) {
            points[col.index()] += casual_points(*c);
        }
    }
    best_colour_of(s, &counts, &points)
}

/// [`best_colour`] from the rest of the hand's cards and points per colour.
fn best_colour_of<S: AnyViewExt>(s: &S, counts: &[usize; 4], points: &[u32; 4]) -> Color {
    let colours = s.wild_colors();
    let mut best: Option<(Color, (usize, u32))> = None;
    for c in colours.iter() {
        let key = (counts[c.index()], points[c.index()]);
        if best.is_none_or(|(_, k)| key > k) {
            best = Some((c, key));
        }
    }
    best.map(|(c, _)| c).or_else(|| colours.first()).unwrap_or(Color::Red)
}

/// The chance that a hand of `h` cards, dealt from the `unseen` cards the viewer has not seen,
/// holds at least one of the `k` of them that have the colour in question.
pub fn chance_holds(unseen: usize, k: usize, h: usize) -> f64 {
    let k = k.min(unseen);
    if h > unseen - k {
        return 1.0;
    }
    let mut none = 1.0;
    for i in 0..h {
        none *= (unseen - k - i) as f64 / (unseen - i) as f64;
    }
    1.0 - none
}

/// The estimated chance that the Wild Draw Four on top was played while its player held the
/// colour in play before it; `None` when that colour cannot be told (a wild under it).
pub(crate) fn guilt_chance<S: AnyViewExt>(s: &S, offender: Seat) -> Option<f64> {
    let discard = s.discard();
    let before = discard.len().checked_sub(2).map(|i| discard[i])?.color()?;
    let seen = s.hand().iter().chain(discard).filter(|c| c.color() == Some(before)).count();
    let k = OFFICIAL_PER_COLOUR.saturating_sub(seen);
    let me = s.seat();
    let unseen: usize =
        Seat::all(s.players()).filter(|&o| o != me).map(|o| s.hand_size(o)).sum::<usize>() + s.draw_pile_size();
    Some(chance_holds(unseen, k, s.hand_size(offender)))
}

pub(crate) fn decide<S: AnyViewExt>(cfg: &HeuristicConfig, s: &S, fallback: impl FnOnce() -> Action) -> Action {
    let phase = s.phase();
    if matches!(phase, Phase::RoundOver | Phase::GameOver) {
        return if s.is_legal(Action::NextRound) { Action::NextRound } else { fallback() };
    }
    if s.can_call_own_uno() {
        return Action::CallUno;
    }
    if let Some(seat) = s.catch_target() {
        return Action::CatchUno { seat };
    }
    if s.current() != s.seat() {
        return fallback();
    }
    let hand = s.hand();
    match phase {
        Phase::Play => match best_play(cfg, s, s.playable()) {
            Some(a) => a,
            None => [Action::Draw, Action::Pass].into_iter().find(|&a| s.is_legal(a)).unwrap_or_else(fallback),
        },
        Phase::Challenge { offender } => {
            if let Some(a) = best_play(cfg, s, s.playable()) {
                return a;
            }
            let challenge = guilt_chance(s, offender).is_some_and(|p| p >= cfg.challenge_threshold);
            if challenge && s.is_legal(Action::Challenge) {
                Action::Challenge
            } else if s.is_legal(Action::Accept) {
                Action::Accept
            } else {
                fallback()
            }
        }
        Phase::DrawnCard => {
            let play = s.drawn_card().and_then(|c| best_play(cfg, s, s.playable().and(CardSet::single(c))));
            let can_keep = s.is_legal(Action::Pass);
            match play {
                Some(a @ Action::Play { card, .. }) if !can_keep || !card.is_wild() || spend_wild(cfg, s, card) => a,
                _ if can_keep => Action::Pass,
                Some(a) => a,
                None => fallback(),
            }
        }
        Phase::SameNumber => {
            // The worst-scoring card first: the best one goes last, as it sets the colour.
            let mut worst: Option<(f64, Action)> = None;
            score_plays(cfg, s, s.playable(), |score, action| {
                if worst.is_none_or(|(w, _)| score < w) {
                    worst = Some((score, action));
                }
            });
            match worst {
                Some((_, a)) => a,
                None if s.is_legal(Action::Pass) => Action::Pass,
                None => fallback(),
            }
        }
        Phase::ChooseColor => Action::DeclareColor { color: best_colour(s, hand, usize::MAX) },
        Phase::ChooseSwap => Action::SwapHands { with: s.smallest_other_hand() },
        Phase::RoundOver | Phase::GameOver => fallback(),
    }
}

/// Whether a drawn wild is worth playing rather than keeping.
fn spend_wild<S: AnyViewExt>(cfg: &HeuristicConfig, s: &S, card: Card) -> bool {
    let bluff = card == Card::WILD_DRAW_FOUR && s.hand().iter().any(|c| s.color().is_some() && c.color() == s.color());
    s.hand().len() <= cfg.play_drawn_wild_at && !bluff
}

/// The best-scoring play of `candidates` (kinds the seat may play now), with its colour.
fn best_play<S: AnyViewExt>(cfg: &HeuristicConfig, s: &S, candidates: CardSet) -> Option<Action> {
    // One coloured card to play is the best one, whatever it scores.
    if let (1, Some(card)) = (candidates.len(), candidates.nth(0)) {
        if !card.is_wild() {
            return Some(Action::Play { card, color: None });
        }
    }
    let mut best: Option<(f64, Action)> = None;
    score_plays(cfg, s, candidates, |score, action| {
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, action));
        }
    });
    best.map(|(_, a)| a)
}

/// Whether the heuristic, on its turn in `s`, could play `card` from its hand: `card` scores
/// as well as its best play. A tie counts, as the hand's order (which no observer knows)
/// decides it. A wild's colour, when `named` gives it, must be the one the heuristic would
/// name. What an observer who knows a player follows these rules learns from its play.
pub(crate) fn could_play<S: AnyViewExt>(cfg: &HeuristicConfig, s: &S, card: Card, named: Option<Color>) -> bool {
    // Playable kinds are held ones (`AnyViewExt::playable`): no walk of the hand to know them.
    let candidates = s.playable().bits();
    if candidates & (1 << card.index()) == 0 {
        return false;
    }
    let scorer = Scorer::new(cfg, s);
    let (mine, colour) = scorer.score(card);
    if named.is_some() && card.is_wild().then_some(colour) != named {
        return false;
    }
    // It scores as well as its best play when no other play scores more: the first that does
    // settles it.
    let mut others = candidates & !(1 << card.index());
    while others != 0 {
        let k = others.trailing_zeros() as usize;
        others &= others - 1;
        if Card::from_index(k).is_some_and(|c| scorer.score(c).0 > mine) {
            return false;
        }
    }
    true
}

/// Every play of `candidates` (kinds the seat may play now), once per kind in the hand's
/// order, with its colour and its score.
fn score_plays<S: AnyViewExt>(cfg: &HeuristicConfig, s: &S, candidates: CardSet, mut each: impl FnMut(f64, Action)) {
    let scorer = Scorer::new(cfg, s);
    // The candidates not yet scored: each kind once, at its left-most copy.
    let mut left = candidates.bits();
    for &card in s.hand() {
        let bit = 1u64 << card.index();
        if left & bit == 0 {
            continue;
        }
        left &= !bit;
        let (score, colour) = scorer.score(card);
        each(score, Action::Play { card, color: card.is_wild().then_some(colour) });
        if left == 0 {
            break;
        }
    }
}

/// What a play's score reads of the position, worked out once for every card scored in it.
struct Scorer<'a, S> {
    cfg: &'a HeuristicConfig,
    s: &'a S,
    threatened: bool,
    prev_threat: bool,
    per_point: f64,
    /// The whole hand's cards and points per colour, and its wilds: without one card they are
    /// these less that card's own (a wild has no colour to take away).
    tally: Tally,
    holds_colour: bool,
    hand_len: usize,
}

impl<'a, S: AnyViewExt> Scorer<'a, S> {
    #[inline]
    fn new(cfg: &'a HeuristicConfig, s: &'a S) -> Scorer<'a, S> {
        let hand = s.hand();
        let me = s.seat();
        let next = s.after_current(1);
        let threatened = next != me && s.hand_size(next) <= cfg.threat_cards;
        let prev_threat = {
            let prev = s.after_current(s.players().saturating_sub(1));
            prev != me && s.hand_size(prev) <= cfg.threat_cards
        };
        let someone_close = Seat::all(s.players()).any(|o| o != me && s.hand_size(o) <= cfg.threat_cards);
        let per_point = cfg.points + if someone_close { cfg.points_under_threat } else { 0.0 };
        let tally = Tally::of(hand);
        let holds_colour = s.color().is_some_and(|col| tally.counts[col.index()] > 0);
        Scorer { cfg, s, threatened, prev_threat, per_point, tally, holds_colour, hand_len: hand.len() }
    }

    /// The score of playing `card` (held, playable) and the colour it is scored with: its own,
    /// or the one a wild would name.
    #[inline]
    fn score(&self, card: Card) -> (f64, Color) {
        let (cfg, s) = (self.cfg, self.s);
        let Tally { counts, points, wilds } = &self.tally;
        let (colour, depth) = match card.color() {
            Some(own) => (own, counts[own.index()] - 1),
            None => {
                let colour = best_colour_of(s, counts, points);
                (colour, counts[colour.index()])
            }
        };
        let mut score = self.per_point * casual_points(card) as f64 + cfg.colour_depth * depth as f64;
        // What keeping the card is worth, by its kind's class: a load, not a match on the face.
        score -=
            [0.0, cfg.keep_action, cfg.keep_wild, cfg.keep_wild_draw_four][usize::from(KEEP_CLASS[card.index() & 63])];
        // Another card of the two is a wild: this one is not.
        if self.hand_len == 2 && !card.is_wild() && *wilds > 0 {
            score += cfg.last_card_wild;
        }
        if self.threatened {
            score += match card.face() {
                Face::Skip => cfg.attack_skip,
                Face::Reverse if s.players() > 2 && !self.prev_threat => cfg.attack_skip,
                Face::DrawTwo => cfg.attack_draw_two,
                Face::WildDrawFour => cfg.attack_wild_draw_four,
                _ => 0.0,
            };
        }
        if card == Card::WILD_DRAW_FOUR && self.holds_colour && s.pending_draw() == 0 {
            score -= cfg.bluff_risk;
        }
        (score, colour)
    }
}
