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
//! replayed here, for the public side alone, because the bot sees two observations and not the
//! moves between them. That copy is held to the engine by a differential test (`tests.rs`,
//! `the_replay_explains_the_engines_history_on_every_rule_set_it_supports`): engine games on
//! every preset and house rule, replayed here, give the engine's histories where `supported`
//! says the replay models the rules, and nothing where it does not.
//!
//! [`Sampler::set_beliefs`]: uno::sample::Sampler::set_beliefs

use rand::Rng;
use uno::rules::{DrawRule, JumpIn, MultiPlay, SevenZero, Stacking};
use uno::{Action, Card, CardSet, Color, Direction, Observation, Phase, Rules, Seat};

use super::plays::{Past, PlayLog};
use replay::{replay, starts};

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

/// Whether the replay models these rules: the official turn structure and its usual variants,
/// not the house rules that move cards between hands, let seats act out of turn or play
/// several cards in one turn.
///
/// Every rule of the sections a turn's order depends on is named here, each choice matched
/// without a wildcard: a rule added to the rule book fails to compile here until the replay
/// decides whether it models it.
pub(crate) fn supported(rules: &Rules) -> bool {
    use uno::rules::{Exhausted, ForcedPlay, PlayConfig, TwoPlayerRule, UnoCall, UnoConfig, WildDrawFourRule};
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
    let draw = match draw {
        DrawRule::DrawOneMayPlay | DrawRule::DrawOneMustPlay | DrawRule::DrawOneEndTurn => true,
        // Several cards arrive in one turn, how many is hidden; a card drawn and played at once
        // (RLCard's rules) says things about the hand the replay does not read.
        DrawRule::DrawUntilPlayable | DrawRule::DrawOneAutoPlay => false,
    };
    // Which card is the player's business (or the precedence's); the turn's order is the same.
    let forced = match forced_play {
        ForcedPlay::Optional | ForcedPlay::Required | ForcedPlay::Precedence => true,
    };
    let stacking = match stacking {
        Stacking::Off => true,
        Stacking::DrawTwo | Stacking::WildDrawFour | Stacking::Both | Stacking::Cross => false,
    };
    // The replay asks the rules' effect tables what a card does; the matching set in the
    // beliefs holds under each of these.
    let wd4 = match wild_draw_four {
        WildDrawFourRule::Unrestricted | WildDrawFourRule::Restricted | WildDrawFourRule::Challenge => true,
        // Kept for when nothing else plays: a belief about the rest of the hand the replay does not keep.
        WildDrawFourRule::LastResort => false,
    };
    let two = match two_players {
        TwoPlayerRule::ReverseSkips | TwoPlayerRule::ReverseReverses => true,
    };
    let jump_in = match jump_in {
        JumpIn::Off => true,
        JumpIn::On => false,
    };
    let seven_zero = match seven_zero {
        SevenZero::Off => true,
        SevenZero::On => false,
    };
    // A reshuffle the replay does not see is a history it cannot explain: beliefs are dropped.
    let exhausted = match exhausted_draw_pile {
        Exhausted::Reshuffle | Exhausted::NoReshuffle => true,
    };
    let runs = match multi_play {
        MultiPlay::Off => true,
        MultiPlay::SameNumber => false,
    };
    // A catch or a false call the bot did not see is likewise an unexplained history.
    let UnoConfig { call, penalty: _, false_call_penalty: _ } = &rules.config().uno;
    let uno = match call {
        UnoCall::Off | UnoCall::Required => true,
    };
    draw && forced && stacking && wd4 && two && jump_in && seven_zero && exhausted && runs && uno
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
        for (seat, g) in Seat::all(self.groups.len()).zip(self.groups.iter_mut()) {
            let s = seat.index();
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
            if Some(seat) == obs.viewer {
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

mod replay;
#[cfg(test)]
mod tests;
