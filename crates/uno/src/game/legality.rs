//! What is legal: `check`, the legal action lists and the playable cards.

use crate::action::{Action, IllegalAction};
use crate::card::{Card, Color, Face, Seat};
use crate::hand::CardSet;
use crate::rules::{DrawRule, Exhausted, ForcedPlay, JumpIn, Rules, Stacking, UnoCall, WildDrawFourRule};

use super::{Game, Phase, Plays};

impl Game {
    /// The actions the current player may take.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(self.state.current, &mut out);
        out
    }

    /// The actions `seat` may take now: the current player's moves, or out-of-turn ones
    /// (jump-ins, UNO calls and catches).
    pub fn legal_actions_for(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// Fills `out` (cleared first) with the legal actions of `seat`, without allocating when
    /// `out` has room.
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if seat.index() >= self.state.players || self.state.phase == Phase::GameOver {
            return;
        }
        let consider = |a: Action, out: &mut Vec<Action>| {
            if self.check(seat, a).is_ok() {
                out.push(a);
            }
        };
        let hand = &self.state.hands[seat.index()];
        let mut seen = [false; Card::KINDS];
        for &card in hand {
            if std::mem::replace(&mut seen[card.index()], true) {
                continue;
            }
            if card.is_wild() {
                for &c in self.rules.colors() {
                    consider(Action::Play { card, color: Some(c) }, out);
                }
            } else {
                consider(Action::Play { card, color: None }, out);
            }
        }
        for a in [Action::Draw, Action::Pass, Action::Challenge, Action::Accept, Action::NextRound] {
            consider(a, out);
        }
        if self.state.phase == Phase::ChooseColor {
            for &c in self.rules.colors() {
                consider(Action::DeclareColor { color: c }, out);
            }
        }
        if self.state.phase == Phase::ChooseSwap {
            for s in 0..self.state.players {
                consider(Action::SwapHands { with: Seat(s as u8) }, out);
            }
        }
        // Last, so "the first legal action" always moves the game on. False calls are never
        // listed: `apply` takes them under rules that punish them, but no player wants one.
        if self.own_uno(seat).is_ok() && self.check(seat, Action::CallUno).is_ok() {
            out.push(Action::CallUno);
        }
        if let Some(target) = self.state.uno_exposed.filter(|_| self.rules.uno_call() != UnoCall::Off) {
            if target != seat && self.check(seat, Action::CatchUno { seat: target }).is_ok() {
                out.push(Action::CatchUno { seat: target });
            }
        }
    }

    /// The distinct cards `seat` may play now, in hand order: exactly the cards of the `Play`
    /// actions `legal_actions_for(seat)` lists, found without allocating.
    pub fn plays_for(&self, seat: Seat) -> Plays {
        let mut out = Plays::default();
        if seat.index() >= self.state.players {
            return out;
        }
        if seat != self.state.current {
            // Out of turn only a jump-in can play: rare, so the general check is fine.
            let mut seen = 0u64;
            for &card in &self.state.hands[seat.index()] {
                let bit = 1u64 << card.index();
                if seen & bit == 0 && self.check(seat, Action::Play { card, color: self.play_color(card) }).is_ok() {
                    out.push(card);
                }
                seen |= bit;
            }
            return out;
        }
        match self.state.phase {
            Phase::Play | Phase::Challenge { .. } => {}
            Phase::DrawnCard => {
                // Only the drawn card may follow a draw.
                if let Some(card) = self.state.drawn {
                    if self.state.hands[seat.index()].contains(&card)
                        && self.check(seat, Action::Play { card, color: self.play_color(card) }).is_ok()
                    {
                        out.push(card);
                    }
                }
                return out;
            }
            _ => return out,
        }
        let ok = match self.state.phase {
            Phase::Challenge { .. } => {
                let top = self.top();
                let mut set = CardSet::EMPTY;
                for c in self.state.hands[seat.index()].kinds().iter() {
                    if self.stackable(c, top) {
                        set.insert(c);
                    }
                }
                set
            }
            _ => self.playable_kinds(seat),
        };
        let mut seen = CardSet::EMPTY;
        for &card in self.state.hands[seat.index()].iter() {
            if ok.contains(card) && !seen.contains(card) {
                seen.insert(card);
                out.push(card);
            }
        }
        out
    }

    /// A colour that makes `Play { card, color }` well-formed: any rule colour for a wild.
    pub(super) fn play_color(&self, card: Card) -> Option<Color> {
        card.is_wild().then(|| self.rules.colors()[0])
    }

    /// Whether `card` could be played by the current player in the `Play` phase right now,
    /// ignoring whether it is in the hand.
    #[inline]
    pub fn is_playable(&self, card: Card) -> bool {
        let top = self.top();
        if self.state.pending > 0 {
            return self.stackable(card, top);
        }
        if !card.matches(top, self.state.color) {
            return false;
        }
        if card == Card::WILD_DRAW_FOUR && self.rules.wild_draw_four() == WildDrawFourRule::Restricted {
            return !self.holds_color(self.state.current, self.state.color);
        }
        true
    }

    pub(super) fn stackable(&self, card: Card, top: Card) -> bool {
        let d2 = card.face() == Face::DrawTwo;
        let wd4 = card == Card::WILD_DRAW_FOUR;
        let top_d2 = top.face() == Face::DrawTwo;
        let top_wd4 = top == Card::WILD_DRAW_FOUR;
        match self.rules.stacking() {
            Stacking::Off => false,
            Stacking::DrawTwo => d2 && top_d2,
            Stacking::WildDrawFour => wd4 && top_wd4,
            Stacking::Both => (d2 && top_d2) || (wd4 && top_wd4),
            Stacking::Cross => wd4 || (d2 && (top_d2 || card.color() == Some(self.state.color))),
        }
    }

    #[inline]
    pub(super) fn holds_color(&self, seat: Seat, color: Color) -> bool {
        self.state.hands[seat.index()].kinds().intersects(CardSet::of_color(color))
    }

    pub(super) fn has_playable(&self, seat: Seat) -> bool {
        !self.playable_kinds(seat).is_empty()
    }

    /// The kinds in `seat`'s hand that `is_playable` accepts, as one set: an AND of masks on
    /// the common path, with the rare stacking answer filtered card by card.
    #[inline]
    pub(super) fn playable_kinds(&self, seat: Seat) -> CardSet {
        let held = self.state.hands[seat.index()].kinds();
        let top = self.top();
        if self.state.pending > 0 {
            let mut out = CardSet::EMPTY;
            for c in held.iter() {
                if self.stackable(c, top) {
                    out.insert(c);
                }
            }
            return out;
        }
        let mut set = held.and(CardSet::matching(top, self.state.color));
        if self.rules.wild_draw_four() == WildDrawFourRule::Restricted
            && held.intersects(CardSet::of_color(self.state.color))
        {
            set.remove(Card::WILD_DRAW_FOUR);
        }
        set
    }

    /// The kinds `seat` may play now, as a set (index order): the same cards as the `Play`
    /// actions of `legal_actions_for(seat)` and as [`Game::plays_for`], without their order.
    #[inline]
    pub fn playable_set(&self, seat: Seat) -> CardSet {
        if seat.index() >= self.state.players {
            return CardSet::EMPTY;
        }
        if seat == self.state.current {
            match self.state.phase {
                Phase::Play => return self.playable_kinds(seat),
                // After a draw only the drawn card may follow, and no penalty is pending.
                Phase::DrawnCard => {
                    return match self.state.drawn {
                        Some(card)
                            if self.state.hands[seat.index()].kinds().contains(card) && self.is_playable(card) =>
                        {
                            CardSet::single(card)
                        }
                        _ => CardSet::EMPTY,
                    }
                }
                _ => {}
            }
        }
        let mut out = CardSet::EMPTY;
        for c in self.plays_for(seat).iter() {
            out.insert(*c);
        }
        out
    }

    /// Whether a card can still come from the draw pile (directly or by reshuffling).
    pub fn can_draw(&self) -> bool {
        !self.state.draw_pile.is_empty()
            || (self.rules.exhausted() == Exhausted::Reshuffle && self.state.discard.len() > 1)
    }

    /// Validates an action without applying it.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        if seat.index() >= self.state.players {
            return Err(IllegalAction::NoSuchSeat);
        }
        match self.state.phase {
            Phase::GameOver => return Err(IllegalAction::GameOver),
            Phase::RoundOver => {
                return if action == Action::NextRound { Ok(()) } else { Err(IllegalAction::RoundOver) };
            }
            _ => {}
        }
        let is_current = seat == self.state.current;
        match action {
            Action::NextRound => Err(IllegalAction::RoundNotOver),
            Action::CallUno | Action::CatchUno { .. } => self.check_uno(seat, action),
            Action::Play { card, color } => {
                let hand = &self.state.hands[seat.index()];
                if !is_current {
                    return self.check_jump_in(seat, card, color);
                }
                match self.state.phase {
                    Phase::Play | Phase::DrawnCard | Phase::Challenge { .. } => {}
                    Phase::ChooseColor => return Err(IllegalAction::MustDeclareColor),
                    Phase::ChooseSwap => return Err(IllegalAction::MustChooseSwap),
                    Phase::RoundOver | Phase::GameOver => return Err(IllegalAction::GameOver),
                }
                if !hand.contains(&card) {
                    return Err(IllegalAction::CardNotInHand);
                }
                check_color(&self.rules, card, color)?;
                if self.state.phase == Phase::DrawnCard && self.state.drawn != Some(card) {
                    return Err(IllegalAction::OnlyDrawnCard);
                }
                if let Phase::Challenge { .. } = self.state.phase {
                    if !self.stackable(card, self.top()) {
                        return Err(IllegalAction::MustAnswerChallenge);
                    }
                    return Ok(());
                }
                if self.state.pending > 0 && !self.stackable(card, self.top()) {
                    return Err(IllegalAction::MustAnswerDrawPenalty);
                }
                if !card.matches(self.top(), self.state.color) && self.state.pending == 0 {
                    return Err(IllegalAction::DoesNotMatch);
                }
                if card == Card::WILD_DRAW_FOUR
                    && self.state.pending == 0
                    && self.rules.wild_draw_four() == WildDrawFourRule::Restricted
                    && self.holds_color(seat, self.state.color)
                {
                    return Err(IllegalAction::WildDrawFourNotAllowed);
                }
                Ok(())
            }
            _ if !is_current => Err(IllegalAction::NotYourTurn),
            Action::Draw => match self.state.phase {
                Phase::Play if self.state.pending > 0 => Ok(()),
                Phase::Play => {
                    let playable = self.has_playable(seat);
                    if playable && self.rules.forced_play() == ForcedPlay::Required {
                        Err(IllegalAction::MustPlayWhenAble)
                    } else if playable && !self.can_draw() {
                        Err(IllegalAction::DrawPileEmpty)
                    } else {
                        Ok(())
                    }
                }
                Phase::DrawnCard => Err(IllegalAction::AlreadyDrawn),
                Phase::Challenge { .. } => Err(IllegalAction::MustAnswerChallenge),
                Phase::ChooseColor => Err(IllegalAction::MustDeclareColor),
                Phase::ChooseSwap => Err(IllegalAction::MustChooseSwap),
                Phase::RoundOver | Phase::GameOver => Err(IllegalAction::GameOver),
            },
            Action::Pass => match self.state.phase {
                Phase::DrawnCard => {
                    let must = self.rules.draw_rule() == DrawRule::DrawOneMustPlay
                        && self.state.drawn.is_some_and(|c| self.is_playable(c));
                    if must {
                        Err(IllegalAction::MustPlayDrawnCard)
                    } else {
                        Ok(())
                    }
                }
                Phase::Play => Err(IllegalAction::MustDrawBeforePass),
                Phase::Challenge { .. } => Err(IllegalAction::MustAnswerChallenge),
                Phase::ChooseColor => Err(IllegalAction::MustDeclareColor),
                Phase::ChooseSwap => Err(IllegalAction::MustChooseSwap),
                Phase::RoundOver | Phase::GameOver => Err(IllegalAction::GameOver),
            },
            Action::DeclareColor { color } => {
                if self.state.phase != Phase::ChooseColor {
                    Err(IllegalAction::NoColorToDeclare)
                } else if !self.rules.colors().contains(&color) {
                    Err(IllegalAction::ColorNotInGame)
                } else {
                    Ok(())
                }
            }
            Action::Challenge | Action::Accept => match self.state.phase {
                Phase::Challenge { .. } => Ok(()),
                _ => Err(IllegalAction::NoChallengePending),
            },
            Action::SwapHands { with } => {
                if self.state.phase != Phase::ChooseSwap {
                    Err(IllegalAction::NoSwapPending)
                } else if with == seat || with.index() >= self.state.players {
                    Err(IllegalAction::InvalidSwapTarget)
                } else {
                    Ok(())
                }
            }
        }
    }

    pub(super) fn check_jump_in(&self, seat: Seat, card: Card, color: Option<Color>) -> Result<(), IllegalAction> {
        let allowed = self.rules.jump_in() == JumpIn::On
            && self.state.phase == Phase::Play
            && self.state.pending == 0
            && !card.is_wild()
            && color.is_none()
            && card == self.top()
            && self.state.hands[seat.index()].contains(&card);
        if allowed {
            Ok(())
        } else if self.rules.jump_in() == JumpIn::Off {
            Err(IllegalAction::NotYourTurn)
        } else {
            Err(IllegalAction::JumpInNotAllowed)
        }
    }

    pub(super) fn check_uno(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.uno_meaning(seat, action).map(|_| ())
    }

    /// Whether `seat` may call UNO for itself now: on its turn with two cards or fewer, or
    /// exposed with one card. `Err` names why not; a repeated call is refused, never punished.
    pub(super) fn own_uno(&self, seat: Seat) -> Result<(), IllegalAction> {
        if self.rules.uno_call() == UnoCall::Off {
            return Err(IllegalAction::UnoCallsOff);
        }
        let called = self.uno_called(seat);
        if called {
            return Err(IllegalAction::UnoAlreadyCalled);
        }
        let own_turn = seat == self.state.current && matches!(self.state.phase, Phase::Play | Phase::DrawnCard);
        let hand_len = self.state.hands[seat.index()].len();
        if crate::effect::may_call_uno(called, own_turn, hand_len, self.state.uno_exposed == Some(seat)) {
            Ok(())
        } else {
            Err(IllegalAction::NothingToCall)
        }
    }

    /// Whether `seat` may catch `target` now. `Err` names why not.
    pub(super) fn catch_uno(&self, seat: Seat, target: Seat) -> Result<(), IllegalAction> {
        if self.rules.uno_call() == UnoCall::Off {
            return Err(IllegalAction::UnoCallsOff);
        }
        if target.index() >= self.state.players {
            return Err(IllegalAction::NoSuchSeat);
        }
        if target == seat {
            return Err(IllegalAction::CannotCatchYourself);
        }
        if self.state.uno_exposed == Some(target) {
            return Ok(());
        }
        Err(if self.state.hands[target.index()].len() != 1 {
            IllegalAction::NotOnOneCard
        } else if self.uno_called(target) {
            IllegalAction::UnoCalledInTime
        } else {
            IllegalAction::CatchTooLate
        })
    }

    /// What an UNO call or catch by `seat` does now. A call or catch that the rules refuse
    /// becomes a false call when the rules punish false calls (seed 003's "the yelling player
    /// draws instead"); a repeated own call, a catch of oneself and calls under rules without
    /// UNO calls stay refusals.
    pub(super) fn uno_meaning(&self, seat: Seat, action: Action) -> Result<UnoMeaning, IllegalAction> {
        let meaning = match action {
            Action::CallUno => self.own_uno(seat).map(|()| UnoMeaning::Own),
            Action::CatchUno { seat: target } => self.catch_uno(seat, target).map(|()| UnoMeaning::Catch(target)),
            _ => Err(IllegalAction::NothingToCall),
        };
        meaning.or_else(|e| match e {
            IllegalAction::NothingToCall
            | IllegalAction::NotOnOneCard
            | IllegalAction::UnoCalledInTime
            | IllegalAction::CatchTooLate
                if self.rules.false_call_penalty() > 0 =>
            {
                Ok(UnoMeaning::False)
            }
            e => Err(e),
        })
    }
}

#[derive(Clone, Copy)]
pub(super) enum UnoMeaning {
    Own,
    Catch(Seat),
    False,
}

fn check_color(rules: &Rules, card: Card, color: Option<Color>) -> Result<(), IllegalAction> {
    match (card.is_wild(), color) {
        (true, None) => Err(IllegalAction::ColorRequired),
        (true, Some(c)) if !rules.colors().contains(&c) => Err(IllegalAction::ColorNotInGame),
        (false, Some(_)) => Err(IllegalAction::ColorNotAllowed),
        _ => Ok(()),
    }
}
