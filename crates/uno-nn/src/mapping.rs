//! The one place that maps the fixed action space onto the engine's `uno::Action`.
//!
//! The engine's `Action::CallUno` is a seat's own call and `Action::CatchUno { seat }` names the
//! seat caught, so the space maps onto them one to one: `CALL_UNO` is the own call, `CATCH + k - 1`
//! the catch of the seat at offset `k`. False calls (which the engine takes only under rules that
//! punish them) are never offered, as the engine never lists them.

use uno::game::Game;
use uno::{Action, Card, Color, Phase, Seat};

use crate::space::{action as a, COLORED_KINDS, COLORS, MAX_SEATS};

/// The seat at relative offset `k` from `seat`.
pub fn seat_at(game: &Game, seat: Seat, k: usize) -> Option<Seat> {
    (k < game.players()).then(|| seat.step(uno::Direction::Clockwise, game.players(), k))
}

/// The relative offset of `other` seen from `seat`.
pub fn offset_of(game: &Game, seat: Seat, other: Seat) -> usize {
    offset(game.players(), seat, other)
}

/// The relative offset of `other` seen from `seat` at a table of `players`.
pub fn offset(players: usize, seat: Seat, other: Seat) -> usize {
    (other.index() + players - seat.index()) % players
}

/// The engine action an index stands for when `seat` takes it, or `None` for `DECLINE`, an index
/// out of range, or a catch/UNO entry whose intent does not match the state. The action may
/// still be illegal: [`is_legal`] says.
pub fn decode(game: &Game, seat: Seat, index: usize) -> Option<Action> {
    let color = |c: usize| Color::from_index(c);
    match index {
        i if i < a::PLAY_WILD => Some(Action::Play { card: Card::from_index(i)?, color: None }),
        i if i < a::PLAY_WILD_DRAW_FOUR => Some(Action::Play { card: Card::WILD, color: color(i - a::PLAY_WILD) }),
        i if i < a::DRAW => Some(Action::Play { card: Card::WILD_DRAW_FOUR, color: color(i - a::PLAY_WILD_DRAW_FOUR) }),
        a::DRAW => Some(Action::Draw),
        a::PASS => Some(Action::Pass),
        a::CALL_UNO => Some(Action::CallUno),
        i if i < a::CHALLENGE => Some(Action::CatchUno { seat: seat_at(game, seat, i - a::CATCH + 1)? }),
        a::CHALLENGE => Some(Action::Challenge),
        a::ACCEPT => Some(Action::Accept),
        i if i < a::SWAP => Some(Action::DeclareColor { color: color(i - a::DECLARE_COLOR)? }),
        i if i < a::DECLINE => Some(Action::SwapHands { with: seat_at(game, seat, i - a::SWAP + 1)? }),
        _ => None,
    }
}

/// Whether `seat` may take action `index` now; `window` says whether it decides in a reaction
/// window (where `DECLINE` is legal) rather than on its turn.
pub fn is_legal(game: &Game, seat: Seat, window: bool, index: usize) -> bool {
    if index == a::DECLINE {
        return window;
    }
    decode(game, seat, index)
        .is_some_and(|action| game.check(seat, action).is_ok() && !is_false_call(game, seat, action))
}

/// A call the engine takes only to punish it (rules with a false-call penalty): never offered,
/// as the engine never lists it.
fn is_false_call(game: &Game, seat: Seat, action: Action) -> bool {
    match action {
        Action::CallUno => !game.view(seat).can_call_own_uno(),
        Action::CatchUno { seat: target } => game.uno_exposed() != Some(target),
        _ => false,
    }
}

/// Fills `mask` (length `action::COUNT`) with 1 for every legal index, 0 elsewhere.
pub fn legal_mask(game: &Game, seat: Seat, window: bool, mask: &mut [i8]) {
    legal_mask_bits(game, seat, window, mask);
}

