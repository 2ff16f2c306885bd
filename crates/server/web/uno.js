// @ts-check
// The UNO pages: the lobby (open a table, list open tables) and a table (join, play, watch).
// The server decides every rule: the page shows the view it pushes over the WebSocket, marks
// what the server lists as legal, and shows refusals word for word.
import { ApiError, capitalize, el, request, showError } from './api.js';
import { closeColorPicker, keepFocus, renderActions, renderHand } from './handview.js';
import { CHOSEN_SEED, showLobby, tableName } from './lobby.js';
import { animate } from './motion.js';
import { errorText, refusalText, setupTableError, showTableError } from './refusals.js';
import { renderRoundEnd, renderScores } from './scoreview.js';
import { forgetSeat, saveName, savedName, savedSeat, saveSeat } from './seatstore.js';
import { setupTurnSound, turnChanged } from './sound.js';
import { addLog } from './tablelog.js';
import { $, actions, mergeUpdate, seatName, setOffline, table, who } from './tablestate.js';
import { renderPile, renderPlayers } from './tableview.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Action} Action */
/** @typedef {import('./protocol').Phase} Phase */
/** @typedef {import('./protocol').Joined} Joined */
/** @typedef {import('./protocol').JoinRequest} JoinRequest */
/** @typedef {import('./protocol').ActRequest} ActRequest */
/** @typedef {import('./protocol').Update} Update the WebSocket's `update`: what one action changed */
/** @typedef {import('./protocol').SocketError} SocketError the WebSocket's answer to a refused message */

/** @param {string} text */
function setConnection(text) {
  $('connection').textContent = text;
}

/** @param {string} id */
async function showTable(id) {
  table.id = id;
  $('table').hidden = false;
  $('page-title').textContent = `UNO table ${id}`;
  document.title = `UNO table ${id} · tabletop`;
  $('copy-invite').addEventListener('click', copyInvite);
  $('join-form').addEventListener('submit', joinTable);
  $('watch-button').addEventListener('click', () => {
    $('join').hidden = true;
    connect();
  });
  $('rematch').addEventListener('click', rematch);
  setupTableError();
  $('round-next').addEventListener('click', () => send({ type: 'next_round' }));
  setupTurnSound($('turn-sound'));
  $('sort-hand').addEventListener('click', () => {
    table.sortHand = !table.sortHand;
    try {
      localStorage.setItem('tabletop.uno.sort', table.sortHand ? 'sorted' : 'drawn');
    } catch {
      /* the choice lasts as long as the page */
    }
    if (table.view) renderHand(table.view);
  });
  try {
    table.sortHand = localStorage.getItem('tabletop.uno.sort') !== 'drawn';
  } catch {
    /* sorted */
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !$('color-picker').hidden && $('color-cancel')) {
      e.preventDefault();
      closeColorPicker();
    }
  });
  const link = new URL(`uno.html?table=${encodeURIComponent(id)}`, location.href);
  $('invite-link').value = link.href;

  const saved = savedSeat(id);
  if (saved) {
    table.token = saved.token;
    connect();
    return;
  }
  // No seat yet: read the table to offer a seat (or watching).
  try {
    const v = /** @type {TableView} */ (await request('GET', `/api/tables/${encodeURIComponent(id)}`));
    table.view = v;
    const open = v.seats.some((s) => !s.taken);
    $('join').hidden = false;
    $('join-button').hidden = !open;
    $('join-title').textContent = open ? 'Join this table' : 'This table is full';
    showStartedFrom(v);
    document.getElementById('join-seed')?.remove(); // not $(): absent until a chosen seed is noted
    if (v.chosen_seed) {
      const note = el('p', { id: 'join-seed', class: 'hint' }, `Before you sit: ${CHOSEN_SEED}.`);
      $('join-title').after(note);
    }
    $('join-name').value = savedName();
    $('join-name').required = open;
    const nameLabel = $('join-name').parentElement;
    if (nameLabel) nameLabel.hidden = !open;
    $('watch-button').hidden = !v.spectators;
    $('invite').hidden = !open;
  } catch (err) {
    $('join').hidden = false;
    $('join-button').hidden = true;
    $('watch-button').hidden = true;
    showError($('join-error'), errorText(err));
  }
}

/** A "play from here" table says which kept game it started from, to whoever reads it (its
 * cards are that game's, and its replay shows every hand).
 * @param {TableView} v */
function showStartedFrom(v) {
  const f = v.started_from;
  $('started-from').hidden = !f;
  if (!f) return;
  const href = `replay.html?game=${encodeURIComponent(f.table)}&g=${f.game}&ply=${f.ply}`;
  const link = el('a', { href }, `game ${f.game + 1} of table ${f.table}, after action ${f.ply}`);
  $('started-from').replaceChildren('Started from ', link, ': its replay shows every hand.');
}

