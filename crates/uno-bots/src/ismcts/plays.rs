//! The other seats' plays since their last draw, as a test of a dealt world (`infer_plays`).
//!
//! The `heuristic` bot has no randomness: what it plays is a function of its hand and the
//! public position. So against players who follow its rules, every play they made is a fact
//! about their hands. Since a seat last took a card (a draw or a penalty), its hand has only
//! lost cards, and every one of those is public: its hand at each of those plays is its hand
//! now plus the cards it played from then on. A world is tested by dealing each seat that hand
//! at each of those plays and asking whether the heuristic could have made the play
//! ([`heuristic::could_play`]); each play it could not have made is a misfit.
//!
//! The search deals a few worlds and keeps the one with the fewest misfits ([`deal_fitting`]):
//! a soft version of rejection sampling that never loops long, and that still prefers worlds
//! closer to the history when none fits it exactly (a player following other rules).

use uno::game::{Game, SimRng};
use uno::sample::Sampler;
use uno::{Action, Card, CardSet, Color, Direction, Phase, Seat};
use uno_nn::observe::AnyView;

use crate::any_view::{AnyViewExt, ColorList};
use crate::heuristic::{self, HeuristicConfig};

/// A seat's play from its hand, in the public position it was made in.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Past {
    pub(crate) seat: Seat,
    pub(crate) card: Card,
    pub(crate) top: Card,
    /// The colour in play; `None` when it is not known (another seat's wild under it): the
    /// play still counts out of the hand, but is not tested.
    pub(crate) color: Option<Color>,
    /// The colour a wild named, when it is public (the next card played, or the colour in
    /// play at the bot's decision when nothing was played on it).
    pub(crate) named: Option<Color>,
    pub(crate) direction: Direction,
    /// Every seat's hand size before the play.
    pub(crate) sizes: Vec<usize>,
}

/// Per seat, its plays from its hand since it last took a card, oldest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlayLog {
    seats: Vec<Vec<Past>>,
}

impl PlayLog {
    /// Forgets every play, for a table of `players` seats.
    pub(crate) fn clear(&mut self, players: usize) {
        self.seats.clear();
        self.seats.resize(players, Vec::new());
    }

    pub(crate) fn players(&self) -> usize {
        self.seats.len()
    }

    /// Remembers a play from a hand (seats outside the table are ignored).
    pub(crate) fn record(&mut self, past: Past) {
        if let Some(log) = self.seats.get_mut(past.seat.index()) {
            log.push(past);
        }
    }

    /// Keeps only the plays whose hand is still known: the seat's hand `sizes` now is the hand
    /// of that play less that play and the later ones, so it took no card since. The viewer's
    /// own plays are not kept (its hand is no secret to it).
    pub(crate) fn prune(&mut self, sizes: &[usize], viewer: Option<Seat>) {
        for (seat, log) in Seat::all(self.seats.len()).zip(self.seats.iter_mut()) {
            let s = seat.index();
            if Some(seat) == viewer {
                log.clear();
                continue;
            }
            let now = sizes.get(s).copied().unwrap_or(0);
            let k = log.len();
            let mut j = 0;
            log.retain(|p| {
                let later = k - j;
                j += 1;
                p.sizes.get(s).is_some_and(|&n| n == now + later)
            });
        }
    }

    /// Whether any play can be tested.
    pub(crate) fn testable(&self) -> bool {
        self.seats.iter().flatten().any(|p| p.color.is_some())
    }

