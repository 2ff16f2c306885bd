// The UNO pages: the lobby (open a table, list open tables) and a table (join, play, watch).
// The server decides every rule: the page shows the view it pushes over the WebSocket, marks
// what the server lists as legal, and shows refusals word for word.
import { announce, ApiError, capitalize, el, request, showError } from './api.js';
import { setupTurnSound, turnChanged } from './sound.js';
import { roundEndRows, roundEndTitle } from './roundend.js';
import { cardClass, cardFace, cardWords, COLORS, directionWords, eventWords as describeEvent, parseCard } from './unocards.js';

const $ = (id) => document.getElementById(id);

const BOT_LEVELS = [
  ['random', 'Easy (random)'],
  ['heuristic', 'Medium (heuristic)'],
  ['ismcts', 'Hard (Monte Carlo search)'],
];
/** How each bot plays, in a line for the lobby. */
const BOT_WORDS = {
  random: 'Plays a random card it may play, else draws; always calls UNO. A gentle opponent.',
  uniform: 'Picks at random among everything it may do, drawing and catching included.',
  first: 'Always takes the first move it may make: easy to read.',
  heuristic: 'Plays like a good casual player: keeps wilds for emergencies, stays in its colour, punishes a player about to go out.',
  precedence: "Follows seed 000's fixed order: the colour in play, then Wild Draw Four, the same face, Wild; else it draws.",
  ismcts: 'Thinks ahead: plays out many guesses of the hidden hands and picks the move that wins most often.',
  flat: 'Reads the others as Medium players: guesses their hands from what they played, plays every move out on the same guesses and picks the one that wins most often. The best measured against Medium bots.',
};

// ---------------------------------------------------------------- motion

/** Motion is short (never over 250 ms), ends at the next view, and is off for people who ask
 * their system for less motion. */
const MOTION_MS = 250;
const still = () => !window.matchMedia || window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Moves `node` in from where `from` (a DOMRect) was: a card from a hand to the pile, or from the
 * draw pile to the hand. */
