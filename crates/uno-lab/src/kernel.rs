//! The simulation kernel: whole rounds of a table where every seat is the `random` bot,
//! played on a compact state of its own instead of through `Game` and `RandomBot`.
//!
//! A random table is the speed benchmark's workload (it is the policy behind the peer
//! engines' figures), and there the general engine's generality is most of the cost: a
//! `Phase` machine with every house rule's branches, `Action` values built and matched, a
//! `View` and the rules behind an `Arc` on every decision. The kernel keeps what a random
//! table can reach and nothing else: hands as per-kind counts beside a 64-bit set of held
//! kinds, piles of card indices, the rules flattened into tables and flags.
//!
//! Its hands are not the engine's `uno::Hand`: on `Hand` the same kernel played 65% of the games
//! a second (`docs/simulator.md`, "Tried and dropped"), so the per-kind counts stay.
//!
//! It is not a second rule book. It plays *the same games* as [`Game::new_fast`] with one
//! [`RandomBot`](uno_bots::RandomBot) per seat: the same deal, the same random numbers drawn in
//! the same order from the same generators, hence the same winner, points, turns and
//! decisions for every seed. `tests/kernel.rs` checks exactly that, game by game, on every
//! preset and player count it supports; [`RandomKernel::supports`] names the rules it covers
//! (no stacking, no 7–0, no jump-in: the rules where a random table's decisions are the ones
//! below), and the runner falls back to the general engine for everything else.
//!
//! [`Game::new_fast`]: uno::Game::new_fast

use rand::SeedableRng;
use uno::game::SimRng;
use uno::rules::{
    DealConfig, DrawRule, Exhausted, FirstCard, FirstPlayer, ForcedPlay, JumpIn, MultiPlay, PlayConfig, SevenZero,
    Stacking, TwoPlayerRule, UnoCall, UnoConfig, WildDrawFourRule, MAX_PLAYERS,
};
use uno::{Card, CardEffect, CardSet, Color, Direction, Rules};

use crate::MAX_DECISIONS;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Play,
    /// The first card was a wild: the first player names the colour.
    ChooseColor,
    /// The current player drew `drawn` and may play it.
    Drawn,
    /// A Wild Draw Four waits for the current player to accept (a random bot never challenges).
    Challenge,
}

/// How one round ended, for the runner's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The seat that went out; `None` after a stalemate or the turn cap.
    pub winner: Option<usize>,
    /// What the winner scored: the points left in every hand.
    pub points: u32,
    /// Turns completed (what `Game::turns` reports at the end).
    pub turns: u32,
    /// Decisions taken, UNO calls and colour choices included.
    pub decisions: u32,
    /// Turns each seat completed.
    pub seat_turns: [u32; MAX_PLAYERS],
    /// Abandoned after `MAX_DECISIONS` decisions.
    pub stuck: bool,
}

/// A reusable random table: build it once per thread, then [`RandomKernel::play`] round
/// after round without allocating.
pub struct RandomKernel {
    // ---- the rules, flattened ----
    players: usize,
    hand_size: usize,
    deck: Vec<u8>,
    points: [u32; 64],
    /// The rules' own effect table for this table size (see [`uno::effect`]).
    effect: [CardEffect; 64],
    /// The kinds of each colour, by colour index (the restricted Wild Draw Four asks whether
    /// the hand holds the colour, as `Game::playable` does).
    color_mask: [u64; 4],
    colors: Vec<u8>,
    first_player: FirstPlayer,
    start_clockwise: bool,
    draw_rule: DrawRule,
    wd4: WildDrawFourRule,
    uno_calls: bool,
    reshuffle: bool,
    turn_cap: u32,
    /// `advance[clockwise][steps]`: how far round the table `steps` places lie (mod n), as
    /// [`uno::next_seat`] counts them from seat 0; kept as a table so a turn costs no division.
    advance: [[usize; 3]; 2],

