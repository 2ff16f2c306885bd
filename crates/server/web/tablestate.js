// @ts-check
// The table page's state: the view held, the seat's token, the socket, and the names of seats
// as the page words them. Shared by the modules of the table page.
import { seatLabel } from './seats.js';
import { eventWords as describeEvent } from './unocards.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Action} Action */
/** @typedef {import('./protocol').LoggedEvent} LoggedEvent */
/** @typedef {import('./protocol').Update} Update */
/** @typedef {import('./protocol').Observation} Observation */

/**
 * An element of uno.html by id, typed loosely as a form field (the page's elements are divs,
 * buttons, inputs and selects; the modules use what each has). Every id asked for is in the
 * page, so a missing one is a mistake in the page and throws.
 * @param {string} id
 * @returns {HTMLElement & { value: string, disabled: boolean, required: boolean, checked: boolean }}
 */
export function $(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`uno.html has no #${id}`);
  return /** @type {any} */ (found);
}

/**
 * @typedef {object} TableState
 * @property {string | null} id
 * @property {string | null} token
 * @property {TableView | null} view the last view the server sent
 * @property {WebSocket | null} socket
 * @property {number} retry
 * @property {string[]} names
 * @property {string | null} pendingWild the wild card waiting for its colour
 * @property {boolean} closedByUs
 * @property {boolean} sending
 * @property {boolean} sortHand
 * @property {number | null} topBy the seat that played the top card (null: the round's first card)
 * @property {string | null} lastTurnKey whose move the page last showed: an error is about a moment, and goes when the turn moves on
 * @property {ReturnType<typeof setTimeout> | null} pauseTimer
 * @property {boolean} offline while the connection is down
 * @property {DOMRect | null} [playedFrom] where the viewer's played card was, for its glide to the pile
 * @property {ReturnType<typeof setInterval> | undefined} offlineTimer the countdown's timer
 */

/** @type {TableState} */
export const table = {
  id: null,
  token: null,
  view: null,
  socket: null,
  retry: 0,
  names: [],
  pendingWild: null,
  closedByUs: false,
  sending: false,
  sortHand: true,
  topBy: null,
  lastTurnKey: null,
  pauseTimer: null,
  offline: false,
  offlineTimer: undefined,
};

/** @param {number} i */
export function seatName(i) {
  if (!table.view) return `Seat ${i + 1}`;
  const base = seatLabel(table.view.seats, i);
  return table.view.you === i ? `${base} (you)` : base;
}
/** @param {number} seat */
export const who = (seat) => (table.view && table.view.you === seat ? 'You' : seatName(seat));

/** @param {LoggedEvent} ev */
export const eventWords = (ev) => describeEvent(ev.event, { seatName, who, you: table.view && table.view.you });

/**
 * @param {TableView} v
 * @returns {Action[]}
 */
export function legal(v) {
  return v.legal_actions || [];
}

/** What the page does with the server, set by the table page (`uno.js`): the modules that draw
 * the table call it without depending on the connection. */
export const actions = {
  /** @param {Action} _action */
  send: async (_action) => {},
};

/** While the connection is down, every button of the table is off (a move would meet a table the
 * page cannot show); the next view, on reconnecting, draws them again. */
/** @param {boolean} on */
export function setOffline(on) {
  table.offline = on;
  if (!on) clearInterval(table.offlineTimer);
  $('play').toggleAttribute('data-offline', on);
  for (const b of document.querySelectorAll('#play button')) {
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

/**
 * Merges a WebSocket update into the view held. An update is what one action changed: its
 * events, the public part of the view, and this seat's drawn card, plus its hand and legal
 * actions only when they changed (absent: as before). It follows the version held by exactly
 * one. Answers the merged view, `'shown'` when the view held is already as new (the answer to
 * the page's own action came first), or `'gap'` when a change was missed (another game, or a
 * version skipped): then the page reads the whole table again rather than merge onto a gap.
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
    round_pause_ms: u.round_pause_ms ?? null,
    revealed_hands: u.revealed_hands ?? null,
    round_result: u.round_result ?? null,
    view,
    legal_actions: u.legal_actions ?? v.legal_actions,
    events: u.events,
  };
}
