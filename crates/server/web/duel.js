// The Duel page (seed 001): setup rounds, play rounds against the computer, end stage.
// The server decides every rule; this page sends what the user clicks and types and shows the
// answer, including the server's error messages, word for word.
import { announce, capitalize, el, request, showError } from './api.js';
import { cellName, colName, describeCell, parseCell } from './duelgrid.js';

const $ = (id) => document.getElementById(id);

const SETUP_WHAT = ['blocks', 'red pieces', 'black pieces'];
const MOVE_KEYS = [
  ['w', 'up', '↑'],
  ['a', 'left', '←'],
  ['s', 'down', '↓'],
  ['d', 'right', '→'],
];

const state = {
  view: null, // the last answer of the server
  selected: null, // the selected cell's name ("c4") or null
  focusCell: 'a1', // the cell that takes the Tab stop in the grid
  queue: Promise.resolve(), // actions go to the server one after another, in the order typed
  answered: 0,
  pending: 0, // actions sent and not yet answered
  confirmingEnd: false,
  fights: [], // the combat events of the last answer, shown on their cells
};

// ---------------------------------------------------------------- naming helpers

function cellAt(view, name) {
  const { col, row } = parseCell(name);
  return view.cells[row] && view.cells[row][col];
}
const stageOf = (view) => view.status.stage.stage;

/** Rounds without a fight after which the page points out a standoff and the way out. */
const STANDOFF_ROUNDS = 10;
/** Piece motion: the user's piece slides, then the computer's; both done within 300 ms. */
const SLIDE_MS = 180;
const COMPUTER_SLIDE_DELAY_MS = 120;

// ---------------------------------------------------------------- events in words

function pieceWords(p) {
  return `${p.side} ${p.rank}`;
}

/** One sentence per event; `before` is the view before the action (for the moving piece). */
function eventWords(ev, before) {
  switch (ev.event) {
    case 'placed':
      return ev.object.kind === 'block'
        ? `Placed a block on ${ev.cell}.`
        : `Placed ${pieceWords(ev.object)} on ${ev.cell}.`;
    case 'setup_round_started':
      return `Setup round ${ev.round} of 3: place ${SETUP_WHAT[ev.round - 1]}.`;
    case 'play_started':
      return 'The play stage begins.';
    case 'round_started':
      return `Round ${ev.round} begins.`;
    case 'moved': {
      // Events of the stored history name their piece; live ones are read off the grid before.
      const piece = ev.piece ? { kind: 'piece', ...ev.piece } : before ? cellAt(before, ev.from) : null;
      const who = ev.side === 'red' ? 'You moved' : 'The computer moved';
      const what = piece && piece.kind === 'piece' ? pieceWords(piece) : `a ${ev.side} piece`;
      return `${who} ${what} from ${ev.from} to ${ev.to} (${ev.dir}).`;
    }
    case 'combat':
      return `${capitalize(pieceWords(ev.attacker))} attacked ${pieceWords(ev.defender)} on ${ev.at}: the ${ev.eliminated} piece is eliminated.`;
    case 'play_ended':
      return 'The play stage is over.';
    default:
      return '';
  }
}

// ---------------------------------------------------------------- rendering

function render(view, { events = [], computer = [], before = null } = {}) {
  const hadFocus = document.activeElement;
  const focusInGame = !!hadFocus && hadFocus !== document.body && $('game').contains(hadFocus);
  renderView(view, { events, computer, before });
  // The button pressed may be gone (Next round, at the start of play): the keyboard goes to the
  // grid, not to the page body.
  const lost = !hadFocus || !hadFocus.isConnected || hadFocus.getClientRects().length === 0 || document.activeElement === document.body;
  if (focusInGame && lost) focusCell(state.focusCell);
  return renderedLines;
}

let renderedLines = [];