/** @param {SubmitEvent} e */
async function joinTable(e) {
  if (!table.id) return;
  e.preventDefault();
  const name = $('join-name').value.trim();
  try {
    /** @type {JoinRequest} */
    const body = { name };
    const joined = /** @type {Joined} */ (await request('POST', `/api/tables/${encodeURIComponent(table.id)}/join`, body));
    saveName(name);
    saveSeat(table.id, joined.seat, joined.token);
    table.token = joined.token;
    $('join').hidden = true;
    render(joined.table);
    connect();
  } catch (err) {
    showError($('join-error'), errorText(err, { name: true }));
  }
}

async function copyInvite() {
  const input = $('invite-link');
  try {
    await navigator.clipboard.writeText(input.value);
    $('copy-status').textContent = 'The link is copied.';
  } catch {
    /** @type {HTMLInputElement} */ (input).select();
    $('copy-status').textContent = 'Select the link and copy it (Ctrl+C).';
  }
}

function connect() {
  if (table.socket || !table.id) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  // The token travels as a subprotocol, not in the URL (URLs end up in logs).
  const protocols = table.token ? ['tabletop', `bearer.${table.token}`] : [];
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${encodeURIComponent(table.id)}/ws`, protocols);
  table.socket = ws;
  setConnection(table.retry ? 'Reconnecting…' : 'Connecting…');
  ws.addEventListener('open', () => {
    table.retry = 0;
    setOffline(false);
    setConnection('');
    // Whatever went wrong before the connection dropped is not news any more.
    showTableError('');
  });
  ws.addEventListener('message', (m) => {
    /** @type {(TableView & { type: 'state' }) | Update | SocketError} the socket sends these three */
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    if (msg.type === 'state') render(msg);
    else if (msg.type === 'update') applyUpdate(msg);
    else if (msg.type === 'error') showTableError(refusalText(msg.code, msg.message));
  });
  ws.addEventListener('close', (ev) => {
    table.socket = null;
    if (table.closedByUs) return;
    if (ev.code === 4001) {
      setConnection('You left this seat.');
      if (table.id) forgetSeat(table.id);
      return;
    }
    // A dropped connection: try again, a little later each time, counting down; nothing can be
    // sent meanwhile (the buttons are off until the table is back).
    table.retry += 1;
    setOffline(true);
    const delay = Math.min(5000, 400 * 2 ** Math.min(table.retry, 4));
    const end = Date.now() + delay;
    const tick = () => {
      const left = Math.max(1, Math.ceil((end - Date.now()) / 1000));
      setConnection(`The connection dropped. Reconnecting in ${left} s… (moves wait until then)`);
    };
    tick();
    if (table.offlineTimer) clearInterval(table.offlineTimer);
    table.offlineTimer = setInterval(tick, 250);
    setTimeout(() => {
      if (table.offlineTimer) clearInterval(table.offlineTimer);
      setConnection('Reconnecting…');
      if (!table.socket) reconnectCheck();
    }, delay);
  });
}

/** Before reconnecting, make sure the seat still exists (a bad token goes back to joining). */
async function reconnectCheck() {
  if (!table.id) return;
  try {
    await request('GET', `/api/tables/${encodeURIComponent(table.id)}`, undefined, table.token);
    connect();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 401)) {
      forgetSeat(table.id);
      table.token = null;
      setConnection('This seat is no longer yours.');
      showTable(table.id);
    } else if (err instanceof ApiError && err.status === 404) {
      setConnection(errorText(err));
    } else {
      connect();
    }
  }
}

actions.send = (action) => send(action);

/** @param {Action} action */
async function send(action) {
  if (!table.view || !table.token || !table.id) return;
  // A double click or a second tap must never act twice (a second UNO call costs cards).
  if (table.sending) return;
  table.sending = true;
  $('play').setAttribute('aria-busy', 'true');
  try {
    /** @type {ActRequest} */
    const body = { action, version: table.view.version };
    const v = /** @type {TableView} */ (await request('POST', `/api/tables/${encodeURIComponent(table.id)}/actions`, body, table.token));
    showTableError('');
    render(v);
  } catch (err) {
    showTableError(errorText(err));
    // Someone moved first: show the table as it is now and let the user choose again.
    if (err instanceof ApiError && err.code === 'stale_state') refresh();
  } finally {
    table.sending = false;
    $('play').removeAttribute('aria-busy');
  }
}

/** Reads the table again (after a refused stale action). */
async function refresh() {
  if (!table.id) return;
  try {
    render(/** @type {TableView} */ (await request('GET', `/api/tables/${encodeURIComponent(table.id)}`, undefined, table.token)));
  } catch {
    /* the WebSocket brings the next view */
  }
}

async function rematch() {
  if (!table.id) return;
  try {
    const v = /** @type {TableView} */ (await request('POST', `/api/tables/${encodeURIComponent(table.id)}/rematch`, undefined, table.token));
    showTableError('');
    $('uno-log').replaceChildren();
    render(v);
  } catch (err) {
    showTableError(errorText(err));
  }
}


/** @param {Update} u */
function applyUpdate(u) {
  const merged = mergeUpdate(table.view, u);
  if (merged === 'shown') return;
  if (merged === 'gap') refresh();
  else render(merged);
}

/** @param {TableView} v */
function render(v) {
  // Pushes and answers may cross: never go back to an older view.
  if (table.view && v.version < table.view.version && v.generation === table.view.generation) return;
  // A new view ends whatever motion the last one started: the page never lags behind the game.
  for (const a of document.getAnimations ? document.getAnimations() : []) if (a instanceof Animation && a.effect instanceof KeyframeEffect && a.effect.target) a.finish();
  const prev = table.view;
  const oldHand = prev && prev.view && prev.generation === v.generation ? (prev.view.hand || []).length : null;
  const hadFocus = document.activeElement;
  const focusInTable = !!hadFocus && $('play').contains(hadFocus);
  table.view = v;
  const turnKey = `${v.generation}:${v.view.round}:${v.view.turns}:${v.view.current}:${v.view.phase.phase}`;
  if (table.lastTurnKey !== null && turnKey !== table.lastTurnKey) showTableError('');
  table.lastTurnKey = turnKey;
  $('play').hidden = false;
  $('play').dataset.shown = 'true';
  $('join').hidden = true;
  const o = v.view;
  const me = v.you;
  document.body.dataset.version = String(v.version);
  document.body.dataset.seat = me === null || me === undefined ? 'spectator' : String(me);

  $('invite').hidden = !v.seats.some((s) => !s.taken);
  showStartedFrom(v);

  // Whose turn and the direction.
  let turn;
  if (v.status === 'waiting') {
    const open = v.seats.filter((s) => !s.taken).length;
    turn = `Waiting for ${open} more player${open === 1 ? '' : 's'} to join.`;
  } else if (o.phase.phase === 'game_over') {
    turn = 'The game is over.';
  } else if (o.phase.phase === 'round_over') {
    turn = 'The round is over.';
  } else if (o.current === me) {
    turn = `Your turn${phaseWords(o.phase)}.`;
  } else {
    turn = `${seatName(o.current)}'s turn${phaseWords(o.phase)}.`;
  }
  if (me === null || me === undefined) turn = `Watching. ${turn}`;
  $('turn').textContent = turn;
  // The tab title tells a player in another tab that it is their move.
  const mine = me !== null && me !== undefined && o.current === me && v.status === 'playing' && !['round_over', 'game_over'].includes(o.phase.phase);
  const name = tableName(v);
  $('page-title').textContent = `UNO · ${name}`;
  document.title = `${mine ? '▶ Your turn · ' : ''}UNO · ${name} · tabletop`;
  document.body.dataset.myTurn = String(mine);
  turnChanged(mine);
  // Players and the pile (tableview.js, shared with the replay).
  const playing = v.status === 'playing' && !['round_over', 'game_over'].includes(o.phase.phase);
  renderPlayers(
    v.seats.map((s, i) => ({
      name: seatName(i),
      cards: o.hand_sizes[i],
      current: o.current === i && playing,
      me: me === i,
      uno: o.uno_called[i],
      tags: s.kind === 'bot' || s.taken ? [] : ['open seat'],
    })),
    o.direction,
  );
  // After a first-card wild nobody has chosen yet, the colour is null.
  const undecided = `not chosen yet (${o.current === me ? 'you choose' : `${who(o.current)} chooses`})`;
  renderPile({ top: o.top, color: o.color, undecided, drawPile: o.draw_pile_size, pendingDraw: o.pending_draw });
  for (const ev of v.events || []) {
    if (ev.event.type === 'card_played') table.topBy = ev.event.seat;
    if (ev.event.type === 'round_started' || ev.event.type === 'start_card') table.topBy = null;
  }
  $('top-by').textContent = table.topBy === null || table.topBy === undefined ? 'The first card of the round.' : `Played by ${who(table.topBy)}.`;

  renderHand(v);
  renderActions(v);
  renderScores(v);
  renderRoundEnd(v);
  animate(v, prev, oldHand);
  // Redrawing replaced or hid the focused button: keep the keyboard near the hand, not on the body.
  const lost = !hadFocus || !hadFocus.isConnected || hadFocus.getClientRects().length === 0 || document.activeElement === document.body;
  if (focusInTable && lost && me !== null && me !== undefined) keepFocus();

  // The log: every view carries events (recent ones on a full state, the change's on an
  // update or an answer); each is logged once.
  for (const ev of v.events || []) addLog(ev);
}

/** @param {Phase} phase */
function phaseWords(phase) {
  switch (phase.phase) {
    case 'drawn_card':
      return ': play the drawn card or keep it';
    case 'choose_color':
      return ': choose the colour';
    case 'challenge':
      return ': challenge the Wild Draw Four or accept it';
    case 'choose_swap':
      return ': choose whom to swap hands with';
    case 'same_number':
      return ': play another card of the same number or pass';
    default:
      return '';
  }
}

// ---------------------------------------------------------------- start

async function init() {
  const id = new URLSearchParams(location.search).get('table');
  if (id) await showTable(id);
  else await showLobby();
}

window.addEventListener('pagehide', () => {
  table.closedByUs = true;
  if (table.socket) table.socket.close();
});

init().then(() => {
  document.body.dataset.ready = 'true';
});