function glide(node, from) {
  if (!node || !from || still() || !node.animate) return;
  const to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.7)`, opacity: 0.5 }, { transform: 'none', opacity: 1 }], {
    duration: MOTION_MS,
    easing: 'ease-out',
  });
}

/** A short nudge: the direction sign on Reverse, a skipped seat. */
function nudge(node, frames) {
  if (!node || still() || !node.animate) return;
  node.animate(frames, { duration: MOTION_MS, easing: 'ease-in-out' });
}

// ---------------------------------------------------------------- storage of seat tokens

const tokenKey = (table) => `tabletop.uno.${table}`;
function savedSeat(table) {
  try {
    const raw = localStorage.getItem(tokenKey(table));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}
function saveSeat(table, seat, token) {
  try {
    localStorage.setItem(tokenKey(table), JSON.stringify({ seat, token }));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}
function forgetSeat(table) {
  try {
    localStorage.removeItem(tokenKey(table));
  } catch {
    /* nothing kept */
  }
}
function savedName() {
  try {
    return localStorage.getItem('tabletop.name') || '';
  } catch {
    return '';
  }
}
function saveName(name) {
  try {
    localStorage.setItem('tabletop.name', name);
  } catch {
    /* ignore */
  }
}

// ---------------------------------------------------------------- lobby

let options = { presets: ['official'], bots: BOT_LEVELS.map(([b]) => b) };

function seatRow(kind, index) {
  const li = el('li', { class: 'seat-row', dataset: { kind } });
  const label = `Seat ${index + 1}`;
  if (index === 0) {
    li.append(el('span', {}, `${label}: you`));
    return li;
  }
  if (kind === 'human') {
    li.append(el('span', {}, `${label}: a person (invite link)`));
  } else {
    const id = `bot-level-${index}`;
    const select = el('select', { id, class: 'bot-level' });
    const known = BOT_LEVELS.filter(([b]) => options.bots.includes(b));
    for (const [value, text] of known) select.append(el('option', { value }, text));
    for (const b of options.bots.filter((b) => !known.some(([k]) => k === b))) {
      select.append(el('option', { value: b }, capitalize(b)));
    }
    select.value = options.bots.includes('heuristic') ? 'heuristic' : options.bots[0];
    const about = el('span', { id: `${id}-about`, class: 'hint seat-about' });
    select.setAttribute('aria-describedby', about.id);
    const describe = () => {
      about.textContent = BOT_WORDS[select.value] || '';
    };
    select.addEventListener('change', describe);
    describe();
    li.append(el('label', { for: id }, `${label}: bot, difficulty`), ' ', select, about);
  }
  li.append(
    ' ',
    el('button', { type: 'button', class: 'remove-seat', 'aria-label': `Remove seat ${index + 1}`, onclick: () => removeSeat(index) }, 'Remove'),
  );
  return li;
}

let seatKinds = ['human', 'bot', 'bot'];

function renderSeats() {
  // Keep the chosen bot levels when the list is redrawn.
  const levels = [...document.querySelectorAll('#seat-list li')].map((li) => li.querySelector('select')?.value);
  const list = $('seat-list');
  list.replaceChildren(...seatKinds.map((k, i) => seatRow(k, i)));
  [...list.querySelectorAll('li')].forEach((li, i) => {
    const s = li.querySelector('select');
    if (s && levels[i]) s.value = levels[i];
  });
  $('add-human').disabled = seatKinds.length >= 10;
  $('add-bot').disabled = seatKinds.length >= 10;
}

function removeSeat(index) {
  seatKinds.splice(index, 1);
  renderSeats();
}

async function showLobby() {
  $('lobby').hidden = false;
  $('page-title').textContent = 'UNO';
  try {
    options = await request('GET', '/api/uno/options');
  } catch (err) {
    showError($('create-error'), err.message);
  }
  const preset = $('preset');
  preset.replaceChildren(...options.presets.map((p) => el('option', { value: p }, p)));
  preset.value = options.presets.includes('official') ? 'official' : options.presets[0];
  const describePreset = () => {
    $('preset-about').textContent = (options.preset_descriptions || {})[preset.value] || '';
  };
  preset.addEventListener('change', describePreset);
  describePreset();
  $('your-name').value = savedName();
  renderSeats();
  $('add-human').addEventListener('click', () => {
    seatKinds.push('human');
    renderSeats();
  });
  $('add-bot').addEventListener('click', () => {
    seatKinds.push('bot');
    renderSeats();
  });
  $('create-form').addEventListener('submit', createTable);
  $('refresh-tables').addEventListener('click', listTables);
  await listTables();
}

async function listTables() {
  let list = [];
  try {
    list = (await request('GET', '/api/tables')).tables || [];
  } catch (err) {
    showError($('create-error'), err.message);
  }
  const open = list.filter((t) => t.status === 'waiting' && t.open_seats > 0);
  $('tables-empty').hidden = open.length > 0;
  $('table-list').replaceChildren(
    ...open.map((t) => {
      const people = t.seats.map((s) => (s.kind === 'bot' ? `bot (${s.bot})` : s.name || 'open seat')).join(', ');
      return el(
        'li',
        {},
        el('a', { href: `uno.html?table=${encodeURIComponent(t.id)}` }, tableName(t)),
        ` · ${t.rules} · ${t.open_seats} open seat${t.open_seats === 1 ? '' : 's'} · ${people}`,
      );
    }),
  );
}

/** A table's name for people: its creator's name (the first named person), not its id. */
function tableName(t) {
  const host = t.seats.find((s) => s.kind !== 'bot' && s.name);
  return host ? `${host.name}’s table` : `Table ${t.id.slice(0, 6)}`;
}

async function createTable(e) {
  e.preventDefault();
  const name = $('your-name').value.trim();
  const seats = [...document.querySelectorAll('#seat-list li')].map((li, i) => {
    if (seatKinds[i] === 'human') return { kind: 'human', name: i === 0 ? name : undefined };
    return { kind: 'bot', bot: li.querySelector('select').value };
  });
  if (seats.length < 2) {
    showError($('create-error'), 'A table needs at least two seats: add a bot or a seat for a person.');
    return;
  }
  const house = {};
  if ($('hr-stacking').checked) house.stacking = 'both';
  if ($('hr-draw-until').checked) house.draw = 'draw_until_playable';
  if ($('hr-forced').checked) house.forced_play = 'required';
  if ($('hr-jump-in').checked) house.jump_in = 'on';
  if ($('hr-seven-zero').checked) house.seven_zero = 'on';
  if ($('hr-multi-play').checked) house.multi_play = 'same_number';
  if ($('hr-one-round').checked) house.match_target = 0;
  const body = {
    preset: $('preset').value,
    house_rules: house,
    seats,
    name,
    bot_delay_ms: Number($('bot-pace').value),
  };
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed && /^\d+$/.test(seed)) body.seed = seed; // as a string: a 64-bit seed loses digits as a number
  $('create').disabled = true;
  try {
    const created = await request('POST', '/api/tables', body);
    saveName(name);
    if (created.token) saveSeat(created.id, created.seat, created.token);
    location.assign(`uno.html?table=${encodeURIComponent(created.id)}`);
  } catch (err) {
    showError($('create-error'), err.message);
    $('create').disabled = false;
  }
}

// ---------------------------------------------------------------- table

const table = {
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
};

function seatName(i) {
  const s = table.view && table.view.seats[i];
  if (!s) return `Seat ${i + 1}`;
  const base = s.kind === 'bot' ? `Bot ${i + 1} (${s.bot || s.name || 'bot'})` : s.name || `Seat ${i + 1}`;
  return table.view.you === i ? `${base} (you)` : base;
}
const who = (seat) => (table.view && table.view.you === seat ? 'You' : seatName(seat));

const eventWords = (ev) => describeEvent(ev.event, { seatName, who, you: table.view && table.view.you });

function setConnection(text) {
  $('connection').textContent = text;
}

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
    const v = await request('GET', `/api/tables/${encodeURIComponent(id)}`);
    table.view = v;
    const open = v.seats.some((s) => !s.taken);
    $('join').hidden = false;
    $('join-button').hidden = !open;
    $('join-title').textContent = open ? 'Join this table' : 'This table is full';
    $('join-name').value = savedName();
    $('join-name').required = open;
    $('join-name').parentElement.hidden = !open;
    $('watch-button').hidden = !v.spectators;
    $('invite').hidden = !open;
  } catch (err) {
    $('join').hidden = false;
    $('join-button').hidden = true;
    $('watch-button').hidden = true;
    showError($('join-error'), err.message);
  }
}

async function joinTable(e) {
  e.preventDefault();
  const name = $('join-name').value.trim();
  try {
    const joined = await request('POST', `/api/tables/${encodeURIComponent(table.id)}/join`, { name });
    saveName(name);
    saveSeat(table.id, joined.seat, joined.token);
    table.token = joined.token;
    $('join').hidden = true;
    render(joined.table);
    connect();
  } catch (err) {
    showError($('join-error'), err.message);
  }
}

async function copyInvite() {
  const input = $('invite-link');
  try {
    await navigator.clipboard.writeText(input.value);
    $('copy-status').textContent = 'The link is copied.';
  } catch {
    input.select();
    $('copy-status').textContent = 'Select the link and copy it (Ctrl+C).';
  }
}

function connect() {
  if (table.socket) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  // The token travels as a subprotocol, not in the URL (URLs end up in logs).
  const protocols = table.token ? ['tabletop', `bearer.${table.token}`] : [];
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${encodeURIComponent(table.id)}/ws`, protocols);
  table.socket = ws;
  setConnection(table.retry ? 'Reconnecting…' : 'Connecting…');
  ws.addEventListener('open', () => {
    table.retry = 0;
    setConnection('');
    // Whatever went wrong before the connection dropped is not news any more.
    showError($('error'), '');
  });
  ws.addEventListener('message', (m) => {
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    if (msg.type === 'state') render(msg);
    else if (msg.type === 'update') applyUpdate(msg);
    else if (msg.type === 'error') showError($('error'), msg.message);
  });
  ws.addEventListener('close', (ev) => {
    table.socket = null;
    if (table.closedByUs) return;
    if (ev.code === 4001) {
      setConnection('You left this seat.');
      forgetSeat(table.id);
      return;
    }
    // A dropped connection: try again, a little later each time.
    table.retry += 1;
    const delay = Math.min(5000, 400 * 2 ** Math.min(table.retry, 4));
    setConnection(`The connection dropped. Reconnecting in ${Math.round(delay / 100) / 10} s…`);
    setTimeout(() => {
      if (!table.socket) reconnectCheck();
    }, delay);
  });
}

