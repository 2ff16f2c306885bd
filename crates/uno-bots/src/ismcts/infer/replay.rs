//! The replay behind the tracker: from the bot's own last decision, the other seats' turns are
//! searched for a sequence that plays exactly the discard cards that came since and ends at
//! the observation the bot sees now, walking the public state every seat sees.

use super::*;

/// The public state the replay walks: what every seat sees.
#[derive(Clone, Debug)]
pub(super) struct Public {
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
        self.current.step(self.direction, self.sizes.len(), steps)
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

/// The public states right after the bot's own `action` from `prev`: two when the action was
/// a challenge whose outcome is not known yet, none when the replay does not model it.
pub(super) fn starts(prev: &Observation, action: Action, rules: &Rules, new: &[Card]) -> Vec<Public> {
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
        Action::Play { card, color } => out.extend(after_own_play(p, me, card, color, rules, new)),
        Action::Draw => {
            let mut q = p;
            q.sizes[me.index()] += 1;
            match rules.draw_rule() {
                // `supported` refuses the auto-play draw: it never gets here.
                DrawRule::DrawOneEndTurn | DrawRule::DrawOneAutoPlay => q.end_turn(0),
                // The drawn card, unknown when the bot drew, is played at once if it matches
                // (the bot decides next), else the turn is over: both are tried.
                DrawRule::DrawOneMustPlay => {
                    let mut ended = q.clone();
                    ended.end_turn(0);
                    out.push(ended);
                }
                // The bot decides about the drawn card next.
                DrawRule::DrawOneMayPlay | DrawRule::DrawUntilPlayable => {}
            }
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
            if let Some(offender) = challenge {
                out.extend(after_own_challenge(p, me, offender, rules));
            }
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

/// The public state after the bot played `card` (naming `color`), if the new discard cards
/// start with it.
fn after_own_play(
    mut q: Public,
    me: Seat,
    card: Card,
    color: Option<Color>,
    rules: &Rules,
    new: &[Card],
) -> Option<Public> {
    if q.sizes[me.index()] == 0 {
        return None;
    }
    q.sizes[me.index()] -= 1;
    q.challenge = None;
    // The bot's own card is the first of the new ones.
    if new.first() != Some(&card) {
        return None;
    }
    q.used = 1;
    q.top = card;
    q.color = card.color().or(color);
    effects(&mut q, me, card, rules);
    Some(q)
}

/// The two public states after the bot challenged `offender`'s Wild Draw Four: the offender
/// guilty (it takes the cards, the bot plays on), or innocent (the bot takes the rules' lost-challenge cards more).
fn after_own_challenge(p: Public, me: Seat, offender: Seat, rules: &Rules) -> [Public; 2] {
    let lost = rules.effect(Card::WILD_DRAW_FOUR, p.sizes.len()).challenge_lost;
    let mut guilty = p.clone();
    guilty.sizes[offender.index()] += guilty.pending as usize;
    guilty.pending = 0;
    guilty.challenge = None;
    let mut innocent = p;
    innocent.sizes[me.index()] += innocent.pending as usize + usize::from(lost);
    innocent.pending = 0;
    innocent.challenge = None;
    innocent.end_turn(0);
    [guilty, innocent]
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
pub(super) fn replay(
    p: Public,
    me: Seat,
    new: &[Card],
    target: &Observation,
    rules: &Rules,
    steps: &mut Vec<Step>,
    budget: &mut u32,
) -> bool {
    Search { me, new, target, rules, steps, budget }.walk(p)
}

/// One replay's search: what stays the same along every line it tries.
struct Search<'a> {
    me: Seat,
    new: &'a [Card],
    target: &'a Observation,
    rules: &'a Rules,
    steps: &'a mut Vec<Step>,
    /// Positions left to visit.
    budget: &'a mut u32,
}

impl Search<'_> {
    /// Whether a line from `p` reaches the target; the steps of the one found stay in `steps`.
    fn walk(&mut self, p: Public) -> bool {
        if *self.budget == 0 || p.turns > self.target.turns {
            return false;
        }
        *self.budget -= 1;
        if p.current == self.me {
            return self.is_target(&p);
        }
        if let Some(offender) = p.challenge {
            return self.challenged(p, offender);
        }
        let mark = self.steps.len();
        if self.plays_next(&p) {
            return true;
        }
        self.steps.truncate(mark);
        self.draws(p)
    }

    /// Back at the bot's decision: whether it is the one the target shows.
    fn is_target(&self, p: &Public) -> bool {
        let target = self.target;
        let challenge = match target.phase {
            Phase::Challenge { offender } => Some(offender),
            _ => None,
        };
        p.used == self.new.len()
            && p.turns == target.turns
            && p.sizes == target.hand_sizes
            && p.direction == target.direction
            && p.color.is_none_or(|c| Some(c) == target.color)
            && p.challenge == challenge
    }

    /// The current seat may challenge `offender`'s Wild Draw Four.
    fn challenged(&mut self, p: Public, offender: Seat) -> bool {
        let s = p.current;
        let mark = self.steps.len();
        // Accept (the penalty) or a lost challenge (two cards more): the turn is over.
        for extra in [0, 2] {
            let mut q = p.clone();
            q.sizes[s.index()] += q.pending as usize + extra;
            q.pending = 0;
            q.challenge = None;
            q.end_turn(0);
            if self.walk(q) {
                return true;
            }
            self.steps.truncate(mark);
        }
        // A won challenge: the offender takes the cards and the challenger plays on.
        let mut q = p;
        q.sizes[offender.index()] += q.pending as usize;
        q.pending = 0;
        q.challenge = None;
        self.walk(q)
    }

    /// The next new card played from the current seat's hand, if it may be.
    fn plays_next(&mut self, p: &Public) -> bool {
        let s = p.current;
        let Some(&card) = self.new.get(p.used) else { return false };
        if !(p.playable(card) && p.sizes[s.index()] > 1) {
            return false;
        }
        let mut q = p.clone();
        let rest = if card.is_wild() { playable_mask(p.top, p.color) & !WILDS } else { 0 };
        // A wild's colour shows in the card played on it, or, when none was, in the colour in
        // play now.
        let named = match self.new.get(p.used + 1) {
            _ if !card.is_wild() => None,
            Some(next) => next.color(),
            None => self.target.color,
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
        self.steps.push(Step::Played { seat: s, card, size: p.sizes[s.index()], drawn: false, rest, past });
        play(&mut q, s, card, self.rules);
        self.walk(q)
    }

    /// A draw on the turn: the seat had nothing it wanted to play. Under rules where it then
    /// decides about the card, it may play it; else it keeps it.
    fn draws(&mut self, p: Public) -> bool {
        let s = p.current;
        let mark = self.steps.len();
        let mask = playable_mask(p.top, p.color);
        let mut q = p;
        self.steps.push(Step::Drew { seat: s, size: q.sizes[s.index()], mask });
        q.sizes[s.index()] += 1;
        let decides = self.rules.draw_rule() != DrawRule::DrawOneEndTurn;
        if decides {
            if let Some(&card) = self.new.get(q.used) {
                if q.playable(card) && q.sizes[s.index()] > 1 {
                    let mut r = q.clone();
                    let size = r.sizes[s.index()];
                    self.steps.push(Step::Played { seat: s, card, size, drawn: true, rest: 0, past: None });
                    play(&mut r, s, card, self.rules);
                    if self.walk(r) {
                        return true;
                    }
                    self.steps.truncate(mark + 1);
                }
            }
        }
        // Kept: a card it could not (or, a wild, would not) play.
        self.steps.push(Step::Kept { seat: s, mask: if decides { mask & !WILDS } else { 0 } });
        q.end_turn(0);
        if self.walk(q) {
            return true;
        }
        self.steps.truncate(mark);
        false
    }
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
