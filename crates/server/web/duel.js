// @ts-check
// The Duel page (seed 001): setup rounds, play rounds against the computer, end stage.
// The server decides every rule; this page sends what the user clicks and types and shows the
// answer, including the engine's refusals, word for word (refusals.js words the others). Drawing is duelview.js's (the
// grid duelgrid.js's, shared with the replay); this module keeps the page's state and sends the
// actions, one after another in the order typed.
import { announce, capitalize, el, request, showError } from './api.js';
import { cellAt, cellName, isCombat, isMoved, onGrid, parseCell } from './duelgrid.js';
import { focusCell, renderBoard, renderSelection, renderView, showMoves, stageOf } from './duelview.js';
import { eventWords } from './duelwords.js';
import { duelErrorText } from './refusals.js';

/** @typedef {import('./duelprotocol').DuelView} DuelView */
/** @typedef {import('./duelprotocol').DuelConfig} DuelConfig */
/** @typedef {import('./duelprotocol').CellKey} CellKey */
/** @typedef {import('./duelprotocol').CreateRequest} CreateRequest */
/** @typedef {import('./duelgrid.js').DuelEvent} DuelEvent */
/** @typedef {import('./duelview.js').PageState} PageState */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @type {PageState & {
 *   view: DuelView | null, queue: Promise<void>, answered: number, pending: number,
 *   selectGen: number,
 * }}
 */
const state = {
  view: null, // the last answer of the server
  selected: null, // the selected cell's name ("c4") or null
  focusCell: 'a1', // the cell that takes the Tab stop in the grid
  queue: Promise.resolve(), // actions go to the server one after another, in the order typed
  answered: 0,
  pending: 0, // actions sent and not yet answered
  selectGen: 0, // counts the user's own selections (a key typed ahead follows its piece)
  confirmingEnd: false,
  fights: [], // the combat events of the last answer, shown on their cells
  typeKey: (key) => typeKey(key),
};

// ---------------------------------------------------------------- drawing and errors

/**
 * @param {DuelView} view
 * @param {{ events?: DuelEvent[], computer?: DuelEvent[], before?: DuelView | null }} [answer]
 */
function render(view, answer = {}) {
  const hadFocus = document.activeElement;
  const focusInGame = !!hadFocus && hadFocus !== document.body && $('game').contains(hadFocus);
  if (!onGrid(state.focusCell, view)) state.focusCell = 'a1';
  const lines = renderView(view, state, answer);
  // The button pressed may be gone (Next round, at the start of play): the keyboard goes to the
  // grid, not to the page body.
  const lost = !hadFocus || !hadFocus.isConnected || hadFocus.getClientRects().length === 0 || document.activeElement === document.body;
  if (focusInGame && lost) focusCell(state.focusCell);
  return lines;
}

/** A refused action's message, in the page's flow under the controls (never over them), until
 * dismissed or the next answer. An empty message hides it.
 * @param {string} message */
function showMoveError(message) {
  showError($('error'), message);
  $('error-box').hidden = !message;
}

function dismissError() {
  const hadFocus = $('error-box').contains(document.activeElement);
  showMoveError('');
  if (hadFocus) focusCell(state.focusCell);
}

// ---------------------------------------------------------------- actions

/** @param {string} name */
function select(name) {
  if (!state.view || stageOf(state.view) === 'end') return;
  state.selected = name;
  state.focusCell = name;
  state.selectGen += 1;
  renderBoard(state.view, state);
  renderSelection(state.view, state);
  focusCell(name);
}

/** @param {string} [suffix] */
function gameUrl(suffix = '') {
  return `/api/duel/${encodeURIComponent(/** @type {DuelView} */ (state.view).id)}${suffix}`;
}

/**
 * After a move the selection follows the piece (if it is still on the grid), so a key typed
 * ahead moves it on; after a placement or the end it is cleared.
 * @param {DuelView} view
 */