/** Before reconnecting, make sure the seat still exists (a bad token goes back to joining). */
async function reconnectCheck() {
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
      setConnection(err.message);
    } else {
      connect();
    }
  }
}

async function send(action) {
  if (!table.view || !table.token) return;
  // A double click or a second tap must never act twice (a second UNO call costs cards).
  if (table.sending) return;
  table.sending = true;
  $('play').setAttribute('aria-busy', 'true');
  try {
    const v = await request('POST', `/api/tables/${encodeURIComponent(table.id)}/actions`, {
      action,
      version: table.view.version,
    }, table.token);
    showError($('error'), '');
    render(v);
  } catch (err) {
    if (err.code === 'stale_state') {
      // Someone moved first: show the table as it is now and let the user choose again.
      showError($('error'), 'The table changed before your move arrived; nothing was played. Look again and choose.');
      refresh();
      return;
    }
    showError($('error'), capitalize(err.message) + (/[.!?]$/.test(err.message) ? '' : '.'));
  } finally {
    table.sending = false;
    $('play').removeAttribute('aria-busy');
  }
}

/** Reads the table again (after a refused stale action). */
async function refresh() {
  try {
    render(await request('GET', `/api/tables/${encodeURIComponent(table.id)}`, undefined, table.token));
  } catch {
    /* the WebSocket brings the next view */
  }
}

