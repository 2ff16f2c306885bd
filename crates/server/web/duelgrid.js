// @ts-check
// Duel's grid, shared by the game page and its replay: cell names (`a1` is the top left), what a
// cell holds in words, and the grid drawn as a table (buttons to select on the game page, plain
// cells on the replay), each cell named for screen readers.
import { el } from './api.js';
import { t } from './i18n.js';

/** @typedef {import('./duelprotocol').Cell} Cell */
/** @typedef {import('./duelprotocol').Piece} Piece */
/** @typedef {import('./duelprotocol').Event} DuelEvent */
/** @typedef {import('./duelprotocol').LastMove} LastMove */
/**
 * A fight, as the server's `combat` event tells it.
 * @typedef {Extract<DuelEvent, { event: 'combat' }>} Combat
 */
/**
 * A move, as the server's `moved` event tells it.
 * @typedef {Extract<DuelEvent, { event: 'moved' }>} Moved
 */
/**
 * What the grid needs of a Duel view (`GET /api/duel/{id}`, a replay frame's `view`).
 * @typedef {Pick<import('./duelprotocol').DuelView, 'width' | 'height' | 'cells' | 'last_move'>} GridView
 */

/** @param {DuelEvent} e @returns {e is Combat} */
export const isCombat = (e) => e.event === 'combat';
/** @param {DuelEvent} e @returns {e is Moved} */
export const isMoved = (e) => e.event === 'moved';

/** @param {number} col */
export const colName = (col) => String.fromCharCode(97 + col);
/** @param {number} col @param {number} row */
export const cellName = (col, row) => `${colName(col)}${row + 1}`;

/** @param {string} name */
export function parseCell(name) {
  return { col: name.charCodeAt(0) - 97, row: Number(name.slice(1)) - 1 };
}

/** @param {Cell | null | undefined} cell */
export function describeCell(cell) {
  if (!cell || cell.kind === 'empty') return t('duel.cell.empty');
  if (cell.kind === 'block') return t('duel.cell.block');
  return t(cell.side === 'red' ? 'duel.piece.red' : 'duel.piece.black', { rank: String(cell.rank) });
}

/** @param {GridView} view @param {string} name */
export function cellAt(view, name) {
  const { col, row } = parseCell(name);
  return view.cells[row] ? view.cells[row][col] : undefined;
}

/** @param {string} name @param {GridView} view */
export function onGrid(name, view) {
  if (!name) return false;
  const { col, row } = parseCell(name);
  return col >= 0 && row >= 0 && col < view.width && row < view.height;
}

/** @param {Piece} p */
const short = (p) => `${p.side === 'red' ? 'R' : 'B'}${p.rank}`;

/**
 * Draws `view`'s grid into `table`.
 * @param {HTMLTableElement} table
 * @param {GridView} view
 * @param {object} [opts]
 * @param {boolean} [opts.interactive] cells are buttons (the game page) rather than pictures
 * @param {boolean} [opts.over] the game is over: the buttons no longer react
 * @param {string | null} [opts.selected] the selected cell
 * @param {string} [opts.focusCell] the cell that takes the grid's tab stop
 * @param {Combat[]} [opts.fights] the last answer's fights, shown on their cells
 */
export function renderGrid(table, view, { interactive = false, over = false, selected = null, focusCell = 'a1', fights = [] } = {}) {
  const head = el('tr', {}, el('td', { class: 'corner' }), ...Array.from({ length: view.width }, (_, c) => el('th', { scope: 'col' }, colName(c))));
  const lm = view.last_move;
  const rows = view.cells.map((row, r) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, String(r + 1)),
      ...row.map((cell, c) => {
        const name = cellName(c, r);
        const classes = ['cell', `cell-${cell.kind}`];
        const label = [name, describeCell(cell)];
        // The last fight's numbers, drawn by the stylesheet on the winner's piece and said in
        // words in the cell's name.
        const fight = fights.find((f) => f.at === name);
        const fightText = fight ? `${short(fight.attacker)} vs ${short(fight.defender)}` : undefined;
        /** @type {HTMLElement | null} */
        let content = null;
        if (cell.kind === 'piece') {
          label[1] += `, ${short(cell)}`;
          classes.push(`piece-${cell.side}`);
          content = el('span', { class: `piece ${cell.side}`, 'aria-hidden': 'true', 'data-fight': fightText }, el('span', { class: 'piece-text' }, short(cell)));
        } else if (cell.kind === 'block') {
          content = el('span', { class: 'block', 'aria-hidden': 'true' }, '#');
        }
        if (lm && lm.from === name) {
          classes.push('last-from');
          label.push(t('duel.grid.from'));
        }
        if (lm && lm.to === name) {
          classes.push('last-to');
          label.push(t('duel.grid.to'));
        }
        if (interactive && selected === name && !over) {
          classes.push('selected');
          label.push(t('duel.grid.selected'));
        }
        if (fight) label.push(t(fight.eliminated === 'red' ? 'duel.grid.fight.red' : 'duel.grid.fight.black', { fight: fightText || '' }));
        const attrs = interactive
          ? {
              type: 'button',
              class: classes.join(' '),
              'data-cell': name,
              'aria-label': label.join(', '),
              'aria-pressed': over ? undefined : String(selected === name),
              'aria-disabled': over ? 'true' : undefined,
              tabindex: name === focusCell ? '0' : '-1',
            }
          : { class: classes.join(' '), 'data-cell': name, role: 'img', 'aria-label': label.join(', ') };
        return el('td', {}, el(interactive ? 'button' : 'span', attrs, content));
      }),
    ),
  );
  table.replaceChildren(el('caption', { class: 'visually-hidden' }, t('duel.grid.caption', { w: view.width, h: view.height })), el('thead', {}, head), el('tbody', {}, ...rows));
}
