//! What one viewer sees of an UNO table: the game's own view (the engine's observation for that
//! seat, or a spectator's) with the table's facts, and while the table waits for its seats,
//! the table without a game (nothing is dealt).

use uno::{Event, Rules};

use super::{update, Uno};
use crate::host::{Facts, Logged, Shown, Viewer};
use crate::messages::{TableStatus, TableView};

/// The view of the dealt game.
pub(crate) fn dealt(uno: &Uno, facts: &Facts<'_, Uno>, v: Viewer, shown: Shown<'_, Event>) -> TableView {
    let seat = v.seat();
    let game = &uno.game;
    let view = game.observation(seat);
    let legal_actions = if facts.status == TableStatus::Playing { view.legal_actions.clone() } else { Vec::new() };
    let (kind, events): (&str, Vec<Logged<Event>>) = match shown {
        Shown::Recent(recent) => ("state", recent.iter().map(|e| redacted(e, seat)).collect()),
        Shown::Change(events, answered) => {
            ("update", events.iter().chain(answered).map(|e| redacted(e, seat)).collect())
        }
    };
    TableView {
        kind: kind.to_string(),
        round_pause_ms: uno.round_pause_ms(facts),
        revealed_hands: update::revealed_hands(game),
        round_result: update::round_result(game),
        rules: game.rules().name().to_string(),
        view: Some(view),
        legal_actions,
        events,
        ..table(facts, seat)
    }
}

/// The table waiting for its seats: no game, no hand, no events.
pub(crate) fn waiting(rules: &Rules, facts: &Facts<'_, Uno>, v: Viewer) -> TableView {
    TableView { rules: rules.name().to_string(), ..table(facts, v.seat()) }
}

/// The table's own fields, the same before and after the deal.
fn table(facts: &Facts<'_, Uno>, you: Option<uno::Seat>) -> TableView {
    TableView {
        kind: "state".to_string(),
        id: facts.id.to_string(),
        game: "uno".to_string(),
        status: facts.status,
        version: facts.version,
        generation: facts.generation,
        rules: String::new(),
        seats: facts.occupants(),
        you,
        spectators: facts.spectators,
        chosen_seed: facts.settings.chosen_seed,
        started_from: facts.settings.started_from.clone(),
        turn_seconds: facts.turn_seconds,
        turn_ms_left: facts.turn_ms_left,
        turn_seat: facts.turn_seat,
        round_pause_ms: None,
        revealed_hands: None,
        round_result: None,
        view: None,
        legal_actions: Vec::new(),
        events: Vec::new(),
    }
}

fn redacted(e: &Logged<Event>, seat: Option<uno::Seat>) -> Logged<Event> {
    Logged { version: e.version, event: e.event.redacted_for(seat) }
}