async function rematch() {
  try {
    const v = await request('POST', `/api/tables/${encodeURIComponent(table.id)}/rematch`, undefined, table.token);
    showError($('error'), '');
    $('uno-log').replaceChildren();
    render(v);
  } catch (err) {
    showError($('error'), capitalize(err.message));
  }
}

const seenVersions = new Set();

/** Merges an update into the view held. An update is what one action changed: its events, the
 * public part of the view, and this seat's drawn card, plus its hand and legal actions only when
 * they changed (absent: as before). It follows the version held by exactly one. */
function applyUpdate(u) {
  const v = table.view;
  if (!v || !v.view || u.generation !== v.generation) {
    refresh();
    return;
  }
  // Already shown: the answer to our own action came first.
  if (u.version <= v.version) return;
  if (u.version !== v.version + 1) {
    // A change was missed: read the whole table again rather than merge onto a gap.
    refresh();
    return;
  }
  const view = { ...v.view, ...u.view };
  // Only full states carry the discard pile (the page shows its top card) and the view's own copy
  // of the legal actions (the page reads the table's).
  delete view.discard;
  delete view.legal_actions;
  render({
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
  });
}

function render(v) {
  // Pushes and answers may cross: never go back to an older view.
  if (table.view && v.version < table.view.version && v.generation === table.view.generation) return;
  // A new view ends whatever motion the last one started: the page never lags behind the game.
  for (const a of document.getAnimations ? document.getAnimations() : []) if (a instanceof Animation && a.effect && a.effect.target) a.finish();
  const prev = table.view;
  const oldHand = prev && prev.view && prev.generation === v.generation ? (prev.view.hand || []).length : null;
  const hadFocus = document.activeElement;
  const focusInTable = !!hadFocus && $('play').contains(hadFocus);
  table.view = v;
  const turnKey = `${v.generation}:${v.view.round}:${v.view.turns}:${v.view.current}:${v.view.phase.phase}`;
  if (table.lastTurnKey !== null && turnKey !== table.lastTurnKey) showError($('error'), '');
  table.lastTurnKey = turnKey;
  $('play').hidden = false;
  $('play').dataset.shown = 'true';
  $('join').hidden = true;
  const o = v.view;
  const me = v.you;
  document.body.dataset.version = String(v.version);
  document.body.dataset.seat = me === null || me === undefined ? 'spectator' : String(me);

  $('invite').hidden = !v.seats.some((s) => !s.taken);

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
  $('direction').textContent = `Direction: ${directionWords(o.direction)}`;

  // Players.
  $('players').replaceChildren(
    ...v.seats.map((s, i) => {
      const current = o.current === i && v.status === 'playing' && !['round_over', 'game_over'].includes(o.phase.phase);
      const n = o.hand_sizes[i];
      const li = el(
        'li',
        { class: `player${current ? ' current' : ''}${me === i ? ' me' : ''}`, 'aria-current': current ? 'true' : undefined },
        el('span', { class: 'turn-marker', 'aria-hidden': 'true' }, current ? '▶' : ''),
        el('span', { class: 'player-name' }, seatName(i)),
        s.kind === 'bot' || s.taken ? null : el('span', { class: 'tag' }, 'open seat'),
        el('span', { class: 'hand-size' }, `${n} card${n === 1 ? '' : 's'}`),
        o.uno_called[i] ? el('span', { class: 'tag uno' }, 'UNO!') : null,
        current ? el('span', { class: 'visually-hidden' }, ', playing now') : null,
      );
      return li;
    }),
  );

  // The pile.
  const top = el('div', { class: `${cardClass(o.top)} big`, role: 'img', 'aria-label': `Top card: ${cardWords(o.top)}` }, ...cardFace(o.top));
  $('top-card').replaceChildren(top);
  // After a first-card wild nobody has chosen yet, the colour is null.
  const undecided = o.color === null || o.color === undefined;
  $('color-in-play').replaceChildren(
    'Colour in play: ',
    undecided ? el('strong', {}, `not chosen yet (${o.current === me ? 'you choose' : `${who(o.current)} chooses`})`) : el('strong', { class: `color-chip c-${o.color}` }, o.color),
  );
  for (const ev of v.events || []) {
    if (ev.event.type === 'card_played') table.topBy = ev.event.seat;
    if (ev.event.type === 'round_started' || ev.event.type === 'start_card') table.topBy = null;
  }
  $('top-by').textContent = table.topBy === null || table.topBy === undefined ? 'The first card of the round.' : `Played by ${who(table.topBy)}.`;
  $('draw-pile').textContent = `${o.draw_pile_size} card${o.draw_pile_size === 1 ? '' : 's'} in the draw pile${o.pending_draw ? ` · ${o.pending_draw} to draw as a penalty` : ''}`;

  renderHand(v);
  renderActions(v);
  renderScores(v);
  renderRoundEnd(v);
  animate(v, prev, oldHand);
  // Redrawing replaced or hid the focused button: keep the keyboard near the hand, not on the body.
  const lost = !hadFocus.isConnected || hadFocus.getClientRects().length === 0 || document.activeElement === document.body;
  if (focusInTable && lost && me !== null && me !== undefined) keepFocus();

  // The log: every view carries events (recent ones on a full state, the change's on an
  // update or an answer); each is logged once.
  for (const ev of v.events || []) addLog(ev);
}

