// @ts-check
// What the table page reads from the view it holds, with no state of its own: a seat's name as
// the viewer reads it, an event in words, the legal actions, and an update merged into a view.
import { t } from './i18n.js';
import { seatLabel } from './seats.js';
import { eventWords as describeEvent } from './unocards.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Action} Action */
/** @typedef {import('./protocol').LoggedEvent} LoggedEvent */
/** @typedef {import('./protocol').Update} Update */
/** @typedef {import('./protocol').Observation} Observation */

/**
 * The names of a view's seats as its viewer reads them.
 * @typedef {object} Names
 * @property {(seat: number) => string} seatName a seat's name ("Ann (you)" for the viewer's)
 * @property {(seat: number) => string} who "You" for the viewer's seat, else its name
 * @property {(ev: LoggedEvent) => string} eventWords an event in a sentence
 */

/**
 * @param {TableView | null} v
 * @returns {Names}
 */
export function names(v) {
  /** @param {number} i */
  const seatName = (i) => {
    if (!v) return t('seat.n', { n: i + 1 });
    const base = seatLabel(v.seats, i);
    return v.you === i ? t('seat.you', { name: base }) : base;
  };
  /** @param {number} seat */
  const who = (seat) => (v && v.you === seat ? t('seat.You') : seatName(seat));
  return { seatName, who, eventWords: (ev) => describeEvent(ev.event, { seatName, who, you: v && v.you }) };
}

/**
 * @param {TableView} v
 * @returns {Action[]}
 */
export function legal(v) {
  return v.legal_actions || [];
}

/**
 * Merges a WebSocket update into the view held. An update is what one action changed: its
 * events, the public part of the view, and this seat's drawn card, plus its hand and legal
 * actions only when they changed (absent: as before). It follows the version held by exactly
 * one. Answers the merged view, `'shown'` when the view held is already as new, or `'gap'` when
 * a change was missed (another game, or a version skipped): then the page reads the whole
 * table again rather than merge onto a gap.
 * @param {TableView | null} v the view held
 * @param {Update} u
 * @returns {TableView | 'shown' | 'gap'}
 */
export function mergeUpdate(v, u) {
  if (!v || !v.view || u.generation !== v.generation) return 'gap';
  if (u.version <= v.version) return 'shown';
  if (u.version !== v.version + 1) return 'gap';
  // Only full states carry the discard pile (the page shows its top card) and the view's own copy
  // of the legal actions (the page reads the table's): they are kept as they were.
  /** @type {Observation} */
  const view = { ...v.view, ...u.view };
  return {
    ...v,
    type: 'update',
    version: u.version,
    status: u.status,
    turn_ms_left: u.turn_ms_left ?? null,
    turn_seat: u.turn_seat ?? null,
    round_pause_ms: u.round_pause_ms ?? null,
    revealed_hands: u.revealed_hands ?? null,
    round_result: u.round_result ?? null,
    view,
    legal_actions: u.legal_actions ?? v.legal_actions,
    events: u.events,
  };
}

/**
 * While the connection is down, every button inside `root` is off (a move would meet a table
 * the page cannot show); the next view, on reconnecting, draws them again.
 * @param {HTMLElement} root
 * @param {boolean} on
 */
export function setOffline(root, on) {
  root.toggleAttribute('data-offline', on);
  for (const b of root.querySelectorAll('button')) {
    if (!(b instanceof HTMLButtonElement)) continue;
    if (on && !b.disabled) {
      b.disabled = true;
      b.dataset.offline = 'true';
    } else if (!on && b.dataset.offline) {
      b.disabled = false;
      delete b.dataset.offline;
    }
  }
}
