//! The observation vector: what one seat may know, in the layout of [`crate::space::obs`].
//!
//! Everything is read through the engine's borrowed `View` of the seat, which shows its own
//! hand and the public state only ([`write_view_observation`] takes nothing else); the no-leak
//! test in `uno-env`'s `tests/env.rs` resamples every hidden card and checks that the vector does
//! not change.

use uno::game::{Game, View};
use uno::{Card, Color, Direction, Observation, Phase, Seat};

use crate::mapping::offset;
use crate::space::{obs as o, KINDS, MAX_SEATS};

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
    write_view_observation(&game.view(seat), window, out);
}

/// Writes the observation of the view's seat into `out` (length `obs::SIZE`); `window` says
/// whether the seat decides in a reaction window. Bots call this with the view they are given.
pub fn write_view_observation(view: &View<'_>, window: bool, out: &mut [f32]) {
    write_from(view, window, out);
}

/// Writes the observation of an owned [`Observation`]'s viewer (seat 0 for a spectator's,
/// whose hand is empty): the same vector as [`write_view_observation`] of that seat's view.
pub fn write_owned_observation(observation: &Observation, window: bool, out: &mut [f32]) {
    write_from(observation, window, out);
}

/// What one seat may see, in both of the engine's forms: the borrowed [`View`] and the owned
/// [`Observation`] (and any other form a caller builds, such as a bot's view of a past turn).
/// The encoder reads the seat's own hand and the public state through it, nothing else; the bots
/// ask their questions of it (`uno_bots::any_view::AnyViewExt` builds on it).
pub trait AnyView {
    /// The deciding seat (a spectator has no decision to make: seat 0 stands in).
    fn seat(&self) -> Seat;
    fn players(&self) -> usize;
    fn hand(&self) -> &[Card];
    fn hand_size(&self, seat: Seat) -> usize;
    fn top(&self) -> Card;
    /// The colour in play; `None` while a first-card Wild waits for its colour.
    fn color(&self) -> Option<Color>;
    fn uno_called(&self, seat: Seat) -> bool;
    fn uno_exposed(&self) -> Option<Seat>;
    fn current(&self) -> Seat;
    fn direction(&self) -> Direction;
    fn pending_draw(&self) -> u32;
    fn phase(&self) -> Phase;
    fn drawn_card(&self) -> Option<Card>;
    /// Bottom card first.
    fn discard(&self) -> &[Card];
    fn draw_pile_size(&self) -> usize;
    /// Copies of each kind in the seat's own hand, by `Card::index`.
    fn hand_counts(&self) -> [u8; KINDS] {
        let mut counts = [0u8; KINDS];
        for &card in self.hand() {
            counts[card.index()] = counts[card.index()].saturating_add(1);
        }
        counts
    }
}

impl AnyView for View<'_> {
    #[inline]
    fn seat(&self) -> Seat {
        View::seat(self)
    }
    #[inline]
    fn players(&self) -> usize {
        View::players(self)
    }
    #[inline]
    fn hand(&self) -> &[Card] {
        View::hand(self)
    }
    #[inline]
    fn hand_size(&self, seat: Seat) -> usize {
        View::hand_size(self, seat)
    }
    #[inline]
    fn top(&self) -> Card {
        View::top(self)
    }
    #[inline]
    fn color(&self) -> Option<Color> {
        View::color(self)
    }
    #[inline]
    fn uno_called(&self, seat: Seat) -> bool {
        View::uno_called(self, seat)
    }
    #[inline]
    fn uno_exposed(&self) -> Option<Seat> {
        View::uno_exposed(self)
    }
    #[inline]
    fn current(&self) -> Seat {
        View::current(self)
    }
    #[inline]
    fn direction(&self) -> Direction {
        View::direction(self)
    }
    #[inline]
    fn pending_draw(&self) -> u32 {
        View::pending_draw(self)
    }
    #[inline]
    fn phase(&self) -> Phase {
        View::phase(self)
    }
    #[inline]
    fn drawn_card(&self) -> Option<Card> {
        View::drawn_card(self)
    }
    #[inline]
    fn discard(&self) -> &[Card] {
        View::discard_pile(self)
    }
    #[inline]
    fn draw_pile_size(&self) -> usize {
        View::draw_pile_size(self)
    }
    #[inline]
    fn hand_counts(&self) -> [u8; KINDS] {
        *View::hand_counts(self)
    }
}

