// @ts-check
// The Duel page drawn from one server view: the stage's title and instructions, the status line,
// the grid (duelgrid.js), the keys to type, the last move, the outcome and the log; and the
// pieces' slide after a move. The page's state (selection, fights, the end question) is kept by
// duel.js; this module draws it.
import { el } from './api.js';
import { cellAt, describeCell, isMoved, renderGrid } from './duelgrid.js';
import { SETUP_WHAT, afterUser, eventWords, pieceWords } from './duelwords.js';

/** @typedef {import('./duelgrid.js').DuelEvent} DuelEvent */
/** @typedef {import('./duelgrid.js').Combat} Combat */
/** @typedef {import('./duelgrid.js').Moved} Moved */
/** @typedef {import('./duelprotocol').DuelView} DuelView */
/**
 * What the drawing reads of the page's state.
 * @typedef {object} PageState
 * @property {string | null} selected
 * @property {string} focusCell
 * @property {Combat[]} fights
 * @property {boolean} confirmingEnd
 * @property {(key: string) => void} typeKey what a key button does
 */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {DuelView} view */
export const stageOf = (view) => view.status.stage.stage;

/** Rounds without a fight after which the page points out a standoff and the way out. */
const STANDOFF_ROUNDS = 10;
/** Piece motion: the user's piece slides, then the computer's; both done within 300 ms. */
const SLIDE_MS = 180;
const COMPUTER_SLIDE_DELAY_MS = 120;

const MOVE_KEYS = [
  ['w', 'up', '↑'],
  ['a', 'left', '←'],
  ['s', 'down', '↓'],
  ['d', 'right', '→'],
];

/**
 * Draws `view`; `events` and `computer` are the answer's (the user's action's and the
 * computer's), `before` the view before the action. Returns the new log lines.
 * @param {DuelView} view
 * @param {PageState} state
 * @param {{ events?: DuelEvent[], computer?: DuelEvent[], before?: DuelView | null }} [answer]
 * @returns {string[]}
 */
export function renderView(view, state, { events = [], computer = [], before = null } = {}) {
  const stage = stageOf(view);
  const st = view.status;
  document.body.dataset.stage = stage;
  $('game').dataset.stage = stage;

  // Title, instructions and the status line of the seed.
  let title;
  let instructions;
  let stuck = false;
  if (stage === 'setup') {
    const r = st.stage.round ?? 1;
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

  renderBoard(view, state);
  renderKeypad(stage, st.stage.round ?? 0, state.typeKey);

  $('next-round').hidden = stage !== 'setup' || stuck;
  $('setup-restart').hidden = !stuck;
  if (stuck) /** @type {HTMLAnchorElement} */ ($('setup-restart')).href = `duel.html?width=${view.width}&height=${view.height}&difficulty=${encodeURIComponent(view.difficulty)}`;
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
    /** @type {HTMLAnchorElement} */ ($('duel-replay-link')).href = `duel-replay.html?game=${encodeURIComponent(view.id)}&ply=0`;
    $('outcome').dataset.outcome = st.outcome || '';
    const link = new URL('duel.html', location.href);
    link.searchParams.set('width', String(view.width));
    link.searchParams.set('height', String(view.height));
    link.searchParams.set('difficulty', view.difficulty);
    /** @type {HTMLAnchorElement} */ ($('new-game-link')).href = link.pathname + link.search;
  }

  renderSelection(view, state);

  // The log, newest first.
  const log = $('log');
  const all = [...events, ...computer];
  const lines = all.map((e, i) => eventWords(e, i < events.length ? before : afterUser(before, events, view)));
  if (over && all.some((e) => e.event === 'play_ended')) lines.push(view.outcome_message || '');
  for (const line of lines.filter(Boolean)) log.prepend(el('li', {}, line));
  while (log.children.length > 300) log.lastElementChild?.remove();
  return lines.filter(Boolean);
}

/**
 * The grid, keeping the keyboard on it when it had it.
 * @param {DuelView} view
 * @param {PageState} state
 */
export function renderBoard(view, state) {
  const table = /** @type {HTMLTableElement} */ ($('board'));
  const hadFocus = table.contains(document.activeElement);
  const over = stageOf(view) === 'end';
  renderGrid(table, view, { interactive: true, over, selected: state.selected, focusCell: state.focusCell, fights: state.fights });
  if (hadFocus) focusCell(state.focusCell);
}

/** @param {string} name */
export function focusCell(name) {
  const b = /** @type {HTMLElement | null} */ (document.querySelector(`#board button[data-cell="${name}"]`));
  if (b) b.focus();
}

const stillMotion = () => !window.matchMedia || window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The moves of one answer slide from their cell to where they landed (the user's, then the
 * computer's), and each fight shows both numbers on its cell until the next move. The grid is
 * already drawn as it stands: the motion only eases the pieces in, and the next answer, which
 * redraws the grid, ends it. */
/**
 * @param {DuelEvent[]} events
 * @param {DuelEvent[]} computer
 */
export function showMoves(events, computer) {
  /** @type {[Moved, number][]} */
  const moves = [
    ...events.filter(isMoved).map((e) => /** @type {[Moved, number]} */ ([e, 0])),
    ...computer.filter(isMoved).map((e) => /** @type {[Moved, number]} */ ([e, COMPUTER_SLIDE_DELAY_MS])),
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

/**
 * The keys to type, as buttons (for a pointer, a phone).
 * @param {string} stage
 * @param {number} setupRound
 * @param {(key: string) => void} typeKey
 */
function renderKeypad(stage, setupRound, typeKey) {
  const pad = $('keypad');
  pad.replaceChildren();
  pad.hidden = stage === 'end';
  if (stage === 'end') return;
  /** @type {string[][]} */
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

/**
 * The selected cell in words.
 * @param {DuelView | null} view
 * @param {PageState} state
 */
export function renderSelection(view, state) {
  const box = $('selection');
  if (!view || stageOf(view) === 'end' || !state.selected) {
    box.textContent = !view || stageOf(view) === 'end' ? '' : 'No cell selected.';
    return;
  }
  box.textContent = `Selected: ${state.selected} (${describeCell(cellAt(view, state.selected))}).`;
}

