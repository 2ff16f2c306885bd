// The UNO pages: the lobby (open a table, list open tables) and a table (join, play, watch).
// The server decides every rule: the page shows the view it pushes over the WebSocket, marks
// what the server lists as legal, and shows refusals word for word.
import { announce, ApiError, capitalize, el, request, showError } from './api.js';

const $ = (id) => document.getElementById(id);

const COLORS = ['red', 'yellow', 'green', 'blue'];
const FACE_WORDS = { S: 'Skip', R: 'Reverse', D2: 'Draw Two', '': 'Wild', 4: 'Wild Draw Four' };
const FACE_SHORT = { S: '⊘', R: '⇄', D2: '+2', '': 'W', 4: '+4' };
const BOT_LEVELS = [
  ['random', 'Easy (random)'],
  ['heuristic', 'Medium (heuristic)'],
  ['ismcts', 'Hard (Monte Carlo search)'],
];

// ---------------------------------------------------------------- cards

/** Reads a card's text form (`R7`, `BS`, `GD2`, `W`, `W4`). */
function parseCard(text) {
  const letter = text[0];
  const rest = text.slice(1);
  if (letter === 'W') return { color: null, code: rest, wild: true };
  const color = { R: 'red', Y: 'yellow', G: 'green', B: 'blue' }[letter] || 'unknown';
  return { color, code: rest, wild: false };
}

function cardWords(text) {
  const c = parseCard(text);
  const face = !c.wild && /^\d$/.test(c.code) ? c.code : FACE_WORDS[c.code] || c.code;
  return c.wild ? face : `${c.color} ${face}`;
}

/** A card face: colour name and face in words, plus a big symbol, so it reads without colour.
 * The words are the card's accessible name; the symbol is hidden from screen readers. */
function cardFace(text) {
  const c = parseCard(text);
  const digit = !c.wild && /^\d$/.test(c.code);
  const big = digit ? c.code : FACE_SHORT[c.code] || c.code;
  return [
    el('span', { class: 'card-color' }, c.wild ? 'wild' : c.color),
    ' ',
    digit ? el('span', { class: 'card-big' }, big) : el('span', { class: 'card-big', 'aria-hidden': 'true' }, big),
    digit ? null : el('span', { class: 'card-name' }, FACE_WORDS[c.code] || c.code),
  ];
}

function cardClass(text) {
  const c = parseCard(text);
  return `uno-card ${c.wild ? 'wild' : `c-${c.color}`}`;
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
    li.append(el('label', { for: id }, `${label}: bot, difficulty`), ' ', select);
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
        el('a', { href: `uno.html?table=${encodeURIComponent(t.id)}` }, `Table ${t.id}`),
        ` · ${t.rules} · ${t.open_seats} open seat${t.open_seats === 1 ? '' : 's'} · ${people}`,
      );
    }),
  );
}

async function createTable(e) {
  e.preventDefault();
  const name = $('your-name').value.trim();
  const seats = [...document.querySelectorAll('#seat-list li')].map((li, i) => {
    if (seatKinds[i] === 'human') return { kind: 'human', name: i === 0 ? name : undefined };
    return { kind: 'bot', bot: li.querySelector('select').value };
  });
  const house = {};
  if ($('hr-stacking').checked) house.stacking = 'both';
  if ($('hr-draw-until').checked) house.draw = 'draw_until_playable';
  if ($('hr-forced').checked) house.forced_play = 'required';
  if ($('hr-jump-in').checked) house.jump_in = 'on';
  if ($('hr-seven-zero').checked) house.seven_zero = 'on';
  if ($('hr-one-round').checked) house.match_target = 0;
  const body = {
    preset: $('preset').value,
    house_rules: house,
    seats,
    name,
    bot_delay_ms: Number($('bot-pace').value),
  };
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed && /^\d+$/.test(seed)) body.seed = Number(seed);
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
};

function seatName(i) {
  const s = table.view && table.view.seats[i];
  if (!s) return `Seat ${i + 1}`;
  const base = s.kind === 'bot' ? `Bot ${i + 1} (${s.bot || s.name || 'bot'})` : s.name || `Seat ${i + 1}`;
  return table.view.you === i ? `${base} (you)` : base;
}
const who = (seat) => (table.view && table.view.you === seat ? 'You' : seatName(seat));

