//! Changing the state: applying actions, turns, rounds, the deal.

use crate::action::{Action, IllegalAction};
use crate::card::{Card, Color, Seat};
use crate::effect::{next_seat, CardEffect, FirstEffect, NumberEffect};
use crate::event::{DrawReason, EndReason, Event, Mute, Outcome, Sink};
use crate::hand::Hand;
use crate::rng::{shuffle, GameRng};
use rand::Rng;

use crate::rules::{DrawRule, Exhausted, FirstPlayer, UnoCall};

use super::legality::UnoMeaning;
use super::{Game, Phase};

impl Game {
    /// Validates and applies an action; returns the events, or the reason it was refused
    /// (then nothing changed).
    ///
    /// # Errors
    /// The [`IllegalAction`] that [`Game::check`] names; the game is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        self.check(seat, action)?;
        let mut events = Vec::new();
        self.step(seat, action, &mut events);
        Ok(events)
    }

    /// Applies an action known to be legal (from `legal_actions` or `check`), building no
    /// events. An illegal action here leaves the game in an unspecified but safe state.
    ///
    /// The contract: after [`Game::check`]`(seat, action)` returned `Ok` on this game, unchanged
    /// since, `apply_unchecked(seat, action)` leaves the game exactly as [`Game::apply`] would
    /// (every field, the generators' positions included), without validating a second time and
    /// without building the events. So a caller that validates and does not need the events
    /// (`uno sim --checked`) calls `check`, then this. `tests/golden.rs` in `uno-bots` plays
    /// every rule set both ways and compares the positions.
    #[inline]
    pub fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        self.step(seat, action, &mut Mute);
    }

    pub(super) fn step<S: Sink>(&mut self, seat: Seat, action: Action, sink: &mut S) {
        match action {
            Action::Play { card, color } => self.play(seat, card, color, sink),
            Action::Draw => self.draw(sink),
            Action::Pass => self.pass(seat, sink),
            Action::DeclareColor { color } => {
                self.state.color = color;
                self.state.phase = Phase::Play;
                sink.emit(|| Event::ColorDeclared { seat, color });
            }
            Action::Challenge => self.resolve_challenge(sink),
            Action::Accept => {
                self.close_uno_window();
                let n = std::mem::take(&mut self.state.pending);
                self.give(self.state.current, n, DrawReason::Penalty, sink);
                self.end_turn(0, sink);
            }
            Action::SwapHands { with } => {
                let (a, b) = (self.state.current.index(), with.index());
                self.state.hands.swap(a, b);
                self.state.uno_called &= !((1 << a) | (1 << b));
                sink.emit(|| Event::HandsSwapped { a: Seat(a as u8), b: with });
                self.end_turn(0, sink);
            }
            Action::CallUno | Action::CatchUno { .. } => match self.uno_meaning(seat, action) {
                Ok(UnoMeaning::Own) => {
                    self.call_own_uno(seat, true);
                    sink.emit(|| Event::UnoCalled { seat });
                }
                Ok(UnoMeaning::Catch(v)) => {
                    self.state.uno_exposed = None;
                    sink.emit(|| Event::UnoPenalty { seat: v, caught_by: seat });
                    self.give(v, self.rules.uno_penalty(), DrawReason::UnoPenalty, sink);
                }
                Ok(UnoMeaning::False) => {
                    sink.emit(|| Event::FalseUnoCall { seat });
                    self.give(seat, self.rules.false_call_penalty(), DrawReason::FalseUnoCall, sink);
                }
                Err(_) => {}
            },
            Action::NextRound => {
                if self.state.phase == Phase::RoundOver {
                    self.start_round(sink);
                }
            }
        }
    }

    /// `seat` passes: keeps the drawn card, or ends a same-number run.
    #[inline]
    pub(super) fn pass<S: Sink>(&mut self, seat: Seat, sink: &mut S) {
        // A player who went down to one card during a same-number run stays open to a catch
        // until the next player acts, not until they themselves pass.
        if self.state.uno_exposed != Some(seat) {
            self.close_uno_window();
        }
        if self.state.phase == Phase::SameNumber {
            sink.emit(|| Event::RunEnded { seat });
        } else {
            sink.emit(|| Event::Passed { seat });
        }
        self.end_turn(0, sink);
    }

    /// `seat` calls UNO for itself when `call` (the call known to be its own and legal).
    /// Without a branch on `call`: the fused turn asks at every turn whether a hand is down to
    /// two cards, which is a coin toss to the predictor.
    #[inline]
    pub(super) fn call_own_uno(&mut self, seat: Seat, call: bool) {
        self.state.uno_called |= u32::from(call) << seat.0;
        if call && self.state.uno_exposed == Some(seat) {
            self.state.uno_exposed = None;
        }
    }

    pub(super) fn close_uno_window(&mut self) {
        self.state.uno_exposed = None;
    }

    #[inline]
    pub(super) fn play<S: Sink>(&mut self, seat: Seat, card: Card, color: Option<Color>, sink: &mut S) {
        let effect = self.rules.effect(card, self.state.players);
        self.play_with(seat, card, color, effect, sink);
    }

    /// [`Game::play`] with the effect the card has this time: its own, or none for a wild that
    /// a draw plays at once (`DrawRule::DrawOneAutoPlay`).
    fn play_with<S: Sink>(&mut self, seat: Seat, card: Card, color: Option<Color>, effect: CardEffect, sink: &mut S) {
        let jump_in = seat != self.state.current;
        if jump_in {
            self.state.current = seat;
        }
        self.close_uno_window();
        let prev_color = self.state.color;
        let guilty = card == Card::WILD_DRAW_FOUR && self.holds_color(seat, prev_color);
        let hand = &mut self.state.hands[seat.index()];
        if !hand.take(card) {
            return;
        }
        let left = hand.len();
        self.state.discard.push(card);
        self.state.color = card.color().or(color).unwrap_or(prev_color);
        self.state.drawn = None;
        self.state.acted = true;
        sink.emit(|| Event::CardPlayed { seat, card, jump_in });
        if card.is_wild() {
            let c = self.state.color;
            sink.emit(|| Event::ColorDeclared { seat, color: c });
        }
        if left == 1 && !self.uno_called(seat) && self.rules.uno_call() == UnoCall::Required {
            self.state.uno_exposed = Some(seat);
        }
        if left > 1 {
            self.state.uno_called &= !(1 << seat.0);
        }
        if left == 0 {
            // Going out on a draw card still makes the next player draw; those cards score.
            if effect.out_draw > 0 {
                let victim = self.next_seat(1);
                let n = self.state.pending + u32::from(effect.out_draw);
                self.state.pending = 0;
                self.give(victim, n, DrawReason::Penalty, sink);
            }
            self.end_round(seat, sink);
            return;
        }
        // The house rules' effects of number cards, behind one test.
        if effect.number != NumberEffect::None && self.number_effect(seat, effect.number, sink) {
            return;
        }
        self.state.direction = self.state.direction.flipped_if(effect.flip);
        if S::RECORDS && effect.flip {
            let direction = self.state.direction;
            sink.emit(|| Event::DirectionReversed { direction });
        }
        if effect.penalty > 0 {
            self.state.pending += u32::from(effect.penalty);
            if effect.challenge {
                self.state.wd4_guilty = guilty;
                self.end_turn(0, sink);
                if !self.is_round_over() {
                    self.state.phase = Phase::Challenge { offender: seat };
                }
                return;
            }
            if !effect.stacks {
                let n = std::mem::take(&mut self.state.pending);
                let victim = self.next_seat(1);
                self.give(victim, n, DrawReason::Penalty, sink);
            }
        }
        self.end_turn(usize::from(effect.skip), sink);
    }

    /// A number card's house-rule effect, after `seat` played it and kept cards: a run of the
    /// same number opens, a 7 asks for a hand to swap with (true: the turn goes on in that
    /// phase), or a 0 passes every hand on (false: the turn ends as usual).
    #[cold]
    fn number_effect<S: Sink>(&mut self, seat: Seat, effect: NumberEffect, sink: &mut S) -> bool {
        match effect {
            NumberEffect::None => false,
            NumberEffect::SameNumber => {
                let more = !self.same_number_among(self.state.hands[seat.index()].kinds()).is_empty();
                if more {
                    self.state.phase = Phase::SameNumber;
                }
                more
            }
            NumberEffect::Swap => {
                self.state.phase = Phase::ChooseSwap;
                true
            }
            NumberEffect::Rotate => {
                self.rotate_hands();
                let direction = self.state.direction;
                sink.emit(|| Event::HandsRotated { direction });
                false
            }
        }
    }

    #[inline(always)]
    pub(super) fn draw<S: Sink>(&mut self, sink: &mut S) {
        self.close_uno_window();
        let seat = self.state.current;
        if self.state.pending > 0 {
            let n = std::mem::take(&mut self.state.pending);
            self.give(seat, n, DrawReason::Penalty, sink);
            self.end_turn(0, sink);
            return;
        }
        let rule = self.rules.draw_rule();
        let mut drawn: Option<Card> = None;
        let mut cards: Vec<Card> = Vec::new();
        while let Some(card) = self.draw_one(sink) {
            self.state.hands[seat.index()].push(card);
            self.state.acted = true;
            if S::RECORDS {
                cards.push(card);
            }
            drawn = Some(card);
            if rule != DrawRule::DrawUntilPlayable || self.is_playable(card) {
                break;
            }
        }
        self.state.uno_called &= !(1 << seat.0);
        if S::RECORDS {
            let count = cards.len() as u32;
            sink.emit(|| Event::CardsDrawn { seat, count, cards, reason: DrawReason::Turn });
        }
        let Some(card) = drawn else {
            self.end_turn(0, sink);
            return;
        };
        let decide = match rule {
            DrawRule::DrawOneMayPlay => true,
            DrawRule::DrawUntilPlayable | DrawRule::DrawOneMustPlay => self.is_playable(card),
            DrawRule::DrawOneEndTurn => false,
            DrawRule::DrawOneAutoPlay => {
                if card.is_wild() {
                    let color = self.random_color();
                    self.play_with(seat, card, Some(color), CardEffect::default(), sink);
                } else if card.color() == Some(self.state.color) {
                    self.play(seat, card, None, sink);
                } else {
                    self.end_turn(0, sink);
                }
                return;
            }
        };
        if decide {
            self.state.drawn = Some(card);
            self.state.phase = Phase::DrawnCard;
        } else {
            self.end_turn(0, sink);
        }
    }

    pub(super) fn resolve_challenge<S: Sink>(&mut self, sink: &mut S) {
        self.close_uno_window();
        let Phase::Challenge { offender } = self.state.phase else {
            return;
        };
        let challenger = self.state.current;
        let guilty = self.state.wd4_guilty;
        sink.emit(|| Event::ChallengeResolved { challenger, offender, guilty });
        let n = std::mem::take(&mut self.state.pending);
        if guilty {
            // The offender takes the penalty; the challenger plays on as normal.
            self.give(offender, n, DrawReason::ChallengeGuilty, sink);
            self.state.phase = Phase::Play;
        } else {
            let lost = self.rules.effect(Card::WILD_DRAW_FOUR, self.state.players).challenge_lost;
            self.give(challenger, n + u32::from(lost), DrawReason::ChallengeLost, sink);
            self.end_turn(0, sink);
        }
    }

    /// Moves `n` cards from the draw pile to `seat` (fewer if the pile runs dry).
    pub(super) fn give<S: Sink>(&mut self, seat: Seat, n: u32, reason: DrawReason, sink: &mut S) {
        let mut cards = Vec::new();
        let mut count = 0;
        for _ in 0..n {
            let Some(card) = self.draw_one(sink) else {
                break;
            };
            self.state.hands[seat.index()].push(card);
            count += 1;
            if S::RECORDS {
                cards.push(card);
            }
        }
        if count > 0 {
            self.state.acted = true;
            self.state.uno_called &= !(1 << seat.0);
            if self.state.uno_exposed == Some(seat) {
                self.state.uno_exposed = None;
            }
        }
        sink.emit(|| Event::CardsDrawn { seat, count, cards, reason });
    }

    #[inline]
    pub(super) fn draw_one<S: Sink>(&mut self, sink: &mut S) -> Option<Card> {
        if self.state.draw_pile.is_empty() && !self.reshuffle(sink) {
            return None;
        }
        self.pop_draw()
    }

    /// The draw pile ran dry: the discard pile under its top card becomes the draw pile, where
    /// the rules say so and there is one. Returns whether there is a pile to draw from now.
    #[cold]
    #[inline(never)]
    fn reshuffle<S: Sink>(&mut self, sink: &mut S) -> bool {
        if self.rules.exhausted() != Exhausted::Reshuffle || self.state.discard.len() < 2 {
            return false;
        }
        let Some(top) = self.state.discard.pop() else {
            return false;
        };
        std::mem::swap(&mut self.state.draw_pile, &mut self.state.discard);
        self.state.discard.push(top);
        self.shuffle_draw_pile();
        let cards = self.state.draw_pile.len() as u32;
        sink.emit(|| Event::DeckReshuffled { cards });
        true
    }

    /// Shuffles the draw pile. A fast game leaves it unordered instead: see [`Game::pop_draw`].
    pub(super) fn shuffle_draw_pile(&mut self) {
        if let GameRng::Portable(rng) = &mut self.rng {
            shuffle(&mut self.state.draw_pile, rng);
        }
    }

    /// Takes the next card of the draw pile. A fast game never fixes the pile's order: taking
    /// a uniformly random card of the pile is the same, in distribution, as taking the top card
    /// of a shuffled pile, and costs one random number per card drawn instead of one per card
    /// in the deck each time it is shuffled.
    #[inline]
    pub(super) fn pop_draw(&mut self) -> Option<Card> {
        if self.script.is_some() {
            return self.pop_scripted();
        }
        if let GameRng::Fast(rng) = &mut self.rng {
            let n = self.state.draw_pile.len();
            if n > 1 {
                let i = rng.below(n);
                self.state.draw_pile.swap(i, n - 1);
            }
        }
        self.state.draw_pile.pop()
    }

    #[inline]
    pub(super) fn next_seat(&self, steps: usize) -> Seat {
        Seat(next_seat(self.state.current.index(), self.state.direction, self.state.players, steps) as u8)
    }

    pub(super) fn rotate_hands(&mut self) {
        let n = self.state.players;
        let mut rotated = vec![Hand::default(); n];
        for (s, hand) in self.state.hands.drain(..).enumerate() {
            let to = next_seat(s, self.state.direction, n, 1);
            rotated[to] = hand;
        }
        self.state.hands = rotated;
        self.state.uno_called = 0;
    }

    /// Ends the current player's turn and hands it on, skipping `skip` players.
    #[inline]
    pub(super) fn end_turn<S: Sink>(&mut self, skip: usize, sink: &mut S) {
        self.state.turns += 1;
        self.state.phase = Phase::Play;
        self.state.drawn = None;
        // A turn without a draw or a play counts on; any other starts the count again. Without
        // a branch: whether a random seat drew or played is a coin toss to the predictor.
        self.state.dead_turns = (self.state.dead_turns + 1) * usize::from(!self.state.acted);
        self.state.acted = false;
        if S::RECORDS {
            for k in 1..=skip {
                let skipped = self.next_seat(k);
                sink.emit(|| Event::PlayerSkipped { seat: skipped });
            }
        }
        self.state.current = self.next_seat(1 + skip);
        // One test on the common path: the limits are rarely reached.
        if self.state.dead_turns >= self.state.players || self.state.turns >= self.rules.turn_limit() {
            self.end_without_winner(sink);
            return;
        }
        let seat = self.state.current;
        sink.emit(|| Event::TurnStarted { seat });
    }

    /// The round stops at the end of a turn without a winner: a stalemate first, then the
    /// rules' turn cap, then the engine's limit of turns.
    #[cold]
    fn end_without_winner<S: Sink>(&mut self, sink: &mut S) {
        let reason = if self.state.dead_turns >= self.state.players {
            EndReason::Stalemate
        } else if self.rules.turn_cap().is_some_and(|cap| self.state.turns >= cap) {
            EndReason::TurnCap
        } else {
            EndReason::MaxTurns
        };
        self.finish(None, reason, sink);
    }

    /// Once a round, out of the turn's way.
    #[cold]
    #[inline(never)]
    pub(super) fn end_round<S: Sink>(&mut self, winner: Seat, sink: &mut S) {
        let points = self.rules.round_points(self.state.hands.iter().map(Hand::as_slice));
        self.state.scores[winner.index()] += points;
        self.state.round_winner = Some(winner);
        self.state.turns += 1;
        if S::RECORDS {
            let totals = self.state.scores.clone();
            sink.emit(|| Event::RoundScored { winner, points, totals });
        }
        let match_over = self.rules.target().is_none_or(|t| self.state.scores[winner.index()] >= t);
        if match_over {
            self.finish(Some(winner), EndReason::Won, sink);
        } else {
            self.state.phase = Phase::RoundOver;
        }
    }

    pub(super) fn finish<S: Sink>(&mut self, winner: Option<Seat>, reason: EndReason, sink: &mut S) {
        self.state.phase = Phase::GameOver;
        let outcome = Outcome { winner, reason, scores: self.state.scores.clone() };
        if S::RECORDS {
            let o = outcome.clone();
            sink.emit(|| Event::GameOver { outcome: o });
        }
        self.state.outcome = Some(outcome);
    }

    /// Shuffles the whole deck, picks the dealer, deals and turns the first card.
    pub(super) fn start_round<S: Sink>(&mut self, sink: &mut S) {
        let n = self.state.players;
        self.state.round += 1;
        self.state.draw_pile.clear();
        self.state.draw_pile.extend_from_slice(self.rules.deck());
        self.state.discard.clear();
        for h in &mut self.state.hands {
            h.clear();
        }
        self.shuffle_draw_pile();
        self.state.dealer = match (self.rules.first_player(), self.state.round) {
            (FirstPlayer::Seat0, _) => Seat((n - 1) as u8),
            (_, 1) => Seat(self.rng.gen_range(0..n) as u8),
            (_, _) => Seat(((self.state.dealer.index() + 1) % n) as u8),
        };
        self.state.direction = self.rules.direction();
        self.state.phase = Phase::Play;
        self.state.pending = 0;
        self.state.drawn = None;
        self.state.uno_called = 0;
        self.state.uno_exposed = None;
        self.state.acted = false;
        self.state.dead_turns = 0;
        self.state.turns = 0;
        self.state.round_winner = None;
        let (round, dealer) = (self.state.round, self.state.dealer);
        sink.emit(|| Event::RoundStarted { round, dealer });
        for _ in 0..self.rules.hand_size() {
            for s in 0..n {
                if let Some(c) = self.pop_draw() {
                    self.state.hands[s].push(c);
                }
            }
        }
        self.state.current = self.state.dealer;
        self.state.current = self.next_seat(1);
        self.turn_first_card(sink);
    }

    pub(crate) fn turn_first_card<S: Sink>(&mut self, sink: &mut S) {
        let players = self.state.players;
        let refused_kinds = self.rules.first_refused();
        let card = loop {
            let Some(card) = self.pop_draw() else {
                return;
            };
            let refused = |c: Card| refused_kinds.contains(c);
            // With a small deck every acceptable card may sit in the hands: then the card
            // stays, or turning cards would never end.
            let back = refused(card) && self.state.draw_pile.iter().any(|&c| !refused(c));
            sink.emit(|| Event::StartCard { card, returned: back });
            if !back {
                break card;
            }
            // Back into the deck, and shuffle so the same card does not come up again.
            self.state.draw_pile.push(card);
            self.shuffle_draw_pile();
        };
        self.state.discard.push(card);
        self.state.color = card.color().unwrap_or(self.rules.colors()[0]);
        match self.rules.effect(card, players).first {
            FirstEffect::None => {}
            FirstEffect::ChooseColor => self.state.phase = Phase::ChooseColor,
            FirstEffect::RandomColor => {
                self.state.color = self.random_color();
                let (seat, color) = (self.state.dealer, self.state.color);
                sink.emit(|| Event::ColorDeclared { seat, color });
            }
            FirstEffect::Skip => self.skip_first_player(sink),
            FirstEffect::Reverse => {
                // The dealer plays first and play goes the other way.
                self.state.direction = self.state.direction.flipped();
                self.state.current = self.state.dealer;
                let direction = self.state.direction;
                sink.emit(|| Event::DirectionReversed { direction });
            }
            FirstEffect::DrawTwo => {
                self.give(self.state.current, 2, DrawReason::Penalty, sink);
                self.state.acted = false;
                self.skip_first_player(sink);
            }
            FirstEffect::DrawTwoThenPlay => {
                self.give(self.state.current, 2, DrawReason::Penalty, sink);
                self.state.acted = false;
            }
        }
        let seat = self.state.current;
        sink.emit(|| Event::TurnStarted { seat });
    }

    /// One of the rules' colours, drawn from the game's generator: the colour of a wild that
    /// nobody names (RLCard's first card and drawn wilds).
    fn random_color(&mut self) -> Color {
        let colors = self.rules.colors();
        colors[self.rng.gen_range(0..colors.len())]
    }

    pub(super) fn skip_first_player<S: Sink>(&mut self, sink: &mut S) {
        let seat = self.state.current;
        sink.emit(|| Event::PlayerSkipped { seat });
        self.state.current = self.next_seat(1);
    }
}