impl AnyView for Observation {
    #[inline]
    fn seat(&self) -> Seat {
        self.viewer.unwrap_or(Seat(0))
    }
    #[inline]
    fn players(&self) -> usize {
        self.players
    }
    #[inline]
    fn hand(&self) -> &[Card] {
        &self.hand
    }
    #[inline]
    fn hand_size(&self, seat: Seat) -> usize {
        self.hand_sizes.get(seat.index()).copied().unwrap_or(0)
    }
    #[inline]
    fn top(&self) -> Card {
        self.top
    }
    #[inline]
    fn color(&self) -> Option<Color> {
        self.color
    }
    #[inline]
    fn uno_called(&self, seat: Seat) -> bool {
        self.uno_called.get(seat.index()).copied().unwrap_or(false)
    }
    #[inline]
    fn uno_exposed(&self) -> Option<Seat> {
        self.uno_exposed
    }
    #[inline]
    fn current(&self) -> Seat {
        self.current
    }
    #[inline]
    fn direction(&self) -> Direction {
        self.direction
    }
    #[inline]
    fn pending_draw(&self) -> u32 {
        self.pending_draw
    }
    #[inline]
    fn phase(&self) -> Phase {
        self.phase
    }
    #[inline]
    fn drawn_card(&self) -> Option<Card> {
        self.drawn_card
    }
    #[inline]
    fn discard(&self) -> &[Card] {
        &self.discard
    }
    #[inline]
    fn draw_pile_size(&self) -> usize {
        self.draw_pile_size
    }
}

fn write_from(view: &impl AnyView, window: bool, out: &mut [f32]) {
    // No clearing pass over the whole row: the count blocks are written whole, the blocks
    // between them cleared once and their entries set. Counts are made on the stack, where
    // adding to a repeated kind is cheap, and converted in one sweep.
    let out = &mut out[..o::SIZE];
    let seat = view.seat();
    let players = view.players().min(MAX_SEATS);
    let mut discard = [0u16; KINDS];
    for &card in view.discard() {
        discard[card.index()] += 1;
    }
    let offset_of = |other: Seat| offset(players, seat, other);
    counts(&mut out[o::HAND..o::TOP], &view.hand_counts());
    out[o::TOP..o::DISCARD].fill(0.0);
    set(out, o::TOP, Some(view.top().index()));
    set(out, o::COLOR, view.color().map(Color::index));
    // The seat at offset `k`, walked round the table from the viewer.
    let mut other = seat.index();
    for k in 0..players {
        let s = Seat(other as u8);
        out[o::HAND_SIZES + k] = view.hand_size(s) as f32;
        out[o::UNO_CALLED + k] = f32::from(u8::from(view.uno_called(s)));
        out[o::SEATED + k] = 1.0;
        other = if other + 1 == players { 0 } else { other + 1 };
    }
    set(out, o::UNO_EXPOSED, view.uno_exposed().map(offset_of));
    set(out, o::CURRENT, Some(offset_of(view.current())));
    out[o::DIRECTION] = f32::from(u8::from(view.direction() == Direction::Clockwise));
    out[o::PENDING] = view.pending_draw() as f32;
    set(out, o::PHASE, Some(phase_index(view.phase())));
    set(out, o::ROLE, Some(usize::from(window)));
    set(out, o::DRAWN, view.drawn_card().map(Card::index));
    counts(&mut out[o::DISCARD..o::DRAW_PILE], &discard);
    out[o::DRAW_PILE] = view.draw_pile_size() as f32;
}

/// Sets entry `hot` of the block at `block` to 1 (nothing for `None`).
#[inline]
fn set(out: &mut [f32], block: usize, hot: Option<usize>) {
    if let Some(x) = hot.and_then(|i| out.get_mut(block + i)) {
        *x = 1.0;
    }
}

/// A block of per-kind counts.
#[inline(always)]
fn counts<T: Copy + Into<f32>>(block: &mut [f32], counts: &[T; KINDS]) {
    // A block of known length: no bounds check an entry.
    let block = &mut block[..KINDS];
    for (x, &n) in block.iter_mut().zip(counts) {
        *x = n.into();
    }
}
