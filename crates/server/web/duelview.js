// @ts-check
// The Duel page drawn from one server view, inside the game's root: the stage's title and
// instructions, the status line, the grid (duelgrid.js), the keys to type (each given to the
// `typeKey` it is made with), the last move, the outcome and the log; and the pieces' slide
// after a move. What the page shows besides the view (the selection, the fights, the end
// question) is duel.js's, given to each drawing to read.
import { el, find } from './api.js';
import { cellAt, describeCell, isMoved, renderGrid } from './duelgrid.js';
import { SETUP_WHAT, afterUser, dirWords, endReasonWords, eventWords, outcomeWords, pieceWords } from './duelwords.js';
import { t } from './i18n.js';

/** @typedef {import('./duelgrid.js').DuelEvent} DuelEvent */
/** @typedef {import('./duelgrid.js').Combat} Combat */
/** @typedef {import('./duelgrid.js').Moved} Moved */
/** @typedef {import('./duelprotocol').DuelView} DuelView */
/**
 * What the drawing reads of the page besides the view.
 * @typedef {object} PageState
 * @property {string | null} selected
 * @property {string} focusCell
 * @property {Combat[]} fights
 * @property {boolean} confirmingEnd
 */

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
 * The game drawn inside `root`; `typeKey` is what a key button does.
 * @param {HTMLElement} root
 * @param {(key: string) => void} typeKey
 */