/** What moved in this change, shown moving: the played card to the pile, drawn cards to the
 * hand, the direction sign, a skipped seat. */
function animate(v, prev, oldHand) {
  if (!prev || still()) {
    table.playedFrom = null;
    return;
  }
  const seatRow = (i) => document.querySelector(`#players li:nth-child(${i + 1})`);
  for (const ev of v.events || []) {
    const e = ev.event;
    if (e.type === 'card_played') {
      const from = e.seat === v.you && table.playedFrom ? table.playedFrom : seatRow(e.seat)?.getBoundingClientRect();
      glide($('top-card').firstElementChild, from);
    } else if (e.type === 'direction_reversed') {
      nudge($('direction'), [{ transform: 'scaleX(-1)' }, { transform: 'none' }]);
    } else if (e.type === 'player_skipped') {
      nudge(seatRow(e.seat), [{ opacity: 1 }, { opacity: 0.35 }, { opacity: 1 }]);
    }
  }
  table.playedFrom = null;
  const drewHere = (v.events || []).some((ev) => ev.event.type === 'cards_drawn' && ev.event.seat === v.you);
  if (drewHere && oldHand !== null) {
    const from = $('draw-pile').getBoundingClientRect();
    for (const b of document.querySelectorAll('#hand button[data-index]')) {
      if (Number(b.dataset.index) >= oldHand) glide(b, from);
    }
  }
}