    // ---- the round ----
    rng: SimRng,
    bots: [SimRng; MAX_PLAYERS],
    /// Unordered: a draw takes a uniformly random card of it, as a fast `Game` does.
    pile: Vec<u8>,
    /// Top card last.
    discard: Vec<u8>,
    counts: [[u8; 64]; MAX_PLAYERS],
    kinds: [u64; MAX_PLAYERS],
    sizes: [u32; MAX_PLAYERS],
    color: u8,
    current: usize,
    dealer: usize,
    clockwise: bool,
    phase: Phase,
    pending: u32,
    drawn: u8,
    // A full word: the compiler reads it whole, and a load wider than the last store to it
    // cannot be forwarded from the store buffer (a stall on every turn when it was a u16).
    uno_called: u32,
    acted: bool,
    dead_turns: usize,
    turns: u32,
    seat_turns: [u32; MAX_PLAYERS],
    over: bool,
    winner: Option<usize>,
}

impl RandomKernel {
    /// Whether the kernel plays random tables of these rules exactly as the engine does.
    ///
    /// Every rule of the deal, play and UNO sections is named, each choice matched without a
    /// wildcard: a rule added to the rule book fails to compile here until the kernel decides
    /// whether it plays it (or refuses it, and the runner uses the engine).
    pub fn supports(rules: &Rules, players: usize) -> bool {
        let DealConfig { hand_size: _, first_player, direction: _, first_card } = &rules.config().deal;
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
        let UnoConfig { call, penalty: _, false_call_penalty: _ } = &rules.config().uno;
        // What the kernel plays itself, or reads from the rules' tables (first-card effects,
        // the two-player Reverse).
        let plays = [
            match first_player {
                FirstPlayer::AfterDealer | FirstPlayer::Seat0 => true,
            },
            match first_card {
                FirstCard::Official
                | FirstCard::NoEffect
                | FirstCard::RedrawUntilNumber
                | FirstCard::RedrawWilds
                | FirstCard::Rlcard => true,
            },
            match draw {
                DrawRule::DrawOneMayPlay
                | DrawRule::DrawOneMustPlay
                | DrawRule::DrawOneEndTurn
                | DrawRule::DrawUntilPlayable => true,
                // RLCard's draw (a drawn wild or card of the colour is played at once) is the
                // engine's alone.
                DrawRule::DrawOneAutoPlay => false,
            },
            match two_players {
                TwoPlayerRule::ReverseSkips | TwoPlayerRule::ReverseReverses => true,
            },
            match exhausted_draw_pile {
                Exhausted::Reshuffle | Exhausted::NoReshuffle => true,
            },
            match call {
                UnoCall::Off | UnoCall::Required => true,
            },
        ];
        let forced = match forced_play {
            // A random bot plays when it can, so forced play changes nothing at its table.
            ForcedPlay::Optional | ForcedPlay::Required => true,
            // The precedence picks the card, not the bot's random number.
            ForcedPlay::Precedence => false,
        };
        let stacking = match stacking {
            Stacking::Off => true,
            Stacking::DrawTwo | Stacking::WildDrawFour | Stacking::Both | Stacking::Cross => false,
        };
        let wd4 = match wild_draw_four {
            WildDrawFourRule::Unrestricted | WildDrawFourRule::Restricted | WildDrawFourRule::Challenge => true,
            // RLCard's last-resort Wild Draw Four is the engine's alone.
            WildDrawFourRule::LastResort => false,
        };
        let others = match (jump_in, seven_zero, multi_play) {
            (JumpIn::Off, SevenZero::Off, MultiPlay::Off) => true,
            (JumpIn::On, _, _) | (_, SevenZero::On, _) | (_, _, MultiPlay::SameNumber) => false,
        };
        plays.iter().all(|&p| p)
            && forced
            && stacking
            && wd4
            && others
            && rules.check_players(players).is_ok()
            && rules.colors().len() <= 4
            // A deal that leaves no card to turn up is the general engine's business.
            && rules.deck().len() > players * rules.hand_size()
    }

