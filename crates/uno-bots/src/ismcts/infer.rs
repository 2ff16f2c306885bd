//! What the other seats' public moves reveal about their hands, for the search's worlds.
//!
//! The bot sees the game only at its own decisions, so between two of them it reconstructs
//! what the others did from the two observations: the discard pile's new cards, the hand
//! sizes, the turn counter, the direction. It replays the public side of the rules (who
//! plays after whom, skips, reverses, penalties, Wild Draw Four challenges) and searches the
//! few ways each seat's turn can have gone (played a card, drew and played the drawn card,
//! drew and kept it) for the one sequence that ends in what it sees now. Whenever the replay
//! cannot explain the new observation (a rule it does not model, a reshuffle, a catch it did
//! not see), everything inferred is forgotten: a wrong belief costs more than a missing one.
//!
//! Two things are inferred into beliefs, as the `heuristic` and `random` bots (and most people)
//! play:
//!
//! * **a seat that drew instead of playing had nothing playable**: no card of the colour in
//!   play, none with the top card's face, no wild. This holds for every card it held then and
//!   still holds; the card it drew and the cards it gets later are free;
//! * optionally, **a seat that played a wild from its hand had no other card to play** (the
//!   heuristic keeps wilds as a last resort): the rest of its hand held no card of the colour
//!   in play and none with the top card's face. This makes its Wild Draw Fours honest.
//!
//! A third, optional, models the other seats as the `heuristic` bot exactly: each seat's plays
//! from its hand since it last took a card are remembered with their public positions (the
//! `plays` module), and the search prefers worlds whose hands would have made them.
//!
//! Beliefs are kept per seat as groups `(count, kinds)`, what [`Sampler::set_beliefs`] takes:
//! `count` of its hidden cards hold none of the kinds in the mask. A new constraint applies to
//! the whole hand at that moment, so the groups already there widen their masks and the free
//! cards become a new group. A card played leaves a group that allows it or the free cards,
//! chosen in proportion to their sizes (which one it came from is not public).
//!
//! It is not a second rule book: which cards match comes from [`CardSet::matching`] and what a
//! card does from [`Rules::effect`]; only the order of a turn (who decides what, and when) is
//! replayed here, for the public side alone.
//!
//! [`Sampler::set_beliefs`]: uno::sample::Sampler::set_beliefs

use rand::Rng;
use uno::rules::{DrawRule, JumpIn, MultiPlay, SevenZero, Stacking};
use uno::{Action, Card, CardSet, Color, Direction, Observation, Phase, Rules, Seat};

use super::plays::{Past, PlayLog};

/// Replayed states a reconstruction may visit before giving up.
const SEARCH_LIMIT: u32 = 20_000;

/// Belief groups kept per seat: the sampler deals each group apart (a pass over the unseen
/// cards each), so more groups make every world dearer; past this, groups are merged.
const MAX_GROUPS: usize = 3;

/// The beliefs about the other hands, updated at each of the bot's decisions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tracker {
    /// The bot's previous decision in this round and the action it took.
    last: Option<(Observation, Action)>,
    /// Per seat, the `(count, kinds)` groups of `Sampler::set_beliefs`.
    groups: Vec<Vec<(usize, u64)>>,
    /// Per seat, its plays from its hand since it last took a card.
    plays: PlayLog,
    /// The seat whose Wild Draw Four, the last card played, came from a hand believed to hold
    /// nothing else playable.
    honest_wd4: Option<Seat>,
    /// The steps the last observation was explained by (empty when it was not).
    steps: Vec<Step>,
    /// Counts the times everything inferred was forgotten: a follower of the steps starts
    /// again when it changes.
    generation: u64,
    /// Replays that explained the new observation, and those that did not.
    pub(crate) explained: u64,
    pub(crate) unexplained: u64,
}

/// One public step of another seat (or of the bot) that the beliefs learn from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    /// `seat` drew on its turn holding `size` cards, none of them of the kinds in `mask`.
    Drew { seat: Seat, size: usize, mask: u64 },
    /// `seat` kept the card it drew: none of the kinds in `mask`.
    Kept { seat: Seat, mask: u64 },
    /// `seat` played `card` out of a hand of `size` cards (`drawn`: the card it had just
    /// drawn); after a wild, `rest` are the kinds its other cards could have been played as.
    Played { seat: Seat, card: Card, size: usize, drawn: bool, rest: u64, past: Option<Past> },
}