function renderView(view, { events, computer, before }) {
  const stage = stageOf(view);
  const st = view.status;
  document.body.dataset.stage = stage;
  $('game').dataset.stage = stage;

  // Title, instructions and the status line of the seed.
  let title;
  let instructions;
  let stuck = false;
  if (stage === 'setup') {
    const r = st.stage.round;
    title = `Setup, round ${r} of 3: ${SETUP_WHAT[r - 1]}`;
    instructions =
      r === 1
        ? 'Click a cell and type the letter b to place a block. Place as many as you like, then press Next round.'
        : `Click a cell and type a number from 1 to 6 to place a ${r === 2 ? 'red' : 'black'} piece (at most 12: three 1s, two each of 2 to 5, one 6). Then press Next round.`;
    if (r === 3) instructions += ' Next round then starts the play stage.';
    // Blocks can fill a small grid: a side with no piece and no empty cell can never proceed.
    const side = r === 2 ? 'red' : 'black';
    const empty = view.cells.some((row) => row.some((c) => c.kind === 'empty'));
    const placed = r === 2 ? st.red_left : st.black_left;
    stuck = r > 1 && !empty && placed === 0;
    if (stuck) {
      instructions = `No empty cell is left for a ${side} piece, so this game cannot go on: start a new game with fewer blocks.`;
    }
  } else if (stage === 'play') {
    title = `Play, round ${st.round}`;
    instructions =
      'Click one of your red pieces, then type w (up), a (left), s (down) or d (right). The computer answers with a black move.';
  } else {
    title = 'End of the game';
    instructions = 'The game is over: the grid no longer reacts. Start a new game with the link below.';
  }
  $('stage-title').textContent = title;
  $('instructions').textContent = instructions;
  const counts = `Red pieces left: ${st.red_left} · Black pieces left: ${st.black_left}`;
  $('status').textContent =
    stage === 'setup'
      ? `Setup round ${st.stage.round} of 3 · Red pieces: ${st.red_left} · Black pieces: ${st.black_left}`
      : stage === 'play'
        ? `Round ${st.round} · ${counts}`
        : `Game over after round ${st.round} · ${counts}`;

  renderBoard(view);
  renderKeypad(stage, stage === 'setup' ? st.stage.round : 0);

  $('next-round').hidden = stage !== 'setup' || stuck;
  $('setup-restart').hidden = !stuck;
  if (stuck) $('setup-restart').href = `duel.html?width=${view.width}&height=${view.height}&difficulty=${encodeURIComponent(view.difficulty)}`;
  $('next-round').textContent = stage === 'setup' && st.stage.round === 3 ? 'Next round: start playing' : 'Next round';
  $('end-play').hidden = stage !== 'play' || state.confirmingEnd;
  $('end-confirm').hidden = stage !== 'play' || !state.confirmingEnd;
  if (stage !== 'play') state.confirmingEnd = false;
  $('board-help').hidden = stage === 'end';
  $('fight-rule').hidden = stage !== 'play';
  const quiet = view.rounds_without_fight || 0;
  const standoff = $('standoff');
  standoff.hidden = stage !== 'play' || quiet < STANDOFF_ROUNDS;
  standoff.textContent = standoff.hidden
    ? ''
    : `No fight for ${quiet} rounds. Black must attack when it can, so a red piece moved next to a black piece that cannot beat it forces a fight. If neither side can win a fight, the game will not end by itself: End the play stage… ends it (a draw while both sides have pieces).`;

  // The last move (the computer's answer, or the user's move that ended the game).
  const lm = view.last_move;
  const lastBox = $('last-move');
  if (computer.length > 0) {
    const board = afterUser(before, events, view);
    const words = computer.map((e) => {
      if (e.event === 'moved') {
        const p = board ? cellAt(board, e.from) : null;
        return `${p && p.kind === 'piece' ? pieceWords(p) : 'black'} from ${e.from} to ${e.to} (${e.dir}).`;
      }
      return e.event === 'combat' ? eventWords(e) : '';
    });
    lastBox.textContent = `Computer's move: ${words.filter(Boolean).join(' ')}`;
  } else if (lm) {
    const who = lm.side === 'red' ? 'Your last move' : "The computer's last move";
    const what = lm.rank ? `${lm.side} ${lm.rank}` : `${lm.side} piece`;
    lastBox.textContent = `${who}: ${what} from ${lm.from} to ${lm.to}${
      lm.eliminated ? `; the ${lm.eliminated} piece was eliminated` : ''
    }.`;
  } else {
    lastBox.textContent = '';
  }
  lastBox.hidden = !lastBox.textContent;

  // End stage: the outcome and the new-game link.
  const over = stage === 'end';
  $('outcome').hidden = !over;
  if (over) {
    $('outcome-message').textContent = view.outcome_message || '';
    $('outcome-reason').textContent = view.end_reason || '';
    $('duel-replay-link').href = `duel-replay.html?game=${encodeURIComponent(view.id)}&ply=0`;
    $('outcome').dataset.outcome = st.outcome || '';
    const link = new URL('duel.html', location.href);
    link.searchParams.set('width', view.width);
    link.searchParams.set('height', view.height);
    link.searchParams.set('difficulty', view.difficulty);
    $('new-game-link').href = link.pathname + link.search;
  }

  renderSelection();

  // The log, newest first.
  const log = $('log');
  const all = [...events, ...computer];
  const lines = all.map((e, i) => eventWords(e, i < events.length ? before : afterUser(before, events, view)));
  if (over && all.some((e) => e.event === 'play_ended')) lines.push(view.outcome_message || '');
  for (const line of lines.filter(Boolean)) log.prepend(el('li', {}, line));
  while (log.children.length > 300) log.lastElementChild.remove();
  renderedLines = lines.filter(Boolean);
}

