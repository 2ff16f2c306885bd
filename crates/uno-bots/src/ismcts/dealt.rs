//! What a bot's searches dealt to the other hands, for measuring its beliefs.

use uno::{Card, Game, Seat};

/// How often the worlds of the last search dealt each card kind to each seat: what the search
/// believed of the hidden hands. Counted only when asked for ([`IsmctsBot::watch_beliefs`](super::IsmctsBot::watch_beliefs)),
/// as it costs a pass over the hands of every world.
#[derive(Clone, Debug, Default)]
pub(super) struct Dealt {
    pub(super) on: bool,
    worlds: u32,
    /// `[seat][kind]`: worlds whose hand for the seat held the kind.
    held: Vec<[u32; Card::KINDS]>,
}

impl Dealt {
    pub(super) fn clear(&mut self) {
        self.worlds = 0;
        self.held.clear();
    }

    pub(super) fn count(&mut self, world: &Game, me: Seat) {
        if !self.on {
            return;
        }
        self.worlds += 1;
        if self.held.len() != world.players() {
            self.held.clear();
            self.held.resize(world.players(), [0; Card::KINDS]);
        }
        for (seat, held) in Seat::all(self.held.len()).zip(self.held.iter_mut()) {
            let s = seat.index();
            if seat == me || s >= world.players() {
                continue;
            }
            let mut seen = 0u64;
            for c in world.hand(seat) {
                if seen & (1u64 << c.index()) == 0 {
                    seen |= 1u64 << c.index();
                    held[c.index()] += 1;
                }
            }
        }
    }

    pub(super) fn share(&self, seat: Seat, card: Card) -> Option<f64> {
        let held = self.held.get(seat.index())?;
        (self.worlds > 0).then(|| f64::from(held[card.index()]) / f64::from(self.worlds))
    }
}
