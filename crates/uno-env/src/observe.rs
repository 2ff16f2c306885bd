//! The observation vector: what one seat may know, in the layout of [`crate::space::obs`].
//!
//! Everything is read through the engine's borrowed `View` of the seat, which shows its own
//! hand and the public state only; the no-leak test in `tests/env.rs` resamples every hidden
//! card and checks that the vector does not change.

use uno::game::Game;
use uno::{Direction, Phase, Seat};

use crate::mapping::offset_of;
use crate::space::obs as o;

/// The index of a phase in the `PHASE` block.
pub fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Play => 0,
        Phase::DrawnCard => 1,
        Phase::ChooseColor => 2,
        Phase::Challenge { .. } => 3,
        Phase::ChooseSwap => 4,
        Phase::RoundOver => 5,
        Phase::GameOver => 6,
        Phase::SameNumber => 7,
    }
}

/// Writes the observation of `seat` into `out` (length `obs::SIZE`); `window` says whether the
/// seat decides in a reaction window.
pub fn write_observation(game: &Game, seat: Seat, window: bool, out: &mut [f32]) {
    out.fill(0.0);
    let view = game.view(seat);
    for &card in view.hand() {
        out[o::HAND + card.index()] += 1.0;
    }
    out[o::TOP + view.top().index()] = 1.0;
    if let Some(color) = view.color() {
        out[o::COLOR + color.index()] = 1.0;
    }
    for s in 0..view.players() {
        let other = Seat(s as u8);
        let k = offset_of(game, seat, other);
        out[o::HAND_SIZES + k] = view.hand_size(other) as f32;
        out[o::UNO_CALLED + k] = f32::from(u8::from(view.uno_called(other)));
        out[o::SEATED + k] = 1.0;
    }
    if let Some(exposed) = view.uno_exposed() {
        out[o::UNO_EXPOSED + offset_of(game, seat, exposed)] = 1.0;
    }
    out[o::CURRENT + offset_of(game, seat, view.current())] = 1.0;
    out[o::DIRECTION] = f32::from(u8::from(view.direction() == Direction::Clockwise));
    out[o::PENDING] = view.pending_draw() as f32;
    out[o::PHASE + phase_index(view.phase())] = 1.0;
    out[o::ROLE + usize::from(window)] = 1.0;
    if let Some(card) = view.drawn_card() {
        out[o::DRAWN + card.index()] = 1.0;
    }
    for &card in view.discard_pile() {
        out[o::DISCARD + card.index()] += 1.0;
    }
    out[o::DRAW_PILE] = view.draw_pile_size() as f32;
}