    /// A table for `players` random bots under `rules`; `None` when [`supports`] says no.
    ///
    /// [`supports`]: RandomKernel::supports
    pub fn new(rules: &Rules, players: usize) -> Option<RandomKernel> {
        if !RandomKernel::supports(rules, players) {
            return None;
        }
        let mut points = [0u32; 64];
        for card in Card::all() {
            points[card.index()] = rules.points(card);
        }
        // 64 entries, not `Card::KINDS`: a card index masked to 6 bits needs no bounds check.
        let mut effect = [CardEffect::default(); 64];
        effect[..Card::KINDS].copy_from_slice(rules.effects(players));
        Some(RandomKernel {
            players,
            hand_size: rules.hand_size(),
            deck: rules.deck().iter().map(|c| c.index() as u8).collect(),
            points,
            effect,
            color_mask: Color::ALL.map(|c| CardSet::of_color(c).bits()),
            colors: rules.colors().iter().map(|c| c.index() as u8).collect(),
            first_player: rules.first_player(),
            start_clockwise: rules.direction() == Direction::Clockwise,
            draw_rule: rules.draw_rule(),
            wd4: rules.wild_draw_four(),
            uno_calls: rules.uno_call() != UnoCall::Off,
            reshuffle: rules.exhausted() == Exhausted::Reshuffle,
            // Both end the game without a winner; the kernel does not tell the reasons apart.
            turn_cap: rules.turn_limit(),
            advance: [Direction::CounterClockwise, Direction::Clockwise]
                .map(|d| [0, 1, 2].map(|steps| uno::next_seat(0, d, players, steps))),
            rng: SimRng::seed_from_u64(0),
            bots: std::array::from_fn(|_| SimRng::seed_from_u64(0)),
            pile: Vec::with_capacity(rules.deck().len()),
            discard: Vec::with_capacity(rules.deck().len()),
            counts: [[0; 64]; MAX_PLAYERS],
            kinds: [0; MAX_PLAYERS],
            sizes: [0; MAX_PLAYERS],
            color: 0,
            current: 0,
            dealer: 0,
            clockwise: true,
            phase: Phase::Play,
            pending: 0,
            drawn: 0,
            uno_called: 0,
            acted: false,
            dead_turns: 0,
            turns: 0,
            seat_turns: [0; MAX_PLAYERS],
            over: false,
            winner: None,
        })
    }

    /// Plays the round `Game::new_fast(rules, players, seed)` deals, every seat a
    /// `RandomBot` seeded `seeding::sim_bot_seed(seed, seat)`, as the simulation runner seats them.
    pub fn play(&mut self, seed: u64) -> Round {
        self.deal(seed);
        let mut round = Round::default();
        let mut decisions = 0u32;
        while !self.over {
            // A whole turn at once takes at most four decisions; near the cap, go one
            // decision at a time so a stuck round stops exactly where the engine's would.
            if decisions + 4 > MAX_DECISIONS {
                while !self.over {
                    if decisions >= MAX_DECISIONS {
                        round.stuck = true;
                        break;
                    }
                    decisions += 1;
                    self.decide(self.current);
                }
                break;
            }
            let seat = self.current;
            decisions += match self.phase {
                Phase::Play => self.turn(seat),
                _ => {
                    self.decide(seat);
                    1
                }
            };
        }
        round.seat_turns = self.seat_turns;
        round.winner = self.winner;
        round.points = match self.winner {
            Some(_) => self.points_in_hands(),
            None => 0,
        };
        round.turns = self.turns;
        round.decisions = decisions;
        round
    }

    /// The decisions of `seat`'s turn from the `Play` phase, run together: an UNO call, a
    /// play or a draw, and after a draw an UNO call and playing or keeping the drawn card,
    /// in the order `decide` would take them one by one. Returns how many it took.
    #[inline]
    fn turn(&mut self, seat: usize) -> u32 {
        let bit = 1u32 << seat;
        let mut taken = 1 + self.call_uno(seat, bit);
        let playable = self.playable(seat);
        if playable != 0 {
            let k = self.bots[seat].below(playable.count_ones() as usize);
            self.play_card(seat, nth_bit(playable, k));
            return taken;
        }
        if self.draw_rule == DrawRule::DrawOneMayPlay {
            // The official draw, inline: one card, then a decision about it.
            let Some(card) = self.draw_one() else {
                self.uno_called &= !bit;
                self.end_turn(0);
                return taken;
            };
            self.push(seat, card);
            self.acted = true;
            self.uno_called &= !bit;
            self.drawn = card;
        } else {
            self.draw(seat);
            if self.phase != Phase::Drawn {
                return taken;
            }
            self.phase = Phase::Play;
        }
        taken += 1 + self.call_uno(seat, bit);
        self.play_or_keep_drawn(seat);
        taken
    }

    /// After a draw: play the drawn card if it may go, else keep it and end the turn.
    #[inline]
    fn play_or_keep_drawn(&mut self, seat: usize) {
        let card = self.drawn;
        if self.is_playable(seat, card) {
            // The bot picks among one card: a random number all the same.
            self.bots[seat].below(1);
            self.play_card(seat, card);
        } else {
            self.end_turn(0);
        }
    }