export function createDuelView(root, typeKey) {
  /**
   * Draws `view`; `events` and `computer` are the answer's (the user's action's and the
   * computer's), `before` the view before the action. Returns the new log lines.
   * @param {DuelView} view
   * @param {PageState} state
   * @param {{ events?: DuelEvent[], computer?: DuelEvent[], before?: DuelView | null }} [answer]
   * @returns {string[]}
   */
  function renderView(view, state, { events = [], computer = [], before = null } = {}) {
    const stage = stageOf(view);
    const st = view.status;
    document.body.dataset.stage = stage;
    find(root, 'game').dataset.stage = stage;

    // Title, instructions and the status line of the seed.
    let title;
    let instructions;
    let stuck = false;
    if (stage === 'setup') {
      const r = st.stage.round ?? 1;
      title = t('duel.setupTitle', { r, what: SETUP_WHAT[r - 1] });
      instructions = t(r === 1 ? 'duel.ins.blocks' : r === 2 ? 'duel.ins.red' : 'duel.ins.black');
      if (r === 3) instructions += t('duel.ins.thenPlay');
      // Blocks can fill a small grid: a side with no piece and no empty cell can never proceed.
      const side = r === 2 ? 'red' : 'black';
      const empty = view.cells.some((row) => row.some((c) => c.kind === 'empty'));
      const placed = r === 2 ? st.red_left : st.black_left;
      stuck = r > 1 && !empty && placed === 0;
      if (stuck) {
        instructions = t(side === 'red' ? 'duel.stuck.red' : 'duel.stuck.black');
      }
    } else if (stage === 'play') {
      title = t('duel.playTitle', { n: st.round });
      instructions = t('duel.ins.play');
    } else {
      title = t('duel.endTitle');
      instructions = t('duel.ins.end');
    }
    find(root, 'stage-title').textContent = title;
    find(root, 'instructions').textContent = instructions;
    const counts = t('duel.counts', { red: st.red_left, black: st.black_left });
    find(root, 'status').textContent =
      stage === 'setup'
        ? t('duel.status.setup', { r: st.stage.round ?? 1, red: st.red_left, black: st.black_left })
        : stage === 'play'
          ? t('duel.status.play', { n: st.round, counts })
          : t('duel.status.end', { n: st.round, counts });

    renderBoard(view, state);
    renderKeypad(stage, st.stage.round ?? 0);

    find(root, 'next-round').hidden = stage !== 'setup' || stuck;
    find(root, 'setup-restart').hidden = !stuck;
    if (stuck) /** @type {HTMLAnchorElement} */ (find(root, 'setup-restart')).href = `duel.html?width=${view.width}&height=${view.height}&difficulty=${encodeURIComponent(view.difficulty)}`;
    find(root, 'next-round').textContent = stage === 'setup' && st.stage.round === 3 ? t('duel.nextRound.play') : t('duel.nextRound');
    find(root, 'end-play').hidden = stage !== 'play' || state.confirmingEnd;
    find(root, 'end-confirm').hidden = stage !== 'play' || !state.confirmingEnd;
    find(root, 'board-help').hidden = stage === 'end';
    find(root, 'fight-rule').hidden = stage !== 'play';
    const quiet = view.rounds_without_fight || 0;
    const standoff = find(root, 'standoff');
    standoff.hidden = stage !== 'play' || quiet < STANDOFF_ROUNDS;
    standoff.textContent = standoff.hidden
      ? ''
      : t('duel.standoff', { n: quiet });

    // The last move (the computer's answer, or the user's move that ended the game).
    const lm = view.last_move;
    const lastBox = find(root, 'last-move');
    if (computer.length > 0) {
      const board = afterUser(before, events, view);
      const words = computer.map((e) => {
        if (e.event === 'moved') {
          const p = board ? cellAt(board, e.from) : null;
          return t('duel.moveFrom', { piece: p && p.kind === 'piece' ? pieceWords(p) : t('duel.sidePiece.black'), from: e.from, to: e.to, dir: dirWords(e.dir) });
        }
        return e.event === 'combat' ? eventWords(e) : '';
      });
      lastBox.textContent = t('duel.computerMove', { words: words.filter(Boolean).join(' ') });
    } else if (lm) {
      const who = t(lm.side === 'red' ? 'duel.last.you' : 'duel.last.computer');
      const what = lm.rank ? pieceWords({ side: lm.side, rank: lm.rank }) : t(lm.side === 'red' ? 'duel.sidePiece.red' : 'duel.sidePiece.black');
      const out = lm.eliminated ? t(lm.eliminated === 'red' ? 'duel.out.red' : 'duel.out.black') : '';
      lastBox.textContent = t('duel.last', { who, what, from: lm.from, to: lm.to, out });
    } else {
      lastBox.textContent = '';
    }
    lastBox.hidden = !lastBox.textContent;

    // End stage: the outcome and the new-game link.
    const over = stage === 'end';
    find(root, 'outcome').hidden = !over;
    if (over) {
      find(root, 'outcome-message').textContent = outcomeWords(view);
      // A win says its reason itself (no piece of the other side is left); why the play stage
      // ended is told for a draw, where it is the reason.
      const reason = find(root, 'outcome-reason');
      reason.textContent = st.outcome === 'draw' ? endReasonWords(view.end_reason) : '';
      reason.hidden = !reason.textContent;
      /** @type {HTMLAnchorElement} */ (find(root, 'duel-replay-link')).href = `duel-replay.html?game=${encodeURIComponent(view.id)}&ply=0`;
      find(root, 'outcome').dataset.outcome = st.outcome || '';
      const link = new URL('duel.html', location.href);
      link.searchParams.set('width', String(view.width));
      link.searchParams.set('height', String(view.height));
      link.searchParams.set('difficulty', view.difficulty);
      /** @type {HTMLAnchorElement} */ (find(root, 'new-game-link')).href = link.pathname + link.search;
    }

    renderSelection(view, state);

    // The log, newest first.
    const log = find(root, 'log');
    const all = [...events, ...computer];
    const lines = all.map((e, i) => eventWords(e, i < events.length ? before : afterUser(before, events, view)));
    if (over && all.some((e) => e.event === 'play_ended')) lines.push(outcomeWords(view));
    for (const line of lines.filter(Boolean)) log.prepend(el('li', {}, line));
    while (log.children.length > 300) log.lastElementChild?.remove();
    return lines.filter(Boolean);
  }

  /**
   * The grid, keeping the keyboard on it when it had it.
   * @param {DuelView} view
   * @param {PageState} state
   */
  function renderBoard(view, state) {
    const table = /** @type {HTMLTableElement} */ (find(root, 'board'));
    const hadFocus = table.contains(document.activeElement);
    const over = stageOf(view) === 'end';
    renderGrid(table, view, { interactive: true, over, selected: state.selected, focusCell: state.focusCell, fights: state.fights });
    if (hadFocus) focusCell(state.focusCell);
  }

  /** @param {string} name */
  function focusCell(name) {
    const b = /** @type {HTMLElement | null} */ (root.querySelector(`#board button[data-cell="${name}"]`));
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
  function showMoves(events, computer) {
    /** @type {[Moved, number][]} */
    const moves = [
      ...events.filter(isMoved).map((e) => /** @type {[Moved, number]} */ ([e, 0])),
      ...computer.filter(isMoved).map((e) => /** @type {[Moved, number]} */ ([e, COMPUTER_SLIDE_DELAY_MS])),
    ];
    if (stillMotion()) return;
    for (const [e, delay] of moves) {
      const to = root.querySelector(`#board button[data-cell="${e.to}"]`);
      const from = root.querySelector(`#board button[data-cell="${e.from}"]`);
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
   */
  function renderKeypad(stage, setupRound) {
    const pad = find(root, 'keypad');
    pad.replaceChildren();
    pad.hidden = stage === 'end';
    if (stage === 'end') return;
    /** @type {string[][]} */
    let keys;
    if (stage === 'setup' && setupRound === 1) keys = [['b', t('duel.key.block'), '']];
    else if (stage === 'setup') keys = ['1', '2', '3', '4', '5', '6'].map((k) => [k, '', '']);
    else keys = MOVE_KEYS.map(([k, dir, arrow]) => [k, dirWords(dir), arrow]);
    pad.append(el('span', { class: 'keypad-label', 'aria-hidden': 'true' }, t('duel.type')));
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
  function renderSelection(view, state) {
    const box = find(root, 'selection');
    if (!view || stageOf(view) === 'end' || !state.selected) {
      box.textContent = !view || stageOf(view) === 'end' ? '' : t('duel.noSelection');
      return;
    }
    box.textContent = t('duel.selected', { cell: state.selected, what: describeCell(cellAt(view, state.selected)) });
  }

  return { render: renderView, board: renderBoard, focusCell, showMoves, selection: renderSelection };
}
