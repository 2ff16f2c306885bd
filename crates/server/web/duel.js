// @ts-check
// The Duel page (seed 001): setup rounds, play rounds against the computer, end stage.
// The server decides every rule; this page sends what the user clicks and types and shows the
// answer, including the engine's refusals, word for word (refusals.js words the others). Drawing is duelview.js's (the
// grid duelgrid.js's, shared with the replay); this module keeps the page's state and sends the
// actions, one after another in the order typed.
import { t } from './i18n.js';
import { $, announce, capitalize, el, request, showError } from './api.js';
import { cellAt, cellName, isCombat, isMoved, onGrid, parseCell } from './duelgrid.js';
import { createDuelView, stageOf } from './duelview.js';
import { eventWords, outcomeWords } from './duelwords.js';
import { duelErrorText } from './refusals.js';
import { savedSeat, saveSeat } from './seatstore.js';

/** @typedef {import('./duelprotocol').DuelView} DuelView */
/** @typedef {import('./duelprotocol').DuelConfig} DuelConfig */
/** @typedef {import('./duelprotocol').CellKey} CellKey */
/** @typedef {import('./duelprotocol').CreateRequest} CreateRequest */
/** @typedef {import('./duelprotocol').DuelCreated} DuelCreated */
/** @typedef {import('./duelgrid.js').DuelEvent} DuelEvent */
/** @typedef {import('./duelview.js').PageState} PageState */

/**
 * What the page holds: the game as last answered, its token, and what the page shows besides.
 * @type {PageState & {
 *   view: DuelView | null, token: string | null, queue: Promise<void>, answered: number,
 *   pending: number, selectGen: number,
 * }}
 */
const state = {
  view: null, // the last answer of the server
  token: null, // the game's seat token (the person's: red)
  selected: null, // the selected cell's name ("c4") or null
  focusCell: 'a1', // the cell that takes the Tab stop in the grid
  queue: Promise.resolve(), // actions go to the server one after another, in the order typed
  answered: 0,
  pending: 0, // actions sent and not yet answered
  selectGen: 0, // counts the user's own selections (a key typed ahead follows its piece)
  confirmingEnd: false,
  fights: [], // the combat events of the last answer, shown on their cells
};

/** The game, drawn inside its section; its key buttons type as the keyboard does. */
const duel = createDuelView($('game'), (key) => typeKey(key));

// ---------------------------------------------------------------- drawing and errors

/**
 * @param {DuelView} view
 * @param {{ events?: DuelEvent[], computer?: DuelEvent[], before?: DuelView | null }} [answer]
 */
function render(view, answer = {}) {
  const hadFocus = document.activeElement;
  const focusInGame = !!hadFocus && hadFocus !== document.body && $('game').contains(hadFocus);
  if (!onGrid(state.focusCell, view)) state.focusCell = 'a1';
  // The question whether to end the game belongs to the play stage.
  if (stageOf(view) !== 'play') state.confirmingEnd = false;
  const lines = duel.render(view, state, answer);
  // The button pressed may be gone (Next round, at the start of play): the keyboard goes to the
  // grid, not to the page body.
  const lost = !hadFocus || !hadFocus.isConnected || hadFocus.getClientRects().length === 0 || document.activeElement === document.body;
  if (focusInGame && lost) duel.focusCell(state.focusCell);
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
  if (hadFocus) duel.focusCell(state.focusCell);
}

// ---------------------------------------------------------------- actions

/** @param {string} name */
function select(name) {
  if (!state.view || stageOf(state.view) === 'end') return;
  state.selected = name;
  state.focusCell = name;
  state.selectGen += 1;
  duel.board(state.view, state);
  duel.selection(state.view, state);
  duel.focusCell(name);
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
  // The selection this action was made under: its answer moves the selection on (after the
  // piece, or cleared after a placement) only if the user has selected nothing since, so a cell
  // clicked while earlier answers are on their way stays selected for the key typed on it.
  const gen = state.selectGen;
  state.queue = state.queue.then(async () => {
    try {
      if (!state.view || stageOf(state.view) === 'end') return;
      const payload = body();
      if (payload === null) return;
      const before = state.view;
      $('game').setAttribute('aria-busy', 'true');
      try {
        const view = /** @type {DuelView} */ (await request('POST', gameUrl(path), payload, state.token));
        showMoveError('');
        if (clearSelection && state.selectGen === gen) state.selected = selectionAfter(view);
        state.view = view;
        state.fights = [...view.events, ...view.computer].filter(isCombat);
        const lines = render(view, { events: view.events, computer: view.computer, before });
        duel.showMoves(view.events, view.computer);
        const st = view.status;
        const summary = stageOf(view) === 'end' ? [outcomeWords(view)] : lines;
        announce($('announce'), `${summary.join(' ')} ${stageOf(view) === 'play' ? t('duel.announce.left', { red: st.red_left, black: st.black_left }) : ''}`);
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
 * goes to the cell it was typed on, however late the answers before it come; a key typed on a
 * piece that an earlier key (typed on the same selection) moved goes to where the piece is then.
 * @param {string} key
 */
function typeKey(key) {
  const view = state.view;
  if (!view || stageOf(view) === 'end') return;
  if (!state.selected && state.pending === 0) {
    showMoveError(t('duel.selectFirst', { key }));
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
        showMoveError(t('duel.selectFirst', { key }));
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
    duel.focusCell(state.focusCell);
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
  select.replaceChildren(...config.difficulties.map((d) => el('option', { value: d }, d === 'easy' ? t('duel.diff.easy') : d === 'medium' ? t('duel.diff.medium') : d === 'hard' ? t('duel.diff.hard') : d === 'expert' ? t('duel.diff.expert') : capitalize(d))));
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
  showError($('new-game-error'), '');
  const width = Number(/** @type {HTMLInputElement} */ ($('width')).value);
  const height = Number(/** @type {HTMLInputElement} */ ($('height')).value);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || width > 255 || height > 255) {
    showError($('new-game-error'), t('duel.wholeNumbers'));
    return;
  }
  const start = /** @type {HTMLButtonElement} */ ($('start'));
  start.disabled = true;
  try {
    const difficulty = /** @type {import('./duelprotocol').Difficulty} */ (/** @type {HTMLSelectElement} */ ($('difficulty')).value);
    /** @type {CreateRequest} */
    const body = { difficulty, width, height };
    const created = /** @type {DuelCreated} */ (await request('POST', '/api/duel', body));
    // The game's token: every action needs it, and it is kept for a page that reloads.
    saveSeat(created.id, created.seat, created.token, 'duel');
    state.token = created.token;
    history.replaceState(null, '', `duel.html?game=${encodeURIComponent(created.id)}`);
    enterGame(created);
    duel.focusCell(state.focusCell);
    announce($('announce'), t('duel.announce.new'));
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
    log.prepend(el('li', {}, outcomeWords(view)));
  }
}

async function init() {
  $('new-game-form').addEventListener('submit', startGame);
  // An error about the size or the difficulty is about what was there: a change clears it.
  $('new-game-form').addEventListener('input', () => showError($('new-game-error'), ''));
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
  state.token = savedSeat(id, 'duel')?.token ?? null;
  try {
    enterGame(/** @type {DuelView} */ (await request('GET', `/api/duel/${encodeURIComponent(id)}`, undefined, state.token)));
  } catch (err) {
    history.replaceState(null, '', 'duel.html');
    await showNewGame(duelErrorText(err));
  }
}

init().then(() => {
  document.body.dataset.ready = 'true';
});