function selectionAfter(view) {
  const moved = (view.events || []).filter(isMoved).find((e) => e.side === 'red');
  const there = moved ? cellAt(view, moved.to) : undefined;
  if (moved && there && there.kind === 'piece' && there.side === 'red' && stageOf(view) === 'play') {
    state.focusCell = moved.to;
    return moved.to;
  }
  return null;
}

/**
 * Sends one action; actions run one after another in the order the user made them. `body` is
 * worked out when the action's turn comes (a key typed ahead goes to where its piece is then);
 * `null` sends nothing.
 * @param {string} path
 * @param {() => CellKey | null | undefined} [body]
 * @param {{ clearSelection?: boolean }} [opts]
 */
function send(path, body = () => undefined, { clearSelection = false } = {}) {
  state.pending += 1;
  state.queue = state.queue.then(async () => {
    try {
      if (!state.view || stageOf(state.view) === 'end') return;
      const payload = body();
      if (payload === null) return;
      const before = state.view;
      $('game').setAttribute('aria-busy', 'true');
      try {
        const view = /** @type {DuelView} */ (await request('POST', gameUrl(path), payload));
        showMoveError('');
        if (clearSelection) state.selected = selectionAfter(view);
        state.view = view;
        state.fights = [...view.events, ...view.computer].filter(isCombat);
        const lines = render(view, { events: view.events, computer: view.computer, before });
        showMoves(view.events, view.computer);
        const st = view.status;
        const summary = stageOf(view) === 'end' ? [view.outcome_message] : lines;
        announce($('announce'), `${summary.join(' ')} ${stageOf(view) === 'play' ? `Red left ${st.red_left}, black left ${st.black_left}.` : ''}`);
      } catch (err) {
        const e = /** @type {{ status?: number }} */ (err);
        showMoveError(duelErrorText(err));
        if (e.status === 404) state.view = null;
      }
    } finally {
      state.pending -= 1;
      if (state.pending === 0) $('game').removeAttribute('aria-busy');
      // A counter of answered actions: lets tests (and curious people) see the page settle.
      state.answered += 1;
      document.body.dataset.answered = String(state.answered);
    }
  });
  return state.queue;
}

/** Ending the play stage ends the game: it asks first, in a box of its own.
 * @param {boolean} on */
function setConfirmEnd(on) {
  state.confirmingEnd = on;
  $('end-confirm').hidden = !on;
  $('end-play').hidden = on || !state.view || stageOf(state.view) !== 'play';
  if (on) $('end-confirm-no').focus();
  else if (!$('end-play').hidden) $('end-play').focus();
}

/**
 * A key for the selected cell. Keys typed while an action is on its way wait their turn: each
 * goes to the cell selected when it was typed, or, if the user selected nothing since, to where
 * the selected piece is once the actions before it are answered.
 * @param {string} key
 */
function typeKey(key) {
  const view = state.view;
  if (!view || stageOf(view) === 'end') return;
  if (!state.selected && state.pending === 0) {
    showMoveError(`Select a cell first (click it), then type "${key}".`);
    return;
  }
  const typedOn = state.selected;
  const gen = state.selectGen;
  const path = stageOf(view) === 'setup' ? '/place' : '/move';
  send(
    path,
    () => {
      const cell = state.selectGen === gen ? state.selected : typedOn;
      if (!cell) {
        showMoveError(`Select a cell first (click it), then type "${key}".`);
        return null;
      }
      return { cell, key };
    },
    { clearSelection: true },
  );
}

