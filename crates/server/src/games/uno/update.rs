//! The `update` push sent after an action: what changed, per viewer, rendered once where it can be.
//!
//! Rendering a full view for every seat after every action (the whole discard pile, every seat's
//! legal actions, names and settings, four times over) was most of the server's own CPU under
//! load. An update carries the action's events, the public part of the view (rendered once and
//! shared by every viewer), and per seat only what differs from what that seat was last told: its
//! hand and its legal actions when they changed, and its drawn card. A client keeps the full
//! `state` it got on connect and merges each update into it.

use serde::Serialize;
use uno::{Action, Card, Color, Direction, Event, Game, Outcome, Phase, Seat};

use crate::host::seats;
use crate::messages::{HandResult, LoggedEvent, RoundResult, TableStatus};
use crate::text::Text;

/// What the updates so far told one seat. `None`: not known (nobody of that seat was listening,
/// or a full state went out since), so the next update says it in full.
#[derive(Clone, Debug, Default)]
pub struct Told {
    hand: Option<Vec<Card>>,
    legal: Option<Vec<Action>>,
}

impl Told {
    /// What a full state tells `seat` now.
    pub(crate) fn now(game: &Game, status: TableStatus, seat: Seat) -> Told {
        Told { hand: Some(game.hand(seat).to_vec()), legal: Some(legal_actions(game, status, seat)) }
    }
}

/// The legal actions a view lists: none unless the game is being played.
fn legal_actions(game: &Game, status: TableStatus, seat: Seat) -> Vec<Action> {
    if status == TableStatus::Playing {
        game.legal_actions_for(seat)
    } else {
        Vec::new()
    }
}

/// The table-level fields of an update.
#[derive(Serialize, ts_rs::TS)]
pub(crate) struct Head {
    #[serde(rename = "type")]
    #[ts(type = r#""update""#)]
    kind: &'static str,
    #[ts(type = "number")]
    version: u64,
    generation: u32,
    status: TableStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<u32>")]
    turn_ms_left: Option<u64>,
    /// Whose turn time `turn_ms_left` is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    turn_seat: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<u32>")]
    round_pause_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    revealed_hands: Option<Vec<Vec<Card>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    round_result: Option<RoundResult>,
}

/// Every hand, once a round or the game is over (what the points were counted from); `None`
/// while cards are hidden.
pub(crate) fn revealed_hands(game: &Game) -> Option<Vec<Vec<Card>>> {
    matches!(game.phase(), Phase::RoundOver | Phase::GameOver)
        .then(|| game.hands().iter().map(|h| h.to_vec()).collect())
}

/// The result of the round just ended, once a round or the game is over: the winner and points
/// the engine scored (its `round_scored` event says the same), each hand with its points under
/// the game's rules, the match totals and, at the end, the game's winner.
pub(crate) fn round_result(game: &Game) -> Option<RoundResult> {
    let r = game.round_result()?;
    Some(RoundResult {
        round: r.round,
        winner: r.winner,
        points: r.points,
        hands: r.hands.into_iter().map(|h| HandResult { cards: h.cards, points: h.points }).collect(),
        totals: r.totals,
        game_over: r.game_over,
        match_winner: r.match_winner,
        end_reason: r.end_reason,
    })
}

/// The public fields of `uno::Observation`, under the same names and in the same form.
#[derive(Serialize, ts_rs::TS)]
pub(crate) struct PublicView<'a> {
    players: usize,
    hand_sizes: Vec<usize>,
    uno_called: Vec<bool>,
    uno_exposed: Option<Seat>,
    top: Card,
    color: Option<Color>,
    draw_pile_size: usize,
    current: Seat,
    direction: Direction,
    dealer: Seat,
    phase: Phase,
    pending_draw: u32,
    turns: u32,
    round: u32,
    scores: &'a [u32],
    outcome: Option<&'a Outcome>,
}

/// The `update` message as a client reads it, declared for the pages' types (web/protocol.d.ts):
/// `render` writes it piece by piece: `Head`'s fields, then `events`, then `view` (`PublicView`'s
/// fields and, to a seat, its drawn card and its hand when it changed), then `legal_actions` when
/// they changed. The test `an_update_has_the_declared_fields` holds the two together.
#[cfg(test)]
#[derive(ts_rs::TS)]
#[ts(rename = "Update")]
#[allow(dead_code, reason = "a declaration: never built, only turned into TypeScript")]
pub(crate) struct UpdateDecl<'a> {
    #[ts(flatten)]
    head: Head,
    events: Vec<LoggedEvent>,
    view: UpdateViewDecl<'a>,
    /// The viewer's legal actions, when they changed since it was last told.
    #[ts(optional)]
    legal_actions: Option<Vec<Action>>,
}

