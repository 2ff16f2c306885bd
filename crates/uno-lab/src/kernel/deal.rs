//! The kernel's deal: the whole deck, the dealer, the hands and the first card turned, drawing
//! the random numbers `Game::restart` draws for a fast game, in the same order.

use rand::{Rng, SeedableRng};
use uno::game::SimRng;
use uno::rules::{FirstPlayer, MAX_PLAYERS};
use uno::FirstEffect;

use super::{Phase, RandomKernel};

impl RandomKernel {
    /// `Game::restart` for a fast game: the whole deck, the dealer, the deal, the first card.
    pub(super) fn deal(&mut self, seed: u64) {
        let n = self.players;
        self.rng = SimRng::seed_from_u64(seed);
        for (s, bot) in self.bots.iter_mut().enumerate().take(n) {
            *bot = SimRng::seed_from_u64(seeding::sim_bot_seed(seed, s));
        }
        self.pile.clear();
        self.pile.extend_from_slice(&self.deck);
        self.discard.clear();
        for s in 0..n {
            self.counts[s] = [0; 64];
            self.kinds[s] = 0;
            self.sizes[s] = 0;
        }
        self.dealer = match self.first_player {
            FirstPlayer::Seat0 => n - 1,
            FirstPlayer::AfterDealer => self.rng.gen_range(0..n),
        };
        self.clockwise = self.start_clockwise;
        self.phase = Phase::Play;
        self.pending = 0;
        self.uno_called = 0;
        self.acted = false;
        self.dead_turns = 0;
        self.turns = 0;
        self.seat_turns = [0; MAX_PLAYERS];
        self.over = false;
        self.winner = None;
        for _ in 0..self.hand_size {
            for s in 0..n {
                if let Some(c) = self.pop_draw() {
                    self.push(s, c);
                }
            }
        }
        self.current = self.dealer;
        self.current = self.next_seat(1);
        self.turn_first_card();
    }

    fn turn_first_card(&mut self) {
        let card = loop {
            let Some(card) = self.pop_draw() else {
                return;
            };
            let refused = |c: u8| self.effect[c as usize & 63].first_refused;
            let back = refused(card) && self.pile.iter().any(|&c| !refused(c));
            if !back {
                break card;
            }
            self.pile.push(card);
        };
        self.discard.push(card);
        self.color = if card >= 52 { self.colors[0] } else { card / 13 };
        match self.effect[card as usize & 63].first {
            FirstEffect::None => {}
            FirstEffect::ChooseColor => self.phase = Phase::ChooseColor,
            FirstEffect::RandomColor => self.color = self.colors[self.rng.gen_range(0..self.colors.len())],
            FirstEffect::Skip => self.current = self.next_seat(1),
            FirstEffect::Reverse => {
                self.clockwise = !self.clockwise;
                self.current = self.dealer;
            }
            FirstEffect::DrawTwo => {
                self.give(self.current, 2);
                self.acted = false;
                self.current = self.next_seat(1);
            }
            FirstEffect::DrawTwoThenPlay => {
                self.give(self.current, 2);
                self.acted = false;
            }
        }
    }
}