    /// A random bot calls UNO for itself whenever it may: on its turn, at two cards or
    /// fewer, not yet called. Returns the decisions that took (0 or 1), without a branch.
    #[inline]
    fn call_uno(&mut self, seat: usize, bit: u32) -> u32 {
        // Only ever asked on the seat's own turn, and a random bot is never exposed.
        let may = uno::effect::may_call_uno(self.uno_called & bit != 0, true, self.sizes[seat] as usize, false);
        let call = (self.uno_calls & may) as u32;
        self.uno_called |= bit * call;
        call
    }

    /// One decision of the seat to move, exactly as `RandomBot::choose_view` takes it,
    /// applied as `Game::apply_unchecked` applies it.
    #[inline]
    fn decide(&mut self, seat: usize) {
        let bit = 1u32 << seat;
        match self.phase {
            Phase::ChooseColor => {
                let k = self.bots[seat].below(self.colors.len());
                self.color = self.colors[k];
                self.phase = Phase::Play;
            }
            // Accepting: the pending cards, and the turn is over.
            Phase::Challenge => {
                let n = std::mem::take(&mut self.pending);
                self.give(seat, n);
                self.end_turn(0);
            }
            Phase::Play => {
                if self.call_uno(seat, bit) == 1 {
                    return;
                }
                let playable = self.playable(seat);
                if playable == 0 {
                    self.draw(seat);
                    return;
                }
                let k = self.bots[seat].below(playable.count_ones() as usize);
                self.play_card(seat, nth_bit(playable, k));
            }
            Phase::Drawn => {
                if self.call_uno(seat, bit) == 0 {
                    self.play_or_keep_drawn(seat);
                }
            }
        }
    }

    /// The kinds in `seat`'s hand that may go on the pile now.
    #[inline]
    fn playable(&self, seat: usize) -> u64 {
        let held = self.kinds[seat];
        let top = self.top() as usize;
        let colour = self.color_mask[self.color as usize & 3];
        // The engine's matching table, by index (`CardSet::matching_by_index`).
        let mut set = held & CardSet::matching_by_index(top, self.color as usize).bits();
        if self.wd4 == WildDrawFourRule::Restricted && held & colour != 0 {
            set &= !(1u64 << Card::WILD_DRAW_FOUR.index());
        }
        set
    }

    #[inline]
    fn is_playable(&self, seat: usize, card: u8) -> bool {
        self.playable(seat) & (1u64 << card) != 0
    }

    #[inline]
    fn top(&self) -> u8 {
        self.discard.last().copied().unwrap_or(0)
    }

    fn play_card(&mut self, seat: usize, card: u8) {
        // A wild's colour is the bot's second random number of the decision.
        let is_wild = card as usize >= 52;
        self.color = if is_wild { self.colors[self.bots[seat].below(self.colors.len())] } else { card / 13 };
        self.take(seat, card);
        self.discard.push(card);
        self.acted = true;
        let left = self.sizes[seat];
        // Going down to one card uncalled would expose the seat, but a random bot calls UNO
        // before every decision at two cards or fewer, so its calls never leave a window.
        self.uno_called &= !((left > 1) as u32 * (1 << seat));
        let effect = self.effect[card as usize];
        if left == 0 {
            // Going out on a draw card still makes the next player draw; those cards score.
            if effect.out_draw > 0 {
                let victim = self.next_seat(1);
                let n = std::mem::take(&mut self.pending) + effect.out_draw as u32;
                self.give(victim, n);
            }
            self.turns += 1;
            self.seat_turns[seat] += 1;
            self.over = true;
            self.winner = Some(seat);
            return;
        }
        // From a table rather than a `match` on the face: which card a random bot plays is
        // a coin toss the branch predictor cannot learn, and the common case (a plain card)
        // goes through the same straight line as the rest.
        self.clockwise ^= effect.flip;
        if effect.challenge {
            self.pending += effect.penalty as u32;
            self.end_turn(0);
            if !self.over {
                self.phase = Phase::Challenge;
            }
            return;
        }
        // Without stacking (see `supports`) every other penalty is drawn at once.
        if effect.penalty > 0 {
            let victim = self.next_seat(1);
            self.give(victim, effect.penalty as u32);
        }
        self.end_turn(effect.skip as usize);
    }