/// [`legal_mask`], also returning the legal indices as bits (bit `i` for index `i`). It reads
/// [`Game::legal_moves`], the sets the engine's listing puts in order: a coloured kind's index
/// is its card index, so the plays are one word.
pub fn legal_mask_bits(game: &Game, seat: Seat, window: bool, mask: &mut [i8]) -> u128 {
    const _: () = assert!(a::COUNT.is_multiple_of(8));
    let moves = game.legal_moves(seat);
    let colored = moves.plays.bits() & ((1 << COLORED_KINDS) - 1);
    let mut bits = u128::from(colored) << a::PLAY;
    for (wild, base) in [(Card::WILD, a::PLAY_WILD), (Card::WILD_DRAW_FOUR, a::PLAY_WILD_DRAW_FOUR)] {
        if moves.plays.contains(wild) {
            for c in moves.colors {
                bits |= 1 << (base + c.index());
            }
        }
    }
    for &action in moves.others() {
        let i = match action {
            Action::Draw => a::DRAW,
            Action::Pass => a::PASS,
            Action::Challenge => a::CHALLENGE,
            Action::Accept => a::ACCEPT,
            Action::DeclareColor { color } => a::DECLARE_COLOR + color.index(),
            Action::SwapHands { with } => a::SWAP + offset_of(game, seat, with) - 1,
            Action::CallUno => a::CALL_UNO,
            Action::CatchUno { seat: target } => {
                match offset_of(game, seat, target).checked_sub(1).filter(|&k| k + 1 < MAX_SEATS) {
                    Some(k) => a::CATCH + k,
                    None => continue,
                }
            }
            // Rounds are episodes: the environment deals anew instead of asking for this.
            Action::NextRound | Action::Play { .. } => continue,
        };
        bits |= 1 << i;
    }
    if window {
        bits |= 1 << a::DECLINE;
    }
    // Eight entries a byte of the bits, through the table (the space is 11 words of 8).
    for (k, chunk) in mask[..a::COUNT].chunks_exact_mut(8).enumerate() {
        let bytes = SPREAD[((bits >> (8 * k)) & 0xff) as usize].to_le_bytes();
        chunk.copy_from_slice(&bytes.map(|b| b as i8));
    }
    bits
}

/// For each byte, its eight bits as eight bytes of 0 or 1 (the lowest bit first).
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte] |= ((byte as u64 >> bit) & 1) << (8 * bit);
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Whether, under `rules`, a seat whose turn it is not can react only while a seat is exposed
/// without its UNO call: no jump-in, and no false-call penalty (under which the engine takes a
/// call from anyone). Then no window opens while [`Game::uno_exposed`] is `None` — what lets a
/// batched step play a bot's whole turn at once when it starts with nobody exposed.
pub fn reactions_need_exposure(rules: &uno::Rules) -> bool {
    rules.jump_in() == uno::rules::JumpIn::Off && rules.false_call_penalty() == 0
}

/// Whether `seat`, whose turn it is not, has something to react with now: a jump-in, its own
/// late UNO call, or a catch. A false call alone opens no window (it can only cost cards).
pub fn has_reaction(game: &Game, seat: Seat) -> bool {
    if seat == game.current() || game.is_round_over() || game.phase() != Phase::Play && game.uno_exposed().is_none() {
        return false;
    }
    // Most moves expose nobody: then, without a false-call penalty, neither a call nor a catch
    // can pass the checks below, and a jump-in needs a copy of the top card in hand. Answering
    // from that spares three rule checks per bot move, the bulk of a batched step.
    if game.uno_exposed().is_none() && game.rules().false_call_penalty() == 0 {
        if reactions_need_exposure(game.rules()) {
            return false;
        }
        let top = game.top();
        return !top.is_wild()
            && game.hand(seat).contains(&top)
            && game.check(seat, Action::Play { card: top, color: None }).is_ok();
    }
    // Under a false-call penalty the engine takes a call from anyone; only a real one counts.
    if game.view(seat).can_call_own_uno() && game.check(seat, Action::CallUno).is_ok() {
        return true;
    }
    if let Some(exposed) = game.uno_exposed().filter(|&v| v != seat) {
        if game.check(seat, Action::CatchUno { seat: exposed }).is_ok() {
            return true;
        }
    }
    let top = game.top();
    !top.is_wild() && game.check(seat, Action::Play { card: top, color: None }).is_ok()
}

/// The index an engine action takes in the space for `seat`.
pub fn encode(game: &Game, seat: Seat, action: Action) -> Option<usize> {
    encode_at(game.players(), seat, action)
}

/// The index an engine action takes in the space for `seat` at a table of `players` (what a
/// bot knows from its view).
pub fn encode_at(players: usize, seat: Seat, action: Action) -> Option<usize> {
    let i = match action {
        Action::Play { card, color } if !card.is_wild() => color.is_none().then_some(card.index())?,
        Action::Play { card, color } => {
            let base = if card == Card::WILD { a::PLAY_WILD } else { a::PLAY_WILD_DRAW_FOUR };
            base + color?.index()
        }
        Action::Draw => a::DRAW,
        Action::Pass => a::PASS,
        Action::Challenge => a::CHALLENGE,
        Action::Accept => a::ACCEPT,
        Action::DeclareColor { color } => a::DECLARE_COLOR + color.index(),
        Action::SwapHands { with } => a::SWAP + offset(players, seat, with).checked_sub(1)?,
        Action::CallUno => a::CALL_UNO,
        Action::CatchUno { seat: target } => a::CATCH + offset(players, seat, target).checked_sub(1)?,
        Action::NextRound => return None,
    };
    debug_assert!(i < a::COUNT && COLORED_KINDS + 2 * COLORS == a::DRAW);
    Some(i)
}