/** The grid as the user's move left it, to name the computer's moving piece. */
function afterUser(before, events, view) {
  if (!before) return view;
  const cells = before.cells.map((row) => row.slice());
  for (const e of events) {
    if (e.event === 'moved') {
      const f = parseCell(e.from);
      const t = parseCell(e.to);
      const piece = cells[f.row][f.col];
      cells[f.row][f.col] = { kind: 'empty' };
      cells[t.row][t.col] = piece;
    } else if (e.event === 'combat') {
      const t = parseCell(e.at);
      cells[t.row][t.col] = e.eliminated === e.attacker.side ? e.defender : e.attacker;
    }
  }
  return { ...before, cells };
}

function renderBoard(view) {
  const table = $('board');
  const hadFocus = table.contains(document.activeElement);
  const over = stageOf(view) === 'end';
  table.replaceChildren();
  table.append(el('caption', { class: 'visually-hidden' }, `Duel grid, ${view.width} columns by ${view.height} rows`));
  const head = el('tr', {}, el('td', { class: 'corner' }));
  for (let c = 0; c < view.width; c += 1) head.append(el('th', { scope: 'col' }, colName(c)));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  const lm = view.last_move;
  if (!parseCellSafe(state.focusCell, view)) state.focusCell = 'a1';
  for (let r = 0; r < view.height; r += 1) {
    const tr = el('tr', {}, el('th', { scope: 'row' }, String(r + 1)));
    for (let c = 0; c < view.width; c += 1) {
      const name = cellName(c, r);
      const cell = view.cells[r][c];
      const classes = ['cell', `cell-${cell.kind}`];
      const label = [name, describeCell(cell)];
      if (cell.kind === 'piece') label[1] += `, ${cell.side === 'red' ? 'R' : 'B'}${cell.rank}`;
      // The last fight's numbers, drawn by the stylesheet on the winner's piece and said in words
      // in the cell's name.
      const fight = state.fights.find((f) => f.at === name);
      const short = (p) => `${p.side === 'red' ? 'R' : 'B'}${p.rank}`;
      const fightText = fight ? `${short(fight.attacker)} vs ${short(fight.defender)}` : undefined;
      let content = null;
      if (cell.kind === 'piece') {
        classes.push(`piece-${cell.side}`);
        content = el(
          'span',
          { class: `piece ${cell.side}`, 'aria-hidden': 'true', 'data-fight': fightText },
          el('span', { class: 'piece-text' }, `${cell.side === 'red' ? 'R' : 'B'}${cell.rank}`),
        );
      } else if (cell.kind === 'block') {
        content = el('span', { class: 'block', 'aria-hidden': 'true' }, '#');
      }
      if (lm && lm.from === name) {
        classes.push('last-from');
        label.push(`last move started here`);
      }
      if (lm && lm.to === name) {
        classes.push('last-to');
        label.push(`last move ended here`);
      }
      if (state.selected === name && !over) {
        classes.push('selected');
        label.push('selected');
      }
      if (fight) label.push(`fight ${fightText}: the ${fight.eliminated} piece was eliminated`);
      const button = el(
        'button',
        {
          type: 'button',
          class: classes.join(' '),
          'data-cell': name,
          'aria-label': label.join(', '),
          'aria-pressed': over ? undefined : String(state.selected === name),
          'aria-disabled': over ? 'true' : undefined,
          tabindex: name === state.focusCell ? '0' : '-1',
        },
        content,
      );
      tr.append(el('td', {}, button));
    }
    body.append(tr);
  }
  table.append(body);
  if (hadFocus) focusCell(state.focusCell);
}