/// The public state the replay walks: what every seat sees.
#[derive(Clone, Debug)]
struct Public {
    current: Seat,
    direction: Direction,
    top: Card,
    /// `None`: a wild another seat played, whose colour is not known yet.
    color: Option<Color>,
    sizes: Vec<usize>,
    turns: u32,
    /// The offender of a pending Wild Draw Four challenge (the current seat may challenge).
    challenge: Option<Seat>,
    pending: u32,
    /// The new discard cards consumed so far.
    used: usize,
}

impl Public {
    fn next(&self, steps: usize) -> Seat {
        Seat(uno::next_seat(self.current.index(), self.direction, self.sizes.len(), steps) as u8)
    }

    fn end_turn(&mut self, skip: usize) {
        self.turns += 1;
        self.current = self.next(1 + skip);
    }

    fn playable(&self, card: Card) -> bool {
        match self.color {
            Some(c) => card.matches(self.top, c),
            None => true,
        }
    }
}

/// Whether the replay models these rules: the official turn structure and its usual variants,
/// not the house rules that move cards between hands, let seats act out of turn or play
/// several cards in one turn.
pub(crate) fn supported(rules: &Rules) -> bool {
    rules.stacking() == Stacking::Off
        && rules.jump_in() == JumpIn::Off
        && rules.seven_zero() == SevenZero::Off
        && rules.multi_play() == MultiPlay::Off
        && rules.draw_rule() != DrawRule::DrawUntilPlayable
}

/// Whether every seat an observation names is one of its seats (the replay indexes by them).
fn well_formed(obs: &Observation) -> bool {
    let fits = |s: Seat| s.index() < obs.players;
    obs.hand_sizes.len() == obs.players
        && obs.viewer.is_none_or(fits)
        && fits(obs.current)
        && obs.uno_exposed.is_none_or(fits)
        && match obs.phase {
            Phase::Challenge { offender } => fits(offender),
            _ => true,
        }
}

/// The kinds a hand could play on `top` with `color` in play: the rule book's matching set
/// (`None`: the colour is unknown, so only what matches in every colour is certain, the wilds
/// and the top card's face).
fn playable_mask(top: Card, color: Option<Color>) -> u64 {
    let set = match color {
        Some(col) => CardSet::matching(top, col),
        None => Color::ALL.iter().fold(CardSet::ALL, |set, &col| set.and(CardSet::matching(top, col))),
    };
    set.bits()
}

fn bit(c: Card) -> u64 {
    1u64 << c.index()
}

const WILDS: u64 = CardSet::WILDS.bits();

impl Tracker {
    pub(crate) fn reset(&mut self) {
        self.last = None;
        self.groups.clear();
        self.plays.clear(0);
        self.honest_wd4 = None;
        self.steps.clear();
        self.generation += 1;
    }

    fn forget(&mut self, players: usize) {
        self.groups = vec![Vec::new(); players];
        self.plays.clear(players);
        self.honest_wd4 = None;
        self.steps.clear();
        self.generation += 1;
    }

    /// The other seats' steps since the bot's previous decision, in order, when the history
    /// since the last [`Tracker::generation`] change explains them all.
    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Changes whenever the beliefs start over (a new round, a history not explained).
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// The seat whose pending Wild Draw Four is believed honest: it was played from a hand
    /// believed to have nothing else to play.
    pub(crate) fn honest_wd4(&self) -> Option<Seat> {
        self.honest_wd4
    }

    /// The other seats' plays since they last took a card.
    pub(crate) fn plays(&self) -> &PlayLog {
        &self.plays
    }