function eventWords(ev) {
  const e = ev.event;
  switch (e.type) {
    case 'round_started':
      return `Round ${e.round} begins; ${seatName(e.dealer)} deals.`;
    case 'start_card':
      return `The first card is ${cardWords(e.card)}${e.returned ? ' (returned to the pile)' : ''}.`;
    case 'turn_started':
      return '';
    case 'card_played':
      return `${who(e.seat)} played ${cardWords(e.card)}${e.jump_in ? ' (jump-in)' : ''}.`;
    case 'color_declared':
      return `${who(e.seat)} chose ${e.color}.`;
    case 'cards_drawn': {
      const what = e.cards && e.cards.length ? `: ${e.cards.map(cardWords).join(', ')}` : '';
      const why = { penalty: ' (penalty)', uno_penalty: ' (UNO penalty)', false_uno_call: ' (false UNO call)', challenge_lost: ' (lost the challenge)', challenge_guilty: ' (caught by the challenge)' }[e.reason] || '';
      return `${who(e.seat)} drew ${e.count} card${e.count === 1 ? '' : 's'}${why}${what}.`;
    }
    case 'passed':
      return `${who(e.seat)} kept the card and passed.`;
    case 'direction_reversed':
      return `The direction is now ${directionWords(e.direction)}.`;
    case 'player_skipped':
      return `${who(e.seat)} ${table.view && table.view.you === e.seat ? 'are' : 'is'} skipped.`;
    case 'uno_called':
      return `${who(e.seat)} called UNO!`;
    case 'uno_penalty':
      return `${who(e.caught_by)} caught ${seatName(e.seat)} without an UNO call.`;
    case 'false_uno_call':
      return `${who(e.seat)} called UNO wrongly.`;
    case 'challenge_resolved':
      return `${who(e.challenger)} challenged ${seatName(e.offender)}: ${e.guilty ? 'guilty' : 'not guilty'}.`;
    case 'hands_swapped':
      return `${seatName(e.a)} and ${seatName(e.b)} swapped hands.`;
    case 'hands_rotated':
      return `Every hand moved on ${directionWords(e.direction)}.`;
    case 'deck_reshuffled':
      return `The discard pile was shuffled into a new draw pile (${e.cards} cards).`;
    case 'round_scored':
      return `${who(e.winner)} won the round and scored ${e.points} points.`;
    case 'game_over': {
      const w = e.outcome.winner;
      return w === null || w === undefined ? 'The game is over without a winner.' : `${who(w)} won the game!`;
    }
    default:
      return '';
  }
}