const stillMotion = () => !window.matchMedia || window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The moves of one answer slide from their cell to where they landed (the user's, then the
 * computer's), and each fight shows both numbers on its cell until the next move. The grid is
 * already drawn as it stands: the motion only eases the pieces in, and the next answer, which
 * redraws the grid, ends it. */
function showMoves(events, computer) {
  const moves = [
    ...events.filter((e) => e.event === 'moved').map((e) => [e, 0]),
    ...computer.filter((e) => e.event === 'moved').map((e) => [e, COMPUTER_SLIDE_DELAY_MS]),
  ];
  if (stillMotion()) return;
  for (const [e, delay] of moves) {
    const to = document.querySelector(`#board button[data-cell="${e.to}"]`);
    const from = document.querySelector(`#board button[data-cell="${e.from}"]`);
    const piece = to && to.querySelector(`.piece.${e.side}`);
    // The piece may have lost a fight on arrival: nothing of it is left to slide.
    if (!piece || !from) continue;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    piece.animate([{ transform: `translate(${a.left - b.left}px, ${a.top - b.top}px)` }, { transform: 'none' }], {
      duration: SLIDE_MS,
      delay,
      easing: 'ease-out',
      fill: 'backwards',
    });
  }
}

function parseCellSafe(name, view) {
  if (!name) return false;
  const { col, row } = parseCell(name);
  return col >= 0 && row >= 0 && col < view.width && row < view.height;
}

function renderKeypad(stage, setupRound) {
  const pad = $('keypad');
  pad.replaceChildren();
  pad.hidden = stage === 'end';
  if (stage === 'end') return;
  let keys;
  if (stage === 'setup' && setupRound === 1) keys = [['b', 'block', '']];
  else if (stage === 'setup') keys = ['1', '2', '3', '4', '5', '6'].map((k) => [k, '', '']);
  else keys = MOVE_KEYS.map(([k, dir, arrow]) => [k, dir, arrow]);
  pad.append(el('span', { class: 'keypad-label', 'aria-hidden': 'true' }, 'Type:'));
  for (const [key, words, arrow] of keys) {
    const button = el('button', { type: 'button', class: 'key', 'data-key': key, onclick: () => typeKey(key) }, key);
    if (arrow) button.append(' ', el('span', { 'aria-hidden': 'true' }, arrow));
    if (words) button.append(el('span', { class: 'visually-hidden' }, ` (${words})`));
    pad.append(button);
  }
}

function renderSelection() {
  const view = state.view;
  const box = $('selection');
  if (!view || stageOf(view) === 'end' || !state.selected) {
    box.textContent = stageOf(view || { status: { stage: { stage: 'end' } } }) === 'end' ? '' : 'No cell selected.';
    return;
  }
  box.textContent = `Selected: ${state.selected} (${describeCell(cellAt(view, state.selected))}).`;
}

function focusCell(name) {
  const b = document.querySelector(`#board button[data-cell="${name}"]`);
  if (b) b.focus();
}

// ---------------------------------------------------------------- actions

function select(name) {
  if (!state.view || stageOf(state.view) === 'end') return;
  state.selected = name;
  state.focusCell = name;
  renderBoard(state.view);
  renderSelection();
  focusCell(name);
}

function gameUrl(suffix = '') {
  return `/api/duel/${encodeURIComponent(state.view.id)}${suffix}`;
}

/** Sends one action; actions run one after another in the order the user made them. */
function send(path, body, { clearSelection = false } = {}) {
  state.pending += 1;
  state.queue = state.queue.then(async () => {
    if (!state.view || stageOf(state.view) === 'end') return;
    const before = state.view;
    $('game').setAttribute('aria-busy', 'true');
    try {
      const view = await request('POST', gameUrl(path), body);
      showError($('error'), '');
      if (clearSelection) {
        state.selected = null;
        state.movedAt = performance.now();
      }
      state.view = view;
      state.fights = [...(view.events || []), ...(view.computer || [])].filter((e) => e.event === 'combat');
      const lines = render(view, { events: view.events, computer: view.computer, before });
      showMoves(view.events || [], view.computer || []);
      const st = view.status;
      const summary = stageOf(view) === 'end' ? [view.outcome_message] : lines;
      announce($('announce'), `${summary.join(' ')} ${stageOf(view) === 'play' ? `Red left ${st.red_left}, black left ${st.black_left}.` : ''}`);
    } catch (err) {
      showError($('error'), err.message);
      if (err.status === 404) state.view = null;
    } finally {
      state.pending -= 1;
      $('game').removeAttribute('aria-busy');
      // A counter of answered actions: lets tests (and curious people) see the page settle.
      state.answered += 1;
      document.body.dataset.answered = String(state.answered);
    }
  });
  return state.queue;
}

/** Ending the play stage ends the game: it asks first, in a box of its own. */
function setConfirmEnd(on) {
  state.confirmingEnd = on;
  $('end-confirm').hidden = !on;
  $('end-play').hidden = on || !state.view || stageOf(state.view) !== 'play';
  if (on) $('end-confirm-no').focus();
  else if (!$('end-play').hidden) $('end-play').focus();
}

function typeKey(key) {
  const view = state.view;
  if (!view || stageOf(view) === 'end') return;
  if (!state.selected) {
    // A key typed twice whose first press moved the piece arrives after the answer cleared the
    // selection: a repeat, not a mistake to explain.
    if (performance.now() - (state.movedAt ?? -Infinity) < 500) return;
    showError($('error'), `Select a cell first (click it), then type "${key}".`);
    return;
  }
  // A move is on its way: a second key for the same selection would reach a cell the piece has
  // left. Ignore it; the next key goes to the piece selected after the answer.
  if (state.pending > 0) return;
  const path = stageOf(view) === 'setup' ? '/place' : '/move';
  send(path, { cell: state.selected, key }, { clearSelection: true }).then(() => {
    // After a refused key the selection stays, so the user can type again.
  });
}

// Refused actions keep the selection: `send` clears it only on success.

function onKeyDown(e) {
  const view = state.view;
  if (!view || $('game').hidden) return;
  if (stageOf(view) === 'end') return; // the end stage reacts to nothing
  // Escape closes the box asking whether to end the game: the game goes on.
  if (e.key === 'Escape' && state.confirmingEnd) {
    e.preventDefault();
    setConfirmEnd(false);
    return;
  }
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const inBoard = t instanceof HTMLElement && t.closest('#board');
  const arrows = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (inBoard && arrows[e.key]) {
    e.preventDefault();
    const { col, row } = parseCell(t.dataset.cell || state.focusCell);
    const [dc, dr] = arrows[e.key];
    const nc = Math.min(view.width - 1, Math.max(0, col + dc));
    const nr = Math.min(view.height - 1, Math.max(0, row + dr));
    state.focusCell = cellName(nc, nr);
    for (const b of document.querySelectorAll('#board button')) {
      b.tabIndex = b.dataset.cell === state.focusCell ? 0 : -1;
    }
    focusCell(state.focusCell);
    return;
  }
  if (e.key.length === 1 && e.key !== ' ') {
    e.preventDefault();
    typeKey(e.key);
  }
}

// ---------------------------------------------------------------- start

async function showNewGame(message) {
  $('game').hidden = true;
  $('new-game').hidden = false;
  showError($('new-game-error'), message || '');
  const params = new URLSearchParams(location.search);
  let config = { default_width: 6, default_height: 6, max_dimension: 26, difficulties: ['easy', 'medium', 'hard', 'expert'], default_difficulty: 'hard' };
  try {
    config = await request('GET', '/api/duel/config');
  } catch (err) {
    showError($('new-game-error'), err.message);
  }
  const select = $('difficulty');
  select.replaceChildren(...config.difficulties.map((d) => el('option', { value: d }, capitalize(d))));
  const wanted = params.get('difficulty');
  select.value = config.difficulties.includes(wanted) ? wanted : config.default_difficulty;
  for (const [id, def] of [['width', config.default_width], ['height', config.default_height]]) {
    const input = $(id);
    input.max = String(config.max_dimension);
    const q = params.get(id);
    input.value = q !== null && /^\d+$/.test(q) ? q : String(def);
  }
}

async function startGame(e) {
  e.preventDefault();
  const width = Number($('width').value);
  const height = Number($('height').value);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || width > 255 || height > 255) {
    showError($('new-game-error'), 'Type whole numbers for the columns and rows.');
    return;
  }
  $('start').disabled = true;
  try {
    const view = await request('POST', '/api/duel', { difficulty: $('difficulty').value, width, height });
    history.replaceState(null, '', `duel.html?game=${encodeURIComponent(view.id)}`);
    enterGame(view);
    focusBoard();
    announce($('announce'), 'New game. Setup round 1 of 3: place blocks.');
  } catch (err) {
    showError($('new-game-error'), err.message);
  } finally {
    $('start').disabled = false;
  }
}

