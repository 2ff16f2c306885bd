// @ts-check
// The round-end banner's words and rows, from the server's `round_result` (the engine's scoring):
// the page shows the winner, the points, each hand and the totals as sent and counts nothing.
import { el } from './api.js';
import { t } from './i18n.js';
import { cardSvg, cardWords } from './unocards.js';

/** @typedef {import('./protocol').RoundResult} RoundResult */
/** @typedef {import('./protocol').Occupant} Occupant */

/**
 * The banner's title.
 * @param {RoundResult | null | undefined} r the server's result (absent: none was sent)
 * @param {boolean} gameOver whether the game is over
 * @param {(seat: number) => string} who a seat's name as the viewer reads it ("You" for their own)
 * @param {number | null | undefined} you the viewer's seat
 * @returns {string}
 */
export function roundEndTitle(r, gameOver, who, you) {
  if (!r) return gameOver ? t('end.gameOver') : t('end.roundOver');
  if (r.winner === null) return t('end.noWinner', { round: r.round });
  return r.winner === you ? t('end.youWin', { round: r.round, n: r.points }) : t('end.theyWin', { name: who(r.winner), round: r.round, n: r.points });
}

/**
 * One table row per seat: the name, the hand's cards (named for screen readers), the hand's
 * points and the seat's match total, as the result states them.
 * @param {RoundResult | null | undefined} r
 * @param {Occupant[]} seats
 * @param {(seat: number) => string} seatName
 * @returns {HTMLElement[]}
 */
export function roundEndRows(r, seats, seatName) {
  return seats.map((_, i) => {
    const hand = r?.hands[i] ?? { cards: [], points: 0 };
    const cards = hand.cards;
    const n = cards.length;
    const named = t('end.handCards', { n, cards: cards.map(cardWords).join(', ') });
    return el(
      'tr',
      { class: r && i === r.winner ? 'winner' : undefined, dataset: { seat: String(i) } },
      el('th', { scope: 'row' }, seatName(i)),
      el(
        'td',
        {},
        n
          ? el('ul', { class: 'mini-hand', 'aria-label': named }, ...cards.map((c) => el('li', { dataset: { card: c } }, cardSvg(c, 'mini'))))
          : r && i === r.winner ? t('end.out') : t('end.none'),
      ),
      el('td', { class: 'hand-points' }, String(hand.points)),
      el('td', { class: 'total-points' }, String(r?.totals[i] ?? 0)),
    );
  });
}