function addLog(ev) {
  const key = `${ev.version}:${JSON.stringify(ev.event)}`;
  if (seenVersions.has(key)) return;
  seenVersions.add(key);
  const text = eventWords(ev);
  if (!text) return;
  $('uno-log').prepend(el('li', { dataset: { version: String(ev.version) } }, text));
  while ($('uno-log').children.length > 200) $('uno-log').lastElementChild.remove();
  announce($('uno-announce'), text);
}

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

function legal(v) {
  return v.legal_actions || [];
}

function renderHand(v) {
  const o = v.view;
  const hand = $('hand');
  const me = v.you;
  if (me === null || me === undefined) {
    $('hand-title').textContent = 'Hands';
    $('hand-hint').textContent = 'Spectators see only how many cards each player holds.';
    hand.replaceChildren();
    return;
  }
  $('hand-title').textContent = `Your hand (${o.hand.length} card${o.hand.length === 1 ? '' : 's'})`;
  const plays = legal(v).filter((a) => a.type === 'play');
  const playable = new Set(plays.map((a) => a.card));
  const acts = legal(v);
  const can = (t) => acts.some((a) => a.type === t);
  let hint = '';
  if (playable.size && o.phase.phase === 'same_number') hint = `You may play another ${parseCard(o.top).code} of any colour (marked “playable”), or pass to end your turn.`;
  else if (playable.size) hint = 'Cards marked “playable” can be played now: click one (a wild asks for a colour).';
  else if (o.phase.phase === 'challenge' && can('challenge')) hint = 'Challenge the Wild Draw Four or accept the cards.';
  else if (o.phase.phase === 'drawn_card' && can('pass')) hint = 'The drawn card cannot be played: keep it and pass.';
  else if (can('draw')) hint = o.pending_draw ? `No card can be played: draw ${o.pending_draw}.` : 'No card can be played: draw a card.';
  $('hand-hint').textContent = hint;
  const order = table.sortHand ? sortedHand(o.hand) : o.hand.map((card, i) => [card, i]);
  $('sort-hand').textContent = table.sortHand ? 'Show in the order drawn' : 'Sort by colour and number';
  $('sort-hand').hidden = o.hand.length < 2;
  hand.replaceChildren(
    ...order.map(([card, i]) => {
      const can = playable.has(card);
      const drawn = o.drawn_card === card && o.phase.phase === 'drawn_card';
      return el(
        'li',
        {},
        el(
          'button',
          {
            type: 'button',
            class: `${cardClass(card)}${can ? ' playable' : ''}${drawn ? ' drawn' : ''}`,
            'aria-disabled': can ? undefined : 'true',
            dataset: { card, index: String(i) },
            onclick: (e) => {
              table.playedFrom = e.currentTarget.getBoundingClientRect();
              clickCard(card, can);
            },
          },
          ...cardFace(card),
          can ? el('span', { class: 'playable-mark' }, ' ', el('span', { 'aria-hidden': 'true' }, '✓ '), 'playable') : null,
          drawn ? el('span', { class: 'visually-hidden' }, ' just drawn') : null,
        ),
      );
    }),
  );
}

/** The hand sorted by colour (red, yellow, green, blue, then wilds), then number, then action;
 * each card keeps its place in the hand (for the data the tests and the server read). */
function sortedHand(hand) {
  const colourRank = (c) => (c.wild ? 4 : COLORS.indexOf(c.color));
  const faceRank = (c) => (/^\d$/.test(c.code) ? Number(c.code) : 10 + ['S', 'R', 'D2', '', '4'].indexOf(c.code));
  return hand
    .map((card, i) => [card, i])
    .sort(([a, i], [b, j]) => {
      const x = parseCard(a);
      const y = parseCard(b);
      return colourRank(x) - colourRank(y) || faceRank(x) - faceRank(y) || i - j;
    });
}