    /// A turn's draw (no penalty is ever pending in the `Play` phase without stacking).
    fn draw(&mut self, seat: usize) {
        let mut drawn = None;
        while let Some(card) = self.draw_one() {
            self.push(seat, card);
            self.acted = true;
            drawn = Some(card);
            if self.draw_rule != DrawRule::DrawUntilPlayable || self.is_playable(seat, card) {
                break;
            }
        }
        self.uno_called &= !(1 << seat);
        let Some(card) = drawn else {
            self.end_turn(0);
            return;
        };
        let decide = match self.draw_rule {
            DrawRule::DrawOneMayPlay => true,
            DrawRule::DrawUntilPlayable | DrawRule::DrawOneMustPlay => self.is_playable(seat, card),
            // `supports` refuses the auto-play draw: it never gets here.
            DrawRule::DrawOneEndTurn | DrawRule::DrawOneAutoPlay => false,
        };
        if decide {
            self.drawn = card;
            self.phase = Phase::Drawn;
        } else {
            self.end_turn(0);
        }
    }

    fn give(&mut self, seat: usize, n: u32) {
        let mut count = 0;
        for _ in 0..n {
            let Some(card) = self.draw_one() else {
                break;
            };
            self.push(seat, card);
            count += 1;
        }
        if count > 0 {
            self.acted = true;
            self.uno_called &= !(1 << seat);
        }
    }

    #[inline]
    fn draw_one(&mut self) -> Option<u8> {
        if self.pile.is_empty() {
            if !self.reshuffle || self.discard.len() < 2 {
                return None;
            }
            let top = self.discard.pop()?;
            std::mem::swap(&mut self.pile, &mut self.discard);
            self.discard.push(top);
        }
        self.pop_draw()
    }

    /// A uniformly random card of the unordered pile (see `Game::pop_draw`).
    #[inline]
    fn pop_draw(&mut self) -> Option<u8> {
        let n = self.pile.len();
        if n > 1 {
            let i = self.rng.below(n);
            self.pile.swap(i, n - 1);
        }
        self.pile.pop()
    }

    #[inline]
    fn push(&mut self, seat: usize, card: u8) {
        self.counts[seat][card as usize & 63] += 1;
        self.kinds[seat] |= 1 << (card & 63);
        self.sizes[seat] += 1;
    }

    #[inline]
    fn take(&mut self, seat: usize, card: u8) {
        let c = &mut self.counts[seat][card as usize & 63];
        *c -= 1;
        if *c == 0 {
            self.kinds[seat] &= !(1 << (card & 63));
        }
        self.sizes[seat] -= 1;
    }

    /// The seat `steps` (0–2) places on in the direction of play, without a division.
    #[inline]
    fn next_seat(&self, steps: usize) -> usize {
        let n = self.players;
        let forward = self.advance[self.clockwise as usize][steps.min(2)];
        let s = self.current + forward;
        if s >= n {
            s - n
        } else {
            s
        }
    }

    #[inline]
    fn end_turn(&mut self, skip: usize) {
        self.turns += 1;
        self.seat_turns[self.current] += 1;
        self.phase = Phase::Play;
        self.dead_turns = (self.dead_turns + 1) * (!self.acted) as usize;
        self.acted = false;
        self.current = self.next_seat(1 + skip);
        if self.dead_turns >= self.players || self.turns >= self.turn_cap {
            self.over = true;
        }
    }

    fn points_in_hands(&self) -> u32 {
        let mut total = 0;
        for seat in 0..self.players {
            let mut kinds = self.kinds[seat];
            while kinds != 0 {
                let k = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                total += self.points[k] * self.counts[seat][k] as u32;
            }
        }
        total
    }
}

/// The index of the `k`-th set bit of `bits` (`k < bits.count_ones()`), as a card index.
#[inline]
fn nth_bit(mut bits: u64, k: usize) -> u8 {
    // A loop: `k` is small (few kinds of a hand are playable at once); a branch-free select
    // (byte popcounts and a table, or unrolled conditional clears) measured slower here.
    for _ in 0..k {
        bits &= bits.wrapping_sub(1);
    }
    bits.trailing_zeros() as u8
}

mod deal;
#[cfg(test)]
mod tests;