/// An update's `view`: the public part, and to a seat its drawn card and (when it changed) its hand.
#[cfg(test)]
#[derive(ts_rs::TS)]
#[ts(rename = "UpdateView")]
#[allow(dead_code, reason = "a declaration: never built, only turned into TypeScript")]
pub(crate) struct UpdateViewDecl<'a> {
    #[ts(flatten)]
    public: PublicView<'a>,
    /// A seat's card drawn this turn (`null`: none); absent for a spectator.
    #[ts(optional)]
    drawn_card: Option<Option<Card>>,
    /// A seat's hand, when it changed since it was last told.
    #[ts(optional)]
    hand: Option<Vec<Card>>,
}

/// The table as the update needs it.
pub(crate) struct Change<'a> {
    pub game: &'a Game,
    pub status: TableStatus,
    pub version: u64,
    pub generation: u32,
    pub turn_ms_left: Option<u64>,
    pub turn_seat: Option<Seat>,
    pub round_pause_ms: Option<u64>,
    pub events: &'a [LoggedEvent],
    /// Open sockets per viewer index (seats, then spectators).
    pub watchers: &'a [usize],
}

/// A rendered JSON object without its closing brace, so more fields can follow.
fn open(mut json: Vec<u8>) -> Vec<u8> {
    if json.last() == Some(&b'}') {
        json.pop();
    }
    json
}

fn redacted(events: &[LoggedEvent], viewer: Option<Seat>) -> Vec<LoggedEvent> {
    events.iter().map(|e| LoggedEvent { version: e.version, event: e.event.redacted_for(viewer) }).collect()
}

/// Whether `seat` sees these events differently from a spectator (it drew cards it may see).
fn sees_more(events: &[LoggedEvent], seat: Seat) -> bool {
    events
        .iter()
        .any(|e| matches!(&e.event, Event::CardsDrawn { seat: s, cards, .. } if *s == seat && !cards.is_empty()))
}