function clickCard(card, can) {
  const v = table.view;
  if (!can) {
    const o = v.view;
    const over = ['round_over', 'game_over'].includes(o.phase.phase);
    const message =
      over || v.status !== 'playing'
        ? 'No card can be played now: the round is over.'
        : o.current !== v.you
          ? `It is not your turn: ${seatName(o.current)} is playing.`
          : `${capitalize(cardWords(card))} cannot be played now${o.color ? ` (the colour in play is ${o.color}, the top card ${cardWords(o.top)})` : ''}.`;
    showError($('error'), message);
    return;
  }
  const plays = legal(v).filter((a) => a.type === 'play' && a.card === card);
  if (plays.some((a) => a.color)) {
    openColorPicker(plays.map((a) => a.color).filter(Boolean), (color) => send({ type: 'play', card, color }));
    return;
  }
  send({ type: 'play', card });
}

/** After a move the button pressed is gone: put the focus on the next round's button, else the
 * first playable card, else the first action, else the hand's title, so the keyboard never falls
 * to the page body. */
function keepFocus() {
  const next = $('round-next');
  const dealing = !next.hidden && !$('round-end').hidden;
  const target = (dealing && next) || document.querySelector('#hand button.playable') || document.querySelector('#actions button') || $('hand-title');
  target.focus({ preventScroll: true });
}

function closeColorPicker() {
  $('color-picker').hidden = true;
  keepFocus();
}

function openColorPicker(colors, onPick) {
  const box = $('color-picker');
  const wasOpen = !box.hidden;
  box.hidden = false;
  $('color-buttons').replaceChildren(
    ...colors.map((c) =>
      el(
        'button',
        {
          type: 'button',
          class: `color-button c-${c}`,
          dataset: { color: c },
          onclick: () => {
            box.hidden = true;
            onPick(c);
          },
        },
        capitalize(c),
      ),
    ),
    // Choosing the first card's colour cannot be put off: no Cancel then.
    onPick.cancel === false ? null : el('button', { type: 'button', id: 'color-cancel', onclick: closeColorPicker }, 'Cancel'),
  );
  const first = $('color-buttons').querySelector('button');
  if (first && !wasOpen) first.focus();
}

function renderActions(v) {
  const box = $('actions');
  const acts = legal(v);
  const o = v.view;
  const has = (t) => acts.some((a) => a.type === t);
  const buttons = [];
  if (has('draw')) buttons.push(el('button', { type: 'button', id: 'act-draw', onclick: () => send({ type: 'draw' }) }, o.pending_draw ? `Draw ${o.pending_draw}` : 'Draw a card'));
  const passLabel = o.phase.phase === 'same_number' ? 'Pass: play no more of this number' : 'Keep the card and pass';
  if (has('pass')) buttons.push(el('button', { type: 'button', id: 'act-pass', onclick: () => send({ type: 'pass' }) }, passLabel));
  // The engine lists an own call and a catch apart, and only when they mean something; each
  // button says what it does and sends once (it stays off until the next view).
  const onePress = (action) => (e) => {
    e.currentTarget.disabled = true;
    send(action);
  };
  if (has('call_uno')) {
    const label = o.hand.length === 2 ? 'Call UNO! (before you play your second-to-last card)' : 'Call UNO! (you hold one card)';
    buttons.push(el('button', { type: 'button', id: 'act-uno', class: 'uno-button', onclick: onePress({ type: 'call_uno' }) }, label));
  }
  for (const a of acts.filter((x) => x.type === 'catch_uno')) {
    const n = o.hand_sizes[a.seat];
    buttons.push(
      el(
        'button',
        { type: 'button', id: 'act-catch', class: 'uno-button', onclick: onePress({ type: 'catch_uno', seat: a.seat }) },
        `Catch ${seatName(a.seat)}: ${n === 1 ? 'one card' : `${n} cards`} and no UNO call`,
      ),
    );
  }
  if (has('challenge')) buttons.push(el('button', { type: 'button', id: 'act-challenge', onclick: () => send({ type: 'challenge' }) }, 'Challenge the Wild Draw Four'));
  if (has('accept')) buttons.push(el('button', { type: 'button', id: 'act-accept', onclick: () => send({ type: 'accept' }) }, 'Accept and draw'));
  for (const a of acts.filter((x) => x.type === 'swap_hands')) {
    buttons.push(el('button', { type: 'button', onclick: () => send({ type: 'swap_hands', with: a.with }) }, `Swap hands with ${seatName(a.with)}`));
  }
  box.replaceChildren(...buttons);
  box.hidden = buttons.length === 0;

  // Naming the colour when the first card turned up is a wild.
  const declare = acts.filter((a) => a.type === 'declare_color');
  if (declare.length) {
    const pick = (color) => send({ type: 'declare_color', color });
    pick.cancel = false;
    openColorPicker(declare.map((a) => a.color), pick);
  } else if (!acts.some((a) => a.type === 'play' && a.color)) {
    $('color-picker').hidden = true;
  }
}