function enterGame(view) {
  state.view = view;
  state.selected = null;
  state.fights = [];
  $('new-game').hidden = true;
  $('game').hidden = false;
  $('log').replaceChildren();
  render(view);
  // A reloaded game: what happened so far, from the server's history (newest first, as played).
  const log = $('log');
  for (const ev of view.history || []) {
    const line = eventWords(ev, null);
    if (line) log.prepend(el('li', {}, line));
  }
  if (stageOf(view) === 'end' && (view.history || []).some((e) => e.event === 'play_ended')) {
    log.prepend(el('li', {}, view.outcome_message || ''));
  }
}

/** After "Start": the keyboard goes to the grid. */
function focusBoard() {
  focusCell(state.focusCell);
}

async function init() {
  $('new-game-form').addEventListener('submit', startGame);
  $('board').addEventListener('click', (e) => {
    const b = e.target instanceof Element && e.target.closest('button[data-cell]');
    if (b) select(b.dataset.cell);
  });
  $('next-round').addEventListener('click', () => {
    // A double click or a second tap must not start two rounds (or hit what appears next).
    if (state.pending > 0) return;
    send('/next-round');
  });
  $('end-play').addEventListener('click', () => {
    if (state.pending > 0) return;
    setConfirmEnd(true);
  });
  $('end-confirm-yes').addEventListener('click', () => {
    setConfirmEnd(false);
    send('/end', undefined, { clearSelection: true });
  });
  $('end-confirm-no').addEventListener('click', () => setConfirmEnd(false));
  document.addEventListener('keydown', onKeyDown);

  const id = new URLSearchParams(location.search).get('game');
  if (!id) {
    await showNewGame();
    return;
  }
  try {
    enterGame(await request('GET', `/api/duel/${encodeURIComponent(id)}`));
  } catch (err) {
    history.replaceState(null, '', 'duel.html');
    await showNewGame(err.message);
  }
}

init().then(() => {
  document.body.dataset.ready = 'true';
});
