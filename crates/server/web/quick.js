// @ts-check
// Quick match in the lobby: one click puts the person in the server's queue (`POST /api/queue`),
// the queue's socket says where they stand and, once a wave seats them, their table, seat and
// token; the page keeps the seat and opens the table. Leaving the queue (the button, or closing
// the page, which closes the socket) takes them out before any wave can seat them.
import { $, el, field, request, showError } from './api.js';
import { t } from './i18n.js';
import { errorText } from './refusals.js';
import { saveName, savedName, saveSeat } from './seatstore.js';

/** @typedef {import('./protocol').Queued} Queued */
/** @typedef {import('./protocol').QueueStatus} QueueStatus */
/** @typedef {import('./protocol').QueueRequest} QueueRequest */

/** What the page holds of its visit to the queue. */
const held = {
  /** @type {string | null} */
  ticket: null,
  /** @type {WebSocket | null} */
  socket: null,
  /** @type {number | null} when bots fill the table, in this page's clock */
  botsAt: null,
  /** @type {ReturnType<typeof setInterval> | undefined} */
  timer: undefined,
  /** @type {QueueStatus | null} */
  last: null,
};

/** A name for a person who gave none: quick match is one click. */
function guestName() {
  return t('quick.guest', { n: String(Math.floor(1000 + Math.random() * 9000)) });
}

/** @param {boolean} on */
function waitingUi(on) {
  field('quick-match').disabled = on;
  $('quick-leave').hidden = !on;
}

function say() {
  const s = held.last;
  const line = $('quick-status');
  if (!s) {
    line.textContent = '';
    return;
  }
  if (s.state === 'waiting') {
    const left = held.botsAt === null ? 0 : Math.max(0, Math.ceil((held.botsAt - Date.now()) / 1000));
    const others = s.waiting - 1;
    const who = others > 0 ? t('quick.others', { n: others }) : t('quick.nobody');
    const bots = left > 0 ? t('quick.botsIn', { n: left }) : t('quick.botsNow');
    line.textContent = t('quick.queue', { rules: s.preset, players: s.players === 'any' ? '2–4' : s.players, who, bots });
    line.dataset.state = 'waiting';
  } else if (s.state === 'seated') {
    line.textContent = s.people - 1 === 0 ? t('quick.seatedBots') : t('quick.seated', { n: s.people - 1 });
    line.dataset.state = 'seated';
  } else {
    line.textContent = t('quick.left');
    line.dataset.state = 'left';
  }
}

/** @param {QueueStatus} s */
function status(s) {
  held.last = s;
  if (s.state === 'waiting') held.botsAt = Date.now() + s.bots_in_ms;
  say();
  if (s.state === 'seated') {
    clearInterval(held.timer);
    saveSeat(s.table, s.seat, s.token);
    held.ticket = null;
    location.assign(`uno.html?table=${encodeURIComponent(s.table)}`);
  } else if (s.state === 'left') {
    stop();
  }
}

function stop() {
  clearInterval(held.timer);
  held.timer = undefined;
  held.ticket = null;
  const ws = held.socket;
  held.socket = null;
  if (ws) ws.close();
  waitingUi(false);
}

/** Follows the ticket on the queue's socket; if the socket drops, by reading the queue. */
function follow() {
  const ticket = held.ticket;
  if (!ticket) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/queue/ws`, ['tabletop', `bearer.${ticket}`]);
  held.socket = ws;
  ws.addEventListener('message', (m) => {
    try {
      status(/** @type {QueueStatus} */ (JSON.parse(m.data)));
    } catch {
      /* not a status */
    }
  });
  ws.addEventListener('close', () => {
    if (held.socket !== ws || !held.ticket) return;
    held.socket = null;
    poll();
  });
}

async function poll() {
  const ticket = held.ticket;
  if (!ticket) return;
  try {
    status(/** @type {QueueStatus} */ (await request('GET', '/api/queue', undefined, ticket)));
  } catch (err) {
    showError($('quick-error'), errorText(err));
    stop();
    return;
  }
  if (held.ticket) setTimeout(poll, 1000);
}

/** @param {SubmitEvent} e */
async function start(e) {
  e.preventDefault();
  let name = field('quick-name').value.trim();
  if (!name) {
    name = guestName();
    field('quick-name').value = name;
  }
  const players = field('quick-players').value;
  /** @type {QueueRequest} */
  const body = {
    preset: field('quick-preset').value,
    players: players === 'any' ? 'any' : Number(players),
    name,
    wait_s: Number(field('quick-wait').value),
  };
  showError($('quick-error'), '');
  waitingUi(true);
  try {
    const queued = /** @type {Queued} */ (await request('POST', '/api/queue', body));
    saveName(name);
    held.ticket = queued.ticket;
    status(queued.status);
    held.timer = setInterval(say, 500);
    follow();
  } catch (err) {
    showError($('quick-error'), errorText(err, { name: true }));
    waitingUi(false);
  }
}

async function leave() {
  const ticket = held.ticket;
  stop();
  if (!ticket) return;
  try {
    status(/** @type {QueueStatus} */ (await request('DELETE', '/api/queue', undefined, ticket)));
  } catch {
    /* out of the queue either way: the socket closed */
  }
}

/**
 * Wires the lobby's quick-match form.
 * @param {string[]} presets
 */
export function setupQuickMatch(presets) {
  const preset = field('quick-preset');
  preset.replaceChildren(...presets.map((p) => el('option', { value: p }, p)));
  preset.value = presets.includes('official') ? 'official' : presets[0];
  field('quick-name').value = savedName();
  $('quick-form').addEventListener('submit', start);
  $('quick-leave').addEventListener('click', leave);
  window.addEventListener('pagehide', () => {
    if (held.socket) held.socket.close();
  });
}