    /// The plays the hands of `world` could not have made, for players who follow the
    /// heuristic's rules `cfg`. `hand` is a buffer.
    pub(crate) fn misfits(&self, world: &Game, cfg: &HeuristicConfig, hand: &mut Vec<Card>) -> u32 {
        let mut misfits = 0;
        for (seat, log) in Seat::all(self.seats.len()).zip(self.seats.iter()) {
            if log.is_empty() || seat.index() >= world.players() {
                continue;
            }
            hand.clear();
            hand.extend_from_slice(world.hand(seat));
            // The kinds held, grown with the hand rather than gathered from it at each play.
            let mut held = world.hands()[seat.index()].kinds();
            for p in log.iter().rev() {
                hand.push(p.card);
                held.insert(p.card);
                if let Some(color) = p.color {
                    if !heuristic::could_play(cfg, &PastTurn { past: p, color, hand, held }, p.card, p.named) {
                        misfits += 1;
                    }
                }
            }
        }
        misfits
    }
}

/// Deals `world` from `sampler`, up to `1 + resamples` times while the deal has misfits, and
/// leaves in it the first deal with the fewest (dealt again from the generator's state that
/// gave it). Returns the number of deals beyond the first, that state (dealing from a copy of
/// it deals the same world again, with no test) and the misfits of the world left.
pub(crate) fn deal_fitting(
    sampler: &mut Sampler,
    rng: &mut SimRng,
    world: &mut Game,
    log: &PlayLog,
    cfg: &HeuristicConfig,
    hand: &mut Vec<Card>,
    resamples: u32,
) -> (u32, SimRng, u32) {
    let mut best: Option<(u32, SimRng)> = None;
    let mut last = u32::MAX;
    let mut tries = 0;
    while tries <= resamples {
        let state = rng.clone();
        sampler.sample_into(rng, world);
        last = log.misfits(world, cfg, hand);
        if best.as_ref().is_none_or(|(m, _)| last < *m) {
            best = Some((last, state));
        }
        if last == 0 {
            break;
        }
        tries += 1;
    }
    let Some((m, state)) = best else { return (0, rng.clone(), last) };
    if m < last {
        sampler.sample_into(&mut state.clone(), world);
    }
    (tries.min(resamples), state, m)
}

/// A past play as its player saw it, with a hand it may have held.
pub(crate) struct PastTurn<'a> {
    pub(crate) past: &'a Past,
    pub(crate) color: Color,
    pub(crate) hand: &'a [Card],
    /// The kinds of `hand`.
    pub(crate) held: CardSet,
}

impl AnyView for PastTurn<'_> {
    fn seat(&self) -> Seat {
        self.past.seat
    }
    fn players(&self) -> usize {
        self.past.sizes.len()
    }
    fn hand(&self) -> &[Card] {
        self.hand
    }
    fn hand_size(&self, seat: Seat) -> usize {
        if seat == self.past.seat {
            self.hand.len()
        } else {
            self.past.sizes.get(seat.index()).copied().unwrap_or(0)
        }
    }
    fn top(&self) -> Card {
        self.past.top
    }
    fn color(&self) -> Option<Color> {
        Some(self.color)
    }
    fn current(&self) -> Seat {
        self.past.seat
    }
    fn direction(&self) -> Direction {
        self.past.direction
    }
    fn phase(&self) -> Phase {
        Phase::Play
    }
    fn pending_draw(&self) -> u32 {
        0
    }
    fn drawn_card(&self) -> Option<Card> {
        None
    }
    fn discard(&self) -> &[Card] {
        std::slice::from_ref(&self.past.top)
    }
    fn draw_pile_size(&self) -> usize {
        0
    }
    fn uno_called(&self, _seat: Seat) -> bool {
        false
    }
    fn uno_exposed(&self) -> Option<Seat> {
        None
    }
}

impl AnyViewExt for PastTurn<'_> {
    fn is_legal(&self, action: Action) -> bool {
        match action {
            Action::Play { card, .. } => self.playable().contains(card),
            _ => false,
        }
    }
    fn playable(&self) -> CardSet {
        // The rule book's matching rule on the hand as it was; a past position is one where
        // the seat played from its hand, so no penalty was pending.
        uno::effect::matching_plays(self.held, self.past.top, self.color, false)
    }
    fn wild_colors(&self) -> ColorList {
        ColorList::ALL
    }
}
