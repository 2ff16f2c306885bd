// @ts-check
// Duel's events and actions in words, for the game page's log and its replay.
import { capitalize } from './api.js';
import { cellAt, parseCell } from './duelgrid.js';

/** @typedef {import('./duelgrid.js').GridView} GridView */
/** @typedef {import('./duelgrid.js').Piece} Piece */
/** @typedef {import('./duelgrid.js').DuelEvent} DuelEvent */
/** An event of a game's history (`DuelView.history`): a move names its piece. */
/** @typedef {import('./duelprotocol').HistoryEvent} HistoryEvent */

export const SETUP_WHAT = ['blocks', 'red pieces', 'black pieces'];

/** @param {Piece} p */
export function pieceWords(p) {
  return `${p.side} ${p.rank}`;
}

/**
 * One sentence per event; `before` is the grid before the action (to name the moving piece).
 * @param {HistoryEvent} ev a live event (`events`, `computer`) or one of the history
 * @param {GridView | null} [before]
 */
export function eventWords(ev, before = null) {
  switch (ev.event) {
    case 'placed':
      return ev.object.kind === 'piece' ? `Placed ${pieceWords(ev.object)} on ${ev.cell}.` : `Placed a block on ${ev.cell}.`;
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

/**
 * The grid as the user's move left it, to name the computer's moving piece.
 * @template {GridView} V
 * @param {V | null} before
 * @param {DuelEvent[]} events
 * @param {V} view
 * @returns {V}
 */
export function afterUser(before, events, view) {
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
      const winner = e.eliminated === e.attacker.side ? e.defender : e.attacker;
      cells[t.row][t.col] = { kind: 'piece', side: winner.side, rank: winner.rank };
    }
  }
  return { ...before, cells };
}

/**
 * A stored action in words (the replay): who did what.
 * @param {import('./duelprotocol').LoggedAction | null} m
 */
export function moveWords(m) {
  if (!m) return 'The empty grid, before the setup.';
  const who = m.by === 'computer' ? 'The computer' : 'You';
  const a = m.action;
  switch (a.action) {
    case 'place':
      return `${who} typed ${a.key} on ${a.cell}.`;
    case 'move':
      return `${who} moved the piece on ${a.cell} (${a.key}).`;
    case 'next_round':
      return `${who} went on to the next round.`;
    case 'end':
      return `${who} ended the play stage.`;
    default:
      // An action this page does not know yet.
      return `${who}: ${/** @type {{ action: string }} */ (a).action}.`;
  }
}