/** @param {KeyboardEvent} e */
function onKeyDown(e) {
  const view = state.view;
  if (!view || $('game').hidden) return;
  if (stageOf(view) === 'end') return; // the end stage reacts to nothing
  // Escape closes the box asking whether to end the game (the game goes on), else the error.
  if (e.key === 'Escape' && state.confirmingEnd) {
    e.preventDefault();
    setConfirmEnd(false);
    return;
  }
  if (e.key === 'Escape' && !$('error-box').hidden) {
    e.preventDefault();
    dismissError();
    return;
  }
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const inBoard = t instanceof HTMLElement && t.closest('#board');
  /** @type {Record<string, [number, number]>} */
  const arrows = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (inBoard && arrows[e.key]) {
    e.preventDefault();
    const { col, row } = parseCell((t instanceof HTMLElement && t.dataset.cell) || state.focusCell);
    const [dc, dr] = arrows[e.key];
    const nc = Math.min(view.width - 1, Math.max(0, col + dc));
    const nr = Math.min(view.height - 1, Math.max(0, row + dr));
    state.focusCell = cellName(nc, nr);
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#board button'))) {
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

/** @param {string} [message] */
async function showNewGame(message) {
  $('game').hidden = true;
  $('new-game').hidden = false;
  showError($('new-game-error'), message || '');
  const params = new URLSearchParams(location.search);
  /** @type {DuelConfig} */
  let config = { default_width: 6, default_height: 6, max_dimension: 26, difficulties: ['easy', 'medium', 'hard', 'expert'], default_difficulty: 'hard' };
  try {
    config = /** @type {DuelConfig} */ (await request('GET', '/api/duel/config'));
  } catch (err) {
    showError($('new-game-error'), duelErrorText(err));
  }
  const select = /** @type {HTMLSelectElement} */ ($('difficulty'));
  select.replaceChildren(...config.difficulties.map((d) => el('option', { value: d }, capitalize(d))));
  const wanted = params.get('difficulty');
  select.value = wanted && /** @type {string[]} */ (config.difficulties).includes(wanted) ? wanted : config.default_difficulty;
  for (const [id, def] of /** @type {[string, number][]} */ ([['width', config.default_width], ['height', config.default_height]])) {
    const input = /** @type {HTMLInputElement} */ ($(id));
    input.max = String(config.max_dimension);
    const q = params.get(id);
    input.value = q !== null && /^\d+$/.test(q) ? q : String(def);
  }
}

/** @param {Event} e */
async function startGame(e) {
  e.preventDefault();
  const width = Number(/** @type {HTMLInputElement} */ ($('width')).value);
  const height = Number(/** @type {HTMLInputElement} */ ($('height')).value);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || width > 255 || height > 255) {
    showError($('new-game-error'), 'Type whole numbers for the columns and rows.');
    return;
  }
  const start = /** @type {HTMLButtonElement} */ ($('start'));
  start.disabled = true;
  try {
    const difficulty = /** @type {import('./duelprotocol').Difficulty} */ (/** @type {HTMLSelectElement} */ ($('difficulty')).value);
    /** @type {CreateRequest} */
    const body = { difficulty, width, height };
    const view = /** @type {DuelView} */ (await request('POST', '/api/duel', body));
    history.replaceState(null, '', `duel.html?game=${encodeURIComponent(view.id)}`);
    enterGame(view);
    focusCell(state.focusCell);
    announce($('announce'), 'New game. Setup round 1 of 3: place blocks.');
  } catch (err) {
    showError($('new-game-error'), duelErrorText(err));
  } finally {
    start.disabled = false;
  }
}

/** @param {DuelView} view */
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

async function init() {
  $('new-game-form').addEventListener('submit', startGame);
  $('board').addEventListener('click', (e) => {
    const b = e.target instanceof Element && e.target.closest('button[data-cell]');
    if (b instanceof HTMLElement && b.dataset.cell) select(b.dataset.cell);
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
  $('error-dismiss').addEventListener('click', dismissError);
  document.addEventListener('keydown', onKeyDown);

  const id = new URLSearchParams(location.search).get('game');
  if (!id) {
    await showNewGame();
    return;
  }
  try {
    enterGame(/** @type {DuelView} */ (await request('GET', `/api/duel/${encodeURIComponent(id)}`)));
  } catch (err) {
    history.replaceState(null, '', 'duel.html');
    await showNewGame(duelErrorText(err));
  }
}

init().then(() => {
  document.body.dataset.ready = 'true';
});