/** The round's end: a banner with the winner, every hand and its points, the match scores, and a
 * button for the next deal (at a table of bots only, a countdown instead). */
function renderRoundEnd(v) {
  const o = v.view;
  const box = $('round-end');
  const over = o.phase.phase === 'round_over' || o.phase.phase === 'game_over';
  if (!over || v.status === 'waiting') {
    box.hidden = true;
    $('round-next').hidden = true;
    clearInterval(table.pauseTimer);
    table.pauseTimer = null;
    return;
  }
  // The result is the server's (the engine's scoring): the page counts no points itself.
  const r = v.round_result;
  $('round-end-title').textContent = roundEndTitle(r, o.phase.phase === 'game_over', who, v.you);
  $('round-end-hands').replaceChildren(...roundEndRows(r, v.seats, seatName));
  const me = v.you;
  const canDeal = legal(v).some((a) => a.type === 'next_round');
  const next = $('round-next');
  next.hidden = !canDeal;
  const pause = v.round_pause_ms;
  const count = $('round-countdown');
  clearInterval(table.pauseTimer);
  table.pauseTimer = null;
  if (o.phase.phase === 'round_over' && pause) {
    const end = Date.now() + pause;
    const tick = () => {
      const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      count.textContent = `The next round starts in ${left} s.`;
    };
    tick();
    table.pauseTimer = setInterval(tick, 250);
    count.hidden = false;
  } else {
    count.hidden = true;
    count.textContent = '';
  }
  $('round-wait').hidden = !(o.phase.phase === 'round_over' && !pause && !canDeal);
  $('round-wait').textContent = me === null || me === undefined ? 'The next round starts when a player deals it.' : '';
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden && canDeal) next.focus({ preventScroll: false });
}

function renderScores(v) {
  const o = v.view;
  const over = ['round_over', 'game_over'].includes(o.phase.phase);
  const any = o.scores.some((s) => s > 0);
  // After a round the banner above shows the scores; the section returns for the game's end.
  $('scores').hidden = o.phase.phase === 'round_over' || (!over && !any);
  const rows = v.seats.map((s, i) => el('tr', {}, el('th', { scope: 'row' }, seatName(i)), el('td', {}, String(o.scores[i] ?? 0))));
  $('score-table').replaceChildren(
    el('caption', { class: 'visually-hidden' }, 'Match scores'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Player'), el('th', { scope: 'col' }, 'Points'))),
    el('tbody', {}, ...rows),
  );
  let result = '';
  if (o.phase.phase === 'game_over' && o.outcome) {
    const w = o.outcome.winner;
    result = w === null || w === undefined ? 'The game ended without a winner.' : `${who(w)} won the game.`;
  } else if (o.phase.phase === 'round_over') {
    result = 'The round is over.';
  }
  $('result').textContent = result;
  $('rematch').hidden = !(v.status === 'finished' && v.you !== null && v.you !== undefined);
  // A finished game is kept: its replay opens from this seat's chair (or above the table).
  const seen = v.you === null || v.you === undefined ? 'all' : `seat${v.you}`;
  $('replay-link').href = `replay.html?${new URLSearchParams({ game: v.id, view: seen, ply: '0' })}`;
  $('replay-link').hidden = v.status !== 'finished';
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