/// The update for every viewer with an open socket (`None` for the others), indexed like
/// `watchers`; `told` (one per seat) is brought up to date.
pub(crate) fn render(c: &Change<'_>, told: &mut [Told]) -> Result<Vec<Option<Text>>, serde_json::Error> {
    let game = c.game;
    let players = game.players();
    let head = open(serde_json::to_vec(&Head {
        kind: "update",
        version: c.version,
        generation: c.generation,
        status: c.status,
        turn_ms_left: c.turn_ms_left,
        turn_seat: c.turn_seat,
        round_pause_ms: c.round_pause_ms,
        revealed_hands: revealed_hands(game),
        round_result: round_result(game),
    })?);
    let public = open(serde_json::to_vec(&PublicView {
        players,
        hand_sizes: game.hands().iter().map(|h| h.len()).collect(),
        uno_called: seats::all(players).map(|s| game.uno_called(s)).collect(),
        uno_exposed: game.uno_exposed(),
        top: game.top(),
        color: game.color(),
        draw_pile_size: game.draw_pile().len(),
        current: game.current(),
        direction: game.direction(),
        dealer: game.dealer(),
        phase: game.phase(),
        pending_draw: game.pending_draw(),
        turns: game.turns(),
        round: game.round(),
        scores: game.scores(),
        outcome: game.outcome(),
    })?);
    let public_events = serde_json::to_vec(&redacted(c.events, None))?;
    let mut out = Vec::with_capacity(players + 1);
    // Each seat, then the spectators (`None`).
    for (i, seat) in seats::all(players).map(Some).chain([None]).enumerate() {
        let listening = c.watchers.get(i).copied().unwrap_or(0) > 0;
        if !listening {
            if let Some(t) = told.get_mut(i) {
                *t = Told::default();
            }
            out.push(None);
            continue;
        }
        let mut buf = Vec::with_capacity(head.len() + public.len() + public_events.len() + 256);
        buf.extend_from_slice(&head);
        buf.extend_from_slice(b",\"events\":");
        match seat {
            Some(s) if sees_more(c.events, s) => serde_json::to_writer(&mut buf, &redacted(c.events, Some(s)))?,
            _ => buf.extend_from_slice(&public_events),
        }
        buf.extend_from_slice(b",\"view\":");
        buf.extend_from_slice(&public);
        let mut legal_json = None;
        if let (Some(s), Some(t)) = (seat, told.get_mut(i)) {
            buf.extend_from_slice(b",\"drawn_card\":");
            serde_json::to_writer(&mut buf, &game.drawn_card().filter(|_| s == game.current()))?;
            let hand = game.hand(s);
            if t.hand.as_deref() != Some(hand) {
                buf.extend_from_slice(b",\"hand\":");
                serde_json::to_writer(&mut buf, hand)?;
                t.hand = Some(hand.to_vec());
            }
            let legal = legal_actions(game, c.status, s);
            if t.legal.as_ref() != Some(&legal) {
                legal_json = Some(serde_json::to_vec(&legal)?);
                t.legal = Some(legal);
            }
        }
        buf.push(b'}');
        if let Some(legal) = legal_json {
            buf.extend_from_slice(b",\"legal_actions\":");
            buf.extend_from_slice(&legal);
        }
        buf.push(b'}');
        // Every piece came from serde_json or is ASCII, so this never fails; if it did, the
        // viewer would get a full state instead.
        out.push(String::from_utf8(buf).ok().map(Text::from));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;
    use ts_rs::{Config, TS};
    use uno::rules::{preset_config, Rules};

    use super::*;

    /// The fields a generated declaration names: (every field, the required ones).
    fn declared<T: TS>() -> (BTreeSet<String>, BTreeSet<String>) {
        let text = T::inline(&Config::new());
        let plain: Vec<&str> = text
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                !(l.starts_with("/**") || l.starts_with('*'))
            })
            .collect();
        let plain = plain.join(" ");
        let body = plain.trim().trim_start_matches('{').trim_end_matches('}');
        let (mut all, mut required) = (BTreeSet::new(), BTreeSet::new());
        for field in body.split(", ") {
            let Some((name, _)) = field.split_once(':') else { continue };
            let name = name.trim();
            if name.is_empty() {
                continue;
            }
            match name.strip_suffix('?') {
                Some(n) => {
                    all.insert(n.to_string());
                }
                None => {
                    all.insert(name.to_string());
                    required.insert(name.to_string());
                }
            }
        }
        (all, required)
    }

    fn keys(v: &Value) -> BTreeSet<String> {
        v.as_object().expect("an object").keys().cloned().collect()
    }

    fn check(what: &str, got: &BTreeSet<String>, (all, required): &(BTreeSet<String>, BTreeSet<String>)) {
        assert!(got.is_subset(all), "{what}: fields not declared: {:?}", got.difference(all).collect::<Vec<_>>());
        assert!(
            required.is_subset(got),
            "{what}: declared fields missing: {:?}",
            required.difference(got).collect::<Vec<_>>()
        );
    }

    #[test]
    fn an_update_has_the_declared_fields() {
        let rules = Rules::new(preset_config("official").expect("preset")).expect("rules");
        let game = Game::new(rules, 3, 7).expect("game");
        let change = Change {
            game: &game,
            status: TableStatus::Playing,
            version: 1,
            generation: 0,
            turn_ms_left: Some(30_000),
            turn_seat: Some(Seat(0)),
            round_pause_ms: None,
            events: &[],
            watchers: &[1, 0, 0, 1],
        };
        let mut told = vec![Told::default(); 3];
        let out = render(&change, &mut told).expect("render");
        let update = declared::<UpdateDecl<'static>>();
        let view = declared::<UpdateViewDecl<'static>>();
        let mut seen = BTreeSet::new();
        for (who, text) in [("a seat", &out[0]), ("a spectator", &out[3])] {
            let json: Value = serde_json::from_str(text.as_ref().expect("rendered").as_str()).expect("json");
            check(who, &keys(&json), &update);
            check(&format!("{who}'s view"), &keys(&json["view"]), &view);
            seen.extend(keys(&json));
            seen.extend(keys(&json["view"]));
        }
        // The seat was told its hand and legal actions in full: the optional fields were met too.
        for f in ["hand", "drawn_card", "legal_actions", "turn_ms_left", "turn_seat"] {
            assert!(seen.contains(f), "{f} never rendered");
        }
    }
}
