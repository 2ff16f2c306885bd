// @ts-check
// Duel's events and actions in words, for the game page's log and its replay.
import { capitalize } from './api.js';
import { cellAt, parseCell } from './duelgrid.js';
import { t } from './i18n.js';

/** @typedef {import('./duelgrid.js').GridView} GridView */
/** @typedef {import('./duelgrid.js').Piece} Piece */
/** @typedef {import('./duelgrid.js').DuelEvent} DuelEvent */
/** An event of a game's history (`DuelView.history`): a move names its piece. */
/** @typedef {import('./duelprotocol').HistoryEvent} HistoryEvent */

/** What each setup round places, in words. */
export const SETUP_WHAT = [t('duel.what.blocks'), t('duel.what.red'), t('duel.what.black')];

/** A direction (`up`, `down`, `left`, `right`) in words. @param {string} dir */
export function dirWords(dir) {
  return dir === 'up' ? t('duel.dir.up') : dir === 'down' ? t('duel.dir.down') : dir === 'left' ? t('duel.dir.left') : dir === 'right' ? t('duel.dir.right') : dir;
}

/** @param {Piece} p */
export function pieceWords(p) {
  return t(p.side === 'red' ? 'duel.piece.red' : 'duel.piece.black', { rank: String(p.rank) });
}

/**
 * One sentence per event; `before` is the grid before the action (to name the moving piece).
 * @param {HistoryEvent} ev a live event (`events`, `computer`) or one of the history
 * @param {GridView | null} [before]
 */
export function eventWords(ev, before = null) {
  switch (ev.event) {
    case 'placed':
      return ev.object.kind === 'piece' ? t('duel.ev.placed', { piece: pieceWords(ev.object), cell: ev.cell }) : t('duel.ev.block', { cell: ev.cell });
    case 'setup_round_started':
      return t('duel.ev.setup', { r: ev.round, what: SETUP_WHAT[ev.round - 1] });
    case 'play_started':
      return t('duel.ev.play');
    case 'round_started':
      return t('duel.ev.round', { n: ev.round });
    case 'moved': {
      // Events of the stored history name their piece; live ones are read off the grid before.
      const piece = ev.piece ? { kind: 'piece', ...ev.piece } : before ? cellAt(before, ev.from) : null;
      const what = piece && piece.kind === 'piece' ? pieceWords(piece) : t(ev.side === 'red' ? 'duel.aPiece.red' : 'duel.aPiece.black');
      return t(ev.side === 'red' ? 'duel.ev.moved.red' : 'duel.ev.moved.black', { what, from: ev.from, to: ev.to, dir: dirWords(ev.dir) });
    }
    case 'combat':
      return t(ev.eliminated === 'red' ? 'duel.ev.combat.red' : 'duel.ev.combat.black', { attacker: capitalize(pieceWords(ev.attacker)), defender: pieceWords(ev.defender), at: ev.at });
    case 'play_ended':
      return t('duel.ev.over');
    default:
      return '';
  }
}

/**
 * How a game ended, in words: its outcome (the server's code), else the server's sentence.
 * @param {{ status: { outcome?: import('./duelprotocol').Outcome | null }, outcome_message: string | null }} view
 */
export function outcomeWords(view) {
  const o = view.status.outcome;
  if (o === 'red_wins') return t('duel.outcome.red');
  if (o === 'black_wins') return t('duel.outcome.black');
  if (o === 'draw') return t('duel.outcome.draw');
  return view.outcome_message || '';
}

/** Why the play stage ended (the server's `end_reason`, one of the engine's four sentences), in words.
 * @type {Record<string, import('./i18n.js').Key>} */
const END_REASONS = {
  'The play stage was ended by the user.': 'duel.reason.user',
  'No red piece can move.': 'duel.reason.red',
  'No black piece can move.': 'duel.reason.black',
  'The round limit was reached.': 'duel.reason.rounds',
};
/** @param {string | null} reason */
export function endReasonWords(reason) {
  if (!reason) return '';
  const key = END_REASONS[reason];
  return key ? t(key) : reason;
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
  if (!m) return t('duel.mv.empty');
  const pc = m.by === 'computer';
  const a = m.action;
  switch (a.action) {
    case 'place':
      return t(pc ? 'duel.mv.place.computer' : 'duel.mv.place.you', { key: a.key, cell: a.cell });
    case 'move':
      return t(pc ? 'duel.mv.move.computer' : 'duel.mv.move.you', { key: a.key, cell: a.cell });
    case 'next_round':
      return t(pc ? 'duel.mv.next.computer' : 'duel.mv.next.you');
    case 'end':
      return t(pc ? 'duel.mv.end.computer' : 'duel.mv.end.you');
    default:
      // An action this page does not know yet.
      return t(pc ? 'duel.mv.other.computer' : 'duel.mv.other.you', { action: /** @type {{ action: string }} */ (a).action });
  }
}
