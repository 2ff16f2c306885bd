//! What a seat sees, behind one trait for both of its forms: the owned [`Observation`] and the
//! borrowed [`View`]. A bot written against [`AnyViewExt`] answers alike through `choose` and
//! `choose_view` by construction, and pays nothing for it on the hot path.
//!
//! The seat's hand and the public state are read through `uno_nn`'s [`AnyView`], the one place
//! that reads them from either form (the encoder reads the same); [`AnyViewExt`] adds what a policy
//! asks besides. It lives beside the bots, not in `uno`: the engine gives the two forms; what a
//! policy asks of them (the 7–0 swap's choice, "may I call UNO for myself") is the bots'
//! vocabulary.

use uno::game::View;
use uno::{Action, CardSet, Color, Observation, Seat};
use uno_nn::observe::AnyView;

/// What a policy asks of what its seat sees, on top of the seat's own hand and the public state
/// ([`AnyView`], the encoder's too).
pub trait AnyViewExt: AnyView {
    fn is_legal(&self, action: Action) -> bool;
    /// The card kinds this seat may play now (the cards of the legal `Play` actions).
    fn playable(&self) -> CardSet;
    /// The colours a wild may name now, in the rules' order (under seed 000's precedence the
    /// marker colour alone).
    fn wild_colors(&self) -> ColorList;

    /// The 7–0 swap both rule-following bots make: the smallest other hand, the first in seat
    /// order on a tie.
    fn smallest_other_hand(&self) -> Seat {
        let me = self.seat();
        Seat::all(self.players()).filter(|&o| o != me).min_by_key(|&o| self.hand_size(o)).unwrap_or(me)
    }

    /// The seat `steps` places after the current one in the direction of play.
    fn after_current(&self, steps: usize) -> Seat {
        self.current().step(self.direction(), self.players(), steps)
    }

    /// Whether calling UNO now is a call for this seat itself (never a catch or a false call).
    fn can_call_own_uno(&self) -> bool {
        let me = self.seat();
        let own_turn = me == self.current() && self.phase().is_own_turn();
        uno::effect::may_call_uno(self.uno_called(me), own_turn, self.hand().len(), self.uno_exposed() == Some(me))
            && self.is_legal(Action::CallUno)
    }

    /// The seat this one may catch now for not calling UNO, if any.
    fn catch_target(&self) -> Option<Seat> {
        let me = self.seat();
        self.uno_exposed().filter(|&s| s != me && self.is_legal(Action::CatchUno { seat: s }))
    }
}

/// Up to four colours, inline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColorList {
    colors: [Option<Color>; 4],
}

impl ColorList {
    /// Every colour, in [`Color::ALL`]'s order.
    pub(crate) const ALL: ColorList = {
        let [a, b, c, d] = Color::ALL;
        ColorList { colors: [Some(a), Some(b), Some(c), Some(d)] }
    };

    /// The first four of `colors`, known to be distinct (the rules' colours, or one of them):
    /// copied without a test for repeats.
    pub(crate) fn of_distinct(colors: &[Color]) -> ColorList {
        let mut out = ColorList::default();
        for (slot, &c) in out.colors.iter_mut().zip(colors) {
            *slot = Some(c);
        }
        out
    }

    pub(crate) fn push(&mut self, c: Color) {
        if self.colors.contains(&Some(c)) {
            return;
        }
        if let Some(slot) = self.colors.iter_mut().find(|s| s.is_none()) {
            *slot = Some(c);
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = Color> + '_ {
        self.colors.iter().map_while(|c| *c)
    }
    pub fn first(&self) -> Option<Color> {
        self.colors[0]
    }
}

impl FromIterator<Color> for ColorList {
    fn from_iter<I: IntoIterator<Item = Color>>(colors: I) -> ColorList {
        let mut out = ColorList::default();
        for c in colors {
            out.push(c);
        }
        out
    }
}

impl AnyViewExt for Observation {
    fn is_legal(&self, action: Action) -> bool {
        self.legal_actions.contains(&action)
    }
    fn playable(&self) -> CardSet {
        let mut set = CardSet::EMPTY;
        for a in &self.legal_actions {
            if let Action::Play { card, .. } = a {
                set.insert(*card);
            }
        }
        set
    }
    /// The colours of the legal wild plays and declarations (the engine's
    /// [`View::colors_to_name`], as the observation lists them), or the rules' colours when no
    /// wild may be played now.
    fn wild_colors(&self) -> ColorList {
        let named: ColorList = self
            .legal_actions
            .iter()
            .filter_map(|a| match *a {
                Action::Play { color: Some(c), .. } | Action::DeclareColor { color: c } => Some(c),
                _ => None,
            })
            .collect();
        if named.first().is_some() {
            named
        } else {
            self.rules.colors().iter().copied().collect()
        }
    }
}

impl AnyViewExt for View<'_> {
    fn is_legal(&self, action: Action) -> bool {
        View::is_legal(self, action)
    }
    /// The engine's own answer ([`View::can_call_own_uno`]): the same as the trait's (the
    /// call is legal exactly when the seat may call for itself and the round is on), without
    /// validating a `CallUno` action on every decision.
    fn can_call_own_uno(&self) -> bool {
        View::can_call_own_uno(self)
    }
    fn playable(&self) -> CardSet {
        View::playable(self)
    }
    fn wild_colors(&self) -> ColorList {
        // The rules' colours are distinct (`Rules::new` refuses repeats), and so is one of them.
        ColorList::of_distinct(self.colors_to_name())
    }
}
