// The table page's state: the view held, the seat's token, the socket, and the names of seats
// as the page words them. Shared by the modules of the table page.
import { seatLabel } from './seats.js';
import { eventWords as describeEvent } from './unocards.js';

export const $ = (id) => document.getElementById(id);

export const table = {
  id: null,
  token: null,
  view: null, // the last TableView
  socket: null,
  retry: 0,
  names: [],
  pendingWild: null,
  closedByUs: false,
  sending: false,
  sortHand: true,
  topBy: null, // the seat that played the top card (null: the round's first card)
  // Whose move the page last showed: an error is about a moment, and goes when the turn moves on.
  lastTurnKey: null,
  pauseTimer: null,
  // While the connection is down: the countdown's timer, and whether the buttons are off.
  offline: false,
  offlineTimer: null,
};

export function seatName(i) {
  if (!table.view) return `Seat ${i + 1}`;
  const base = seatLabel(table.view.seats, i);
  return table.view.you === i ? `${base} (you)` : base;
}
export const who = (seat) => (table.view && table.view.you === seat ? 'You' : seatName(seat));

export const eventWords = (ev) => describeEvent(ev.event, { seatName, who, you: table.view && table.view.you });

export function legal(v) {
  return v.legal_actions || [];
}

/** What the page does with the server, set by the table page (`uno.js`): the modules that draw
 * the table call it without depending on the connection. */
export const actions = {
  /** @param {object} _action */
  send: async (_action) => {},
};

/** While the connection is down, every button of the table is off (a move would meet a table the
 * page cannot show); the next view, on reconnecting, draws them again. */
export function setOffline(on) {
  table.offline = on;
  if (!on) clearInterval(table.offlineTimer);
  $('play').toggleAttribute('data-offline', on);
  for (const b of document.querySelectorAll('#play button')) {
    if (on && !b.disabled) {
      b.disabled = true;
      b.dataset.offline = 'true';
    } else if (!on && b.dataset.offline) {
      b.disabled = false;
      delete b.dataset.offline;
    }
  }
}