function directionWords(d) {
  return d === 'clockwise' ? 'clockwise ↻' : 'counter-clockwise ↺';
}

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
  const q = table.token ? `?token=${encodeURIComponent(table.token)}` : '';
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${encodeURIComponent(table.id)}/ws${q}`);
  table.socket = ws;
  setConnection(table.retry ? 'Reconnecting…' : 'Connecting…');
  ws.addEventListener('open', () => {
    table.retry = 0;
    setConnection('');
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
    const q = table.token ? `?token=${encodeURIComponent(table.token)}` : '';
    await request('GET', `/api/tables/${encodeURIComponent(table.id)}${q}`);
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
  }
}

/** Reads the table again (after a refused stale action). */
async function refresh() {
  try {
    const q = table.token ? `?token=${encodeURIComponent(table.token)}` : '';
    render(await request('GET', `/api/tables/${encodeURIComponent(table.id)}${q}`));
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
    view,
    legal_actions: u.legal_actions ?? v.legal_actions,
    events: u.events,
  });
}

function render(v) {
  // Pushes and answers may cross: never go back to an older view.
  if (table.view && v.version < table.view.version && v.generation === table.view.generation) return;
  table.view = v;
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
  $('color-in-play').replaceChildren('Colour in play: ', el('strong', { class: `color-chip c-${o.color}` }, o.color));
  $('draw-pile').textContent = `${o.draw_pile_size} card${o.draw_pile_size === 1 ? '' : 's'} in the draw pile${o.pending_draw ? ` · ${o.pending_draw} to draw as a penalty` : ''}`;

  renderHand(v);
  renderActions(v);
  renderScores(v);

  // The log: every view carries events (recent ones on a full state, the change's on an
  // update or an answer); each is logged once.
  for (const ev of v.events || []) addLog(ev);
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
  $('hand-hint').textContent = playable.size
    ? 'Cards marked “playable” can be played now: click one (a wild asks for a colour).'
    : o.current === me && v.status === 'playing'
      ? 'No card can be played: draw.'
      : '';
  hand.replaceChildren(
    ...o.hand.map((card, i) => {
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
            onclick: () => clickCard(card, can),
          },
          ...cardFace(card),
          can ? el('span', { class: 'playable-mark' }, ' ', el('span', { 'aria-hidden': 'true' }, '✓ '), 'playable') : null,
          drawn ? el('span', { class: 'visually-hidden' }, ' just drawn') : null,
        ),
      );
    }),
  );
}

function clickCard(card, can) {
  const v = table.view;
  if (!can) {
    showError($('error'), `${capitalize(cardWords(card))} cannot be played now.`);
    return;
  }
  const plays = legal(v).filter((a) => a.type === 'play' && a.card === card);
  if (plays.some((a) => a.color)) {
    openColorPicker(plays.map((a) => a.color).filter(Boolean), (color) => send({ type: 'play', card, color }));
    return;
  }
  send({ type: 'play', card });
}

function openColorPicker(colors, onPick) {
  const box = $('color-picker');
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
            // The picker goes away: keep the keyboard focus near the hand.
            $('hand-title').focus();
            onPick(c);
          },
        },
        capitalize(c),
      ),
    ),
    el('button', { type: 'button', onclick: () => { box.hidden = true; $('hand-title').focus(); } }, 'Cancel'),
  );
  const first = $('color-buttons').querySelector('button');
  if (first) first.focus();
}

function renderActions(v) {
  const box = $('actions');
  const acts = legal(v);
  const o = v.view;
  const has = (t) => acts.some((a) => a.type === t);
  const buttons = [];
  if (has('draw')) buttons.push(el('button', { type: 'button', id: 'act-draw', onclick: () => send({ type: 'draw' }) }, o.pending_draw ? `Draw ${o.pending_draw}` : 'Draw a card'));
  if (has('pass')) buttons.push(el('button', { type: 'button', id: 'act-pass', onclick: () => send({ type: 'pass' }) }, 'Keep the card and pass'));
  if (has('call_uno')) {
    buttons.push(el('button', { type: 'button', id: 'act-uno', class: 'uno-button', onclick: () => send({ type: 'call_uno' }) }, 'Call UNO!'));
  }
  for (const a of acts.filter((x) => x.type === 'catch_uno')) {
    buttons.push(
      el(
        'button',
        { type: 'button', id: 'act-catch', class: 'uno-button', onclick: () => send({ type: 'catch_uno', seat: a.seat }) },
        `Catch ${seatName(a.seat)} (no UNO call)`,
      ),
    );
  }
  if (has('challenge')) buttons.push(el('button', { type: 'button', id: 'act-challenge', onclick: () => send({ type: 'challenge' }) }, 'Challenge the Wild Draw Four'));
  if (has('accept')) buttons.push(el('button', { type: 'button', id: 'act-accept', onclick: () => send({ type: 'accept' }) }, 'Accept and draw'));
  for (const a of acts.filter((x) => x.type === 'swap_hands')) {
    buttons.push(el('button', { type: 'button', onclick: () => send({ type: 'swap_hands', with: a.with }) }, `Swap hands with ${seatName(a.with)}`));
  }
  if (has('next_round')) buttons.push(el('button', { type: 'button', id: 'act-next', class: 'primary', onclick: () => send({ type: 'next_round' }) }, 'Deal the next round'));
  box.replaceChildren(...buttons);
  box.hidden = buttons.length === 0;

  // Naming the colour when the first card turned up is a wild.
  const declare = acts.filter((a) => a.type === 'declare_color');
  if (declare.length) {
    openColorPicker(declare.map((a) => a.color), (color) => send({ type: 'declare_color', color }));
  } else if (!acts.some((a) => a.type === 'play' && a.color)) {
    $('color-picker').hidden = true;
  }
}

function renderScores(v) {
  const o = v.view;
  const over = ['round_over', 'game_over'].includes(o.phase.phase);
  const any = o.scores.some((s) => s > 0);
  $('scores').hidden = !over && !any;
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
    result = 'The round is over: deal the next round to go on.';
  }
  $('result').textContent = result;
  $('rematch').hidden = !(v.status === 'finished' && v.you !== null && v.you !== undefined);
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