    /// The beliefs about `seat`'s hand.
    pub(crate) fn beliefs(&self, seat: Seat) -> &[(usize, u64)] {
        self.groups.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    /// Remembers the bot's decision, to replay from at the next one.
    pub(crate) fn acted(&mut self, obs: &Observation, action: Action) {
        self.last = Some((obs.clone(), action));
    }

    /// Learns from what happened since the bot's previous decision. `wilds`: also infer from
    /// wilds played (see the module docs); `colours`: remember the colour each wild named, for
    /// the plays' test.
    pub(crate) fn observe<R: Rng + ?Sized>(
        &mut self,
        obs: &Observation,
        rules: &Rules,
        wilds: bool,
        colours: bool,
        rng: &mut R,
    ) {
        let Some(me) = obs.viewer.filter(|_| well_formed(obs)) else { return self.reset() };
        let Some((prev, action)) = self.last.take() else {
            return self.forget(obs.players);
        };
        let continues = supported(rules)
            && well_formed(&prev)
            && prev.viewer == Some(me)
            && prev.round == obs.round
            && prev.players == obs.players
            && self.groups.len() == obs.players
            && obs.discard.starts_with(&prev.discard)
            && obs.turns >= prev.turns;
        if !continues || self.plays.players() != obs.players {
            return self.forget(obs.players);
        }
        let new = &obs.discard[prev.discard.len()..];
        let mut steps = Vec::new();
        let found = starts(&prev, action, rules, new).into_iter().any(|p| {
            steps.clear();
            let mut budget = SEARCH_LIMIT;
            replay(p, me, new, obs, rules, &mut steps, &mut budget)
        });
        if !found {
            self.unexplained += 1;
            return self.forget(obs.players);
        }
        self.explained += 1;
        self.honest_wd4 = None;
        for step in &steps {
            self.learn(step, wilds, colours, rng);
        }
        self.steps = steps;
        self.plays.prune(&obs.hand_sizes, obs.viewer);
        for (s, g) in self.groups.iter_mut().enumerate() {
            // Cards the replay could not place (a hand emptied by a reshuffle's short draw,
            // say) leave the beliefs, not the hand.
            let mut excess = g.iter().map(|&(n, _)| n).sum::<usize>().saturating_sub(obs.hand_sizes[s]);
            while excess > 0 {
                let Some(last) = g.last_mut() else { break };
                let k = last.0.min(excess);
                last.0 -= k;
                excess -= k;
                if last.0 == 0 {
                    g.pop();
                }
            }
            if Some(Seat(s as u8)) == obs.viewer {
                g.clear();
            }
            merge_groups(g);
        }
    }

    fn learn<R: Rng + ?Sized>(&mut self, step: &Step, wilds: bool, colours: bool, rng: &mut R) {
        match *step {
            Step::Drew { seat, size, mask } => self.constrain(seat, size, mask),
            Step::Kept { seat, mask } => {
                if mask != 0 {
                    self.groups[seat.index()].push((1, mask));
                }
            }
            Step::Played { seat, card, size, drawn, rest, ref past } => {
                if let Some(past) = past {
                    self.plays.record(Past { named: past.named.filter(|_| colours), ..past.clone() });
                }
                let g = &mut self.groups[seat.index()];
                // A card played as soon as it was drawn was one of the free cards: no group
                // loses it.
                if !drawn {
                    let constrained: usize = g.iter().map(|&(n, _)| n).sum();
                    let free = size.saturating_sub(constrained);
                    let allowed: usize =
                        free + g.iter().filter(|&&(_, m)| m & bit(card) == 0).map(|&(n, _)| n).sum::<usize>();
                    if allowed == 0 {
                        // It played a card its beliefs ruled out: they were wrong about it.
                        g.clear();
                    } else {
                        let mut pick = rng.gen_range(0..allowed);
                        if pick >= free {
                            pick -= free;
                            for i in 0..g.len() {
                                if g[i].1 & bit(card) != 0 {
                                    continue;
                                }
                                if pick < g[i].0 {
                                    g[i].0 -= 1;
                                    if g[i].0 == 0 {
                                        g.remove(i);
                                    }
                                    break;
                                }
                                pick -= g[i].0;
                            }
                        }
                    }
                    if wilds && card.is_wild() && rest != 0 {
                        self.constrain(seat, size - 1, rest);
                    }
                    self.honest_wd4 = (wilds && card == Card::WILD_DRAW_FOUR && rest != 0).then_some(seat);
                }
            }
        }
    }

    /// Every card of `seat`'s hand of `size` cards holds none of the kinds in `mask`.
    fn constrain(&mut self, seat: Seat, size: usize, mask: u64) {
        if mask == 0 {
            return;
        }
        let g = &mut self.groups[seat.index()];
        for group in g.iter_mut() {
            group.1 |= mask;
        }
        let free = size.saturating_sub(g.iter().map(|&(n, _)| n).sum());
        if free > 0 {
            g.push((free, mask));
        }
        // Groups with the same mask are one group.
        g.sort_by_key(|&(_, m)| m);
        g.dedup_by(|b, a| {
            if a.1 == b.1 {
                a.0 += b.0;
                true
            } else {
                false
            }
        });
    }
}

/// Merges groups until at most [`MAX_GROUPS`] are left: the two that share the most excluded
/// kinds become one that excludes only what both did (weaker, never wrong).
fn merge_groups(g: &mut Vec<(usize, u64)>) {
    while g.len() > MAX_GROUPS {
        let mut best = (0, 1, 0u32);
        for i in 0..g.len() {
            for j in i + 1..g.len() {
                let shared = (g[i].1 & g[j].1).count_ones();
                if shared > best.2 {
                    best = (i, j, shared);
                }
            }
        }
        let (i, j, _) = best;
        let (n, m) = g.remove(j);
        g[i] = (g[i].0 + n, g[i].1 & m);
        if g[i].1 == 0 {
            g.remove(i);
        }
    }
}

/// The public states right after the bot's own `action` from `prev`: two when the action was
/// a challenge whose outcome is not known yet, none when the replay does not model it.
fn starts(prev: &Observation, action: Action, rules: &Rules, new: &[Card]) -> Vec<Public> {
    let Some(me) = prev.viewer else { return Vec::new() };
    let challenge = match prev.phase {
        Phase::Challenge { offender } => Some(offender),
        _ => None,
    };
    let p = Public {
        current: prev.current,
        direction: prev.direction,
        top: prev.top,
        color: prev.color,
        sizes: prev.hand_sizes.clone(),
        turns: prev.turns,
        challenge,
        pending: prev.pending_draw,
        used: 0,
    };
    if prev.current != me {
        return Vec::new();
    }
    let mut out = Vec::new();
    match action {
        Action::Play { card, color } => {
            let mut q = p;
            if q.sizes[me.index()] == 0 {
                return out;
            }
            q.sizes[me.index()] -= 1;
            q.challenge = None;
            // The bot's own card is the first of the new ones.
            if new.first() != Some(&card) {
                return out;
            }
            q.used = 1;
            q.top = card;
            q.color = card.color().or(color);
            effects(&mut q, me, card, rules);
            out.push(q);
        }
        Action::Draw => {
            let mut q = p;
            q.sizes[me.index()] += 1;
            if rules.draw_rule() == DrawRule::DrawOneEndTurn {
                q.end_turn(0);
            }
            // Otherwise the bot decides about the drawn card next (when the rules would end
            // the turn instead, the replay does not match and nothing is learnt).
            out.push(q);
        }
        Action::Pass => {
            let mut q = p;
            q.end_turn(0);
            out.push(q);
        }
        Action::Accept => {
            let mut q = p;
            q.sizes[me.index()] += q.pending as usize;
            q.pending = 0;
            q.challenge = None;
            q.end_turn(0);
            out.push(q);
        }
        Action::Challenge => {
            let Some(offender) = challenge else { return out };
            let mut guilty = p.clone();
            guilty.sizes[offender.index()] += guilty.pending as usize;
            guilty.pending = 0;
            guilty.challenge = None;
            out.push(guilty);
            let mut innocent = p;
            innocent.sizes[me.index()] += innocent.pending as usize + 2;
            innocent.pending = 0;
            innocent.challenge = None;
            innocent.end_turn(0);
            out.push(innocent);
        }
        Action::DeclareColor { color } => {
            let mut q = p;
            q.color = Some(color);
            out.push(q);
        }
        Action::CallUno => out.push(p),
        Action::CatchUno { seat: v } => {
            let mut q = p;
            if prev.uno_exposed == Some(v) {
                q.sizes[v.index()] += rules.uno_penalty() as usize;
            }
            out.push(q);
        }
        Action::SwapHands { .. } | Action::NextRound => {}
    }
    out
}

/// What playing `card` does to the public state (the card is already counted out of the hand
/// and on the pile).
fn effects(q: &mut Public, seat: Seat, card: Card, rules: &Rules) {
    let e = rules.effect(card, q.sizes.len());
    if e.flip {
        q.direction = q.direction.flipped();
    }
    if e.challenge {
        q.pending += u32::from(e.penalty);
        q.end_turn(0);
        q.challenge = Some(seat);
        return;
    }
    // Without stacking (see `supported`) every other penalty is drawn at once.
    if e.penalty > 0 {
        let victim = q.next(1);
        q.sizes[victim.index()] += usize::from(e.penalty) + std::mem::take(&mut q.pending) as usize;
    }
    q.end_turn(usize::from(e.skip));
}

/// Searches the other seats' turns from `p` for a sequence that plays exactly the `new` discard
/// cards and ends at the bot's next decision as `target` shows it; `steps` gets its steps.
fn replay(
    p: Public,
    me: Seat,
    new: &[Card],
    target: &Observation,
    rules: &Rules,
    steps: &mut Vec<Step>,
    budget: &mut u32,
) -> bool {
    if *budget == 0 || p.turns > target.turns {
        return false;
    }
    *budget -= 1;
    let s = p.current;
    if s == me {
        let challenge = match target.phase {
            Phase::Challenge { offender } => Some(offender),
            _ => None,
        };
        return p.used == new.len()
            && p.turns == target.turns
            && p.sizes == target.hand_sizes
            && p.direction == target.direction
            && p.color.is_none_or(|c| Some(c) == target.color)
            && p.challenge == challenge;
    }
    let mark = steps.len();
    if let Some(offender) = p.challenge {
        // Accept (the penalty) or a lost challenge (two cards more): the turn is over.
        for extra in [0, 2] {
            let mut q = p.clone();
            q.sizes[s.index()] += q.pending as usize + extra;
            q.pending = 0;
            q.challenge = None;
            q.end_turn(0);
            if replay(q, me, new, target, rules, steps, budget) {
                return true;
            }
            steps.truncate(mark);
        }
        // A won challenge: the offender takes the cards and the challenger plays on.
        let mut q = p;
        q.sizes[offender.index()] += q.pending as usize;
        q.pending = 0;
        q.challenge = None;
        return replay(q, me, new, target, rules, steps, budget);
    }
    // The next new card played from the hand.
    if let Some(&card) = new.get(p.used) {
        if p.playable(card) && p.sizes[s.index()] > 1 {
            let mut q = p.clone();
            let rest = if card.is_wild() { playable_mask(p.top, p.color) & !WILDS } else { 0 };
            // A wild's colour shows in the card played on it, or, when none was, in the
            // colour in play now.
            let named = match new.get(p.used + 1) {
                _ if !card.is_wild() => None,
                Some(next) => next.color(),
                None => target.color,
            };
            let past = Some(Past {
                seat: s,
                card,
                top: p.top,
                color: p.color,
                named,
                direction: p.direction,
                sizes: p.sizes.clone(),
            });
            steps.push(Step::Played { seat: s, card, size: p.sizes[s.index()], drawn: false, rest, past });
            play(&mut q, s, card, rules);
            if replay(q, me, new, target, rules, steps, budget) {
                return true;
            }
            steps.truncate(mark);
        }
    }
    // A draw on the turn: the seat had nothing it wanted to play.
    let mask = playable_mask(p.top, p.color);
    let mut q = p.clone();
    steps.push(Step::Drew { seat: s, size: q.sizes[s.index()], mask });
    q.sizes[s.index()] += 1;
    let decides = rules.draw_rule() != DrawRule::DrawOneEndTurn;
    if decides {
        if let Some(&card) = new.get(q.used) {
            if q.playable(card) && q.sizes[s.index()] > 1 {
                let mut r = q.clone();
                steps.push(Step::Played { seat: s, card, size: r.sizes[s.index()], drawn: true, rest: 0, past: None });
                play(&mut r, s, card, rules);
                if replay(r, me, new, target, rules, steps, budget) {
                    return true;
                }
                steps.truncate(mark + 1);
            }
        }
    }
    // Kept: a card it could not (or, a wild, would not) play.
    steps.push(Step::Kept { seat: s, mask: if decides { mask & !WILDS } else { 0 } });
    q.end_turn(0);
    if replay(q, me, new, target, rules, steps, budget) {
        return true;
    }
    steps.truncate(mark);
    false
}

/// `seat` plays the next new card.
fn play(q: &mut Public, seat: Seat, card: Card, rules: &Rules) {
    q.sizes[seat.index()] -= 1;
    q.used += 1;
    q.top = card;
    // Another seat's wild names a colour nobody has seen yet.
    q.color = card.color();
    effects(q, seat, card, rules);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_cover_colour_face_and_wilds() {
        let top = Card::colored(Color::Red, uno::Face::Digit(5)).unwrap_or(Card::WILD);
        let m = playable_mask(top, Some(Color::Red));
        assert_eq!(m.count_ones(), 13 + 3 + 2);
        assert_ne!(m & bit(Card::WILD_DRAW_FOUR), 0);
        let m = playable_mask(Card::WILD, None);
        assert_eq!(m, WILDS);
    }

    #[test]
    fn merged_groups_keep_only_what_both_excluded() {
        let mut g = vec![(2, 0b0111), (1, 0b0110), (3, 0b1000), (1, 0b1001)];
        merge_groups(&mut g);
        assert_eq!(g, vec![(3, 0b0110), (3, 0b1000), (1, 0b1001)]);
        let mut g = vec![(1, 0b01), (1, 0b10), (1, 0b100), (1, 0b1000)];
        merge_groups(&mut g);
        assert_eq!(g.len(), 2, "disjoint masks merge into nothing: {g:?}");
        assert_eq!(g.iter().map(|&(n, _)| n).sum::<usize>(), 2);
    }
}
