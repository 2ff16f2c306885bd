//! What is legal: `check`, the legal action lists and the playable cards.

use crate::action::{Action, IllegalAction};
use crate::card::{Card, Color, Seat};
use crate::hand::CardSet;
use crate::rules::{DrawRule, Exhausted, JumpIn, Rules, UnoCall, WildDrawFourRule};

use super::{Game, Phase, Plays};

/// The most moves besides plays a seat can have at once: a swap with each other seat of the
/// largest table, or the colours, or the turn's moves, with an UNO call and a catch.
const MAX_OTHERS: usize = crate::players::MAX_PLAYERS + 1;

/// What a seat may do now ([`Game::legal_moves`]): the kinds it may play, each wild once with
/// every colour of `colors`, and its other moves in the listing's order, UNO calls last.
#[derive(Clone, Copy, Debug)]
pub struct LegalMoves<'a> {
    /// The kinds the seat may play (all held).
    pub plays: CardSet,
    /// The colours a wild it plays may name.
    pub colors: &'a [Color],
    others: [Action; MAX_OTHERS],
    len: u8,
}

impl LegalMoves<'_> {
    /// The moves besides plays, in the listing's order.
    pub fn others(&self) -> &[Action] {
        &self.others[..usize::from(self.len)]
    }

    fn push(&mut self, action: Action) {
        if let Some(slot) = self.others.get_mut(usize::from(self.len)) {
            *slot = action;
            self.len += 1;
        }
    }
}

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
    /// `out` has room: [`Game::legal_moves`] in order, the plays in hand order (the left-most
    /// copy of each kind, a wild once with each colour it may name) and the other moves after.
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let moves = self.legal_moves(seat);
        if !moves.plays.is_empty() {
            let mut seen = CardSet::EMPTY;
            for &card in &self.state.hands[seat.index()] {
                if !moves.plays.contains(card) || seen.contains(card) {
                    continue;
                }
                seen.insert(card);
                if card.is_wild() {
                    for &c in moves.colors {
                        out.push(Action::Play { card, color: Some(c) });
                    }
                } else {
                    out.push(Action::Play { card, color: None });
                }
            }
        }
        out.extend_from_slice(moves.others());
    }

    /// What `seat` may do now, as sets, before a listing puts the plays in hand order: the one
    /// answer [`Game::legal_actions_into`] lists and a batched environment's mask reads.
    pub fn legal_moves(&self, seat: Seat) -> LegalMoves<'_> {
        let mut moves = LegalMoves { plays: CardSet::EMPTY, colors: &[], others: [Action::Draw; MAX_OTHERS], len: 0 };
        if seat.index() >= self.state.players || self.state.phase == Phase::GameOver {
            return moves;
        }
        // `playable` in two steps, so that `check` is told the rules' set instead of asking
        // for it again.
        let by_rules = self.playable_by_rules(seat);
        moves.plays = if self.rules.precedence_decides() { self.precedence_plays(seat, by_rules) } else { by_rules };
        moves.colors = self.colors_to_name(seat);
        let mut consider = |a: Action| {
            if self.check_knowing(seat, a, by_rules).is_ok() {
                moves.push(a);
            }
        };
        // Of the turn's other moves, only those the phase allows can pass `check_by_rules`'s
        // first test (the phase): the rest are not asked. The order stays the listing's.
        let turn: &[Action] = match self.state.phase {
            Phase::Play => &[Action::Draw],
            Phase::DrawnCard | Phase::SameNumber => &[Action::Pass],
            Phase::Challenge { .. } => &[Action::Challenge, Action::Accept],
            Phase::RoundOver => &[Action::NextRound],
            Phase::ChooseColor | Phase::ChooseSwap | Phase::GameOver => &[],
        };
        for &a in turn {
            consider(a);
        }
        if self.state.phase == Phase::ChooseColor {
            for &c in self.rules.colors() {
                consider(Action::DeclareColor { color: c });
            }
        }
        if self.state.phase == Phase::ChooseSwap {
            for s in 0..self.state.players {
                consider(Action::SwapHands { with: Seat(s as u8) });
            }
        }
        // Last, so "the first legal action" always moves the game on. False calls are never
        // listed: `apply` takes them under rules that punish them, but no player wants one.
        if self.own_uno(seat).is_ok() && self.check_knowing(seat, Action::CallUno, by_rules).is_ok() {
            moves.push(Action::CallUno);
        }
        if let Some(target) = self.state.uno_exposed.filter(|_| self.rules.uno_call() != UnoCall::Off) {
            if target != seat && self.check_knowing(seat, Action::CatchUno { seat: target }, by_rules).is_ok() {
                moves.push(Action::CatchUno { seat: target });
            }
        }
        moves
    }

    /// The kinds `seat` may play now, as a set (card-index order): the one answer to "which
    /// cards may this seat play", read by [`Game::check`], the legal action lists and the bots.
    ///
    /// On its turn: in the `Play` phase the cards that match (or, with a penalty pending,
    /// stack on it); after a draw only the drawn card, if it matches; while a Wild Draw Four
    /// waits for an answer the cards that stack on it; in a same-number run the cards of the
    /// top card's number. Out of turn: a jump-in card. Under seed 000's precedence, the
    /// current seat's one card is the precedence's ([`Game::precedence_move`]).
    #[inline]
    pub fn playable(&self, seat: Seat) -> CardSet {
        let set = self.playable_by_rules(seat);
        if self.rules.precedence_decides() {
            self.precedence_plays(seat, set)
        } else {
            set
        }
    }

    /// [`Game::playable`] before the precedence narrows it: what the matching, stacking and
    /// run rules allow.
    #[inline]
    pub(super) fn playable_by_rules(&self, seat: Seat) -> CardSet {
        if seat.index() >= self.state.players {
            return CardSet::EMPTY;
        }
        let held = self.state.hands[seat.index()].kinds();
        if seat != self.state.current {
            return self.jump_in_kinds(held);
        }
        match self.state.phase {
            Phase::Play => self.playable_among(seat, held),
            Phase::DrawnCard => match self.state.drawn {
                Some(card) if held.contains(card) => self.playable_among(seat, CardSet::single(card)),
                _ => CardSet::EMPTY,
            },
            Phase::Challenge { .. } => self.stackable_among(held),
            Phase::SameNumber => self.same_number_among(held),
            _ => CardSet::EMPTY,
        }
    }

    /// The cards of `among` that may go on the pile now for `seat`, on its turn: the matching
    /// rule (with the restricted Wild Draw Four) or, with a penalty pending, the stacking rule.
    #[inline]
    pub(super) fn playable_among(&self, seat: Seat, among: CardSet) -> CardSet {
        if self.state.pending > 0 {
            return self.stackable_among(among);
        }
        let (top, color) = (self.top(), self.state.color);
        let refused = match self.rules.wild_draw_four() {
            WildDrawFourRule::Restricted => self.holds_color(seat, color),
            // Refused while any other card of the hand could go on the pile.
            WildDrawFourRule::LastResort => {
                !crate::effect::matching_plays(self.state.hands[seat.index()].kinds(), top, color, true).is_empty()
            }
            WildDrawFourRule::Unrestricted | WildDrawFourRule::Challenge => false,
        };
        crate::effect::matching_plays(among, top, color, refused)
    }

    /// The cards of `among` that go on with a same-number run: the number just played (the top
    /// card's), in any colour.
    #[inline]
    pub(super) fn same_number_among(&self, among: CardSet) -> CardSet {
        among.and(CardSet::of_face(self.top().face_index()))
    }

    /// The cards of `among` that may be stacked on the pending penalty: the top card's
    /// [`Rules::stacked_by`](crate::Rules::stacked_by) sets.
    #[inline]
    fn stackable_among(&self, among: CardSet) -> CardSet {
        crate::effect::stackable(among, self.rules.stacked_by(self.top()), self.state.color)
    }

    /// The card a seat out of turn may jump in with: the top card, when it holds it.
    fn jump_in_kinds(&self, held: CardSet) -> CardSet {
        let top = self.top();
        let open = self.rules.jump_in() == JumpIn::On
            && self.state.phase == Phase::Play
            && self.state.pending == 0
            && !top.is_wild()
            && !self.state.discard.is_empty();
        if open && held.contains(top) {
            CardSet::single(top)
        } else {
            CardSet::EMPTY
        }
    }

    /// The distinct cards `seat` may play now, in hand order: [`Game::playable`] in the order
    /// the hand holds them (a thin wrapper, for showing a hand).
    pub fn plays_for(&self, seat: Seat) -> Plays {
        let mut out = Plays::default();
        let ok = self.playable(seat);
        if ok.is_empty() {
            return out;
        }
        let mut seen = CardSet::EMPTY;
        for &card in self.state.hands[seat.index()].iter() {
            if ok.contains(card) && !seen.contains(card) {
                seen.insert(card);
                out.push(card);
            }
        }
        out
    }

    /// Whether the current player could play `card` now, were it in their hand: a thin
    /// wrapper over the rule [`Game::playable`] applies.
    #[inline]
    pub fn is_playable(&self, card: Card) -> bool {
        self.playable_among(self.state.current, CardSet::single(card)).contains(card)
    }

    #[inline]
    pub(super) fn holds_color(&self, seat: Seat, color: Color) -> bool {
        self.state.hands[seat.index()].kinds().intersects(CardSet::of_color(color))
    }

    /// Whether a card can still come from the draw pile (directly or by reshuffling).
    pub fn can_draw(&self) -> bool {
        !self.state.draw_pile.is_empty()
            || (self.rules.exhausted() == Exhausted::Reshuffle && self.state.discard.len() > 1)
    }

    /// Validates an action without applying it.
    ///
    /// # Errors
    /// The [`IllegalAction`] that names why `seat` may not take `action` now.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        let by_rules = self.playable_by_rules(seat);
        self.check_knowing(seat, action, by_rules)
    }

    /// [`Game::check`] told `by_rules`, what [`Game::playable_by_rules`] answers for `seat`
    /// now (the legal moves have it at hand): the same answer, without asking for it again.
    fn check_knowing(&self, seat: Seat, action: Action, by_rules: CardSet) -> Result<(), IllegalAction> {
        self.check_by_rules(seat, action, by_rules)?;
        let turn_move = !matches!(action, Action::CallUno | Action::CatchUno { .. } | Action::NextRound);
        if turn_move && seat == self.state.current && self.rules.precedence_decides() {
            if let Some(forced) = self.precedence_move() {
                if forced != action {
                    return Err(IllegalAction::PrecedencePicksAnother);
                }
            }
        }
        Ok(())
    }

    /// [`Game::check`] before seed 000's precedence has its say.
    fn check_by_rules(&self, seat: Seat, action: Action, by_rules: CardSet) -> Result<(), IllegalAction> {
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
            Action::Play { card, color } => self.check_play(seat, card, color, by_rules),
            _ if !is_current => Err(IllegalAction::NotYourTurn),
            Action::Draw => self.check_draw(by_rules),
            Action::Pass => self.check_pass(by_rules),
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

    /// [`Game::check`] for a card played by `seat`: out of turn a jump-in, on its turn the
    /// card must be held and playable, and a refusal names the rule that refuses it.
    fn check_play(&self, seat: Seat, card: Card, color: Option<Color>, by_rules: CardSet) -> Result<(), IllegalAction> {
        let hand = &self.state.hands[seat.index()];
        if seat != self.state.current {
            return self.check_jump_in(seat, card, color);
        }
        match self.state.phase {
            Phase::Play | Phase::DrawnCard | Phase::Challenge { .. } | Phase::SameNumber => {}
            Phase::ChooseColor => return Err(IllegalAction::MustDeclareColor),
            Phase::ChooseSwap => return Err(IllegalAction::MustChooseSwap),
            Phase::RoundOver | Phase::GameOver => return Err(IllegalAction::GameOver),
        }
        if !hand.contains(&card) {
            return Err(IllegalAction::CardNotInHand);
        }
        check_color(&self.rules, card, color)?;
        if by_rules.contains(card) {
            return Ok(());
        }
        // Refused: name the rule that refuses it.
        Err(if self.state.phase == Phase::SameNumber {
            IllegalAction::SameNumberOnly
        } else if self.state.phase == Phase::DrawnCard && self.state.drawn != Some(card) {
            IllegalAction::OnlyDrawnCard
        } else if let Phase::Challenge { .. } = self.state.phase {
            IllegalAction::MustAnswerChallenge
        } else if self.state.pending > 0 {
            IllegalAction::MustAnswerDrawPenalty
        } else if !card.matches(self.top(), self.state.color) {
            IllegalAction::DoesNotMatch
        } else if self.rules.wild_draw_four() == WildDrawFourRule::LastResort {
            IllegalAction::WildDrawFourLastResort
        } else {
            IllegalAction::WildDrawFourNotAllowed
        })
    }

    /// [`Game::check`] for a draw by the current player, who may play `by_rules` by the rules.
    fn check_draw(&self, by_rules: CardSet) -> Result<(), IllegalAction> {
        match self.state.phase {
            Phase::Play if self.state.pending > 0 => Ok(()),
            Phase::Play => {
                let playable = !by_rules.is_empty();
                if playable && self.rules.forced_play().must_play() {
                    Err(IllegalAction::MustPlayWhenAble)
                } else if playable && !self.can_draw() {
                    Err(IllegalAction::DrawPileEmpty)
                } else {
                    Ok(())
                }
            }
            Phase::DrawnCard => Err(IllegalAction::AlreadyDrawn),
            Phase::SameNumber => Err(IllegalAction::SameNumberOnly),
            Phase::Challenge { .. } => Err(IllegalAction::MustAnswerChallenge),
            Phase::ChooseColor => Err(IllegalAction::MustDeclareColor),
            Phase::ChooseSwap => Err(IllegalAction::MustChooseSwap),
            Phase::RoundOver | Phase::GameOver => Err(IllegalAction::GameOver),
        }
    }

    /// [`Game::check`] for a pass by the current player, who may play `by_rules` by the rules.
    fn check_pass(&self, by_rules: CardSet) -> Result<(), IllegalAction> {
        match self.state.phase {
            Phase::DrawnCard => {
                let must = self.rules.draw_rule() == DrawRule::DrawOneMustPlay && !by_rules.is_empty();
                if must {
                    Err(IllegalAction::MustPlayDrawnCard)
                } else {
                    Ok(())
                }
            }
            // Further cards of a run are always optional, whatever the forced-play rule.
            Phase::SameNumber => Ok(()),
            Phase::Play => Err(IllegalAction::MustDrawBeforePass),
            Phase::Challenge { .. } => Err(IllegalAction::MustAnswerChallenge),
            Phase::ChooseColor => Err(IllegalAction::MustDeclareColor),
            Phase::ChooseSwap => Err(IllegalAction::MustChooseSwap),
            Phase::RoundOver | Phase::GameOver => Err(IllegalAction::GameOver),
        }
    }

    pub(super) fn check_jump_in(&self, seat: Seat, card: Card, color: Option<Color>) -> Result<(), IllegalAction> {
        let allowed = color.is_none() && self.playable(seat).contains(card);
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
    #[inline]
    pub(super) fn own_uno(&self, seat: Seat) -> Result<(), IllegalAction> {
        if seat.index() >= self.state.players {
            return Err(IllegalAction::NoSuchSeat);
        }
        if self.rules.uno_call() == UnoCall::Off {
            return Err(IllegalAction::UnoCallsOff);
        }
        let called = self.uno_called(seat);
        if called {
            return Err(IllegalAction::UnoAlreadyCalled);
        }
        let own_turn = seat == self.state.current && self.state.phase.is_own_turn();
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
