// @ts-check
// A seat's name as every UNO page writes it (the table, the replay, the lobby): a person's name,
// or the bot's number and kind; in the lobby's lists, with the rating's mark at a rated table.

import { t } from './i18n.js';
import { ratingText } from './rating.js';

/** @typedef {import('./protocol').Occupant} Occupant */

/**
 * @param {Occupant[]} seats the table's seats, as the server sends them
 * @param {number} i the seat
 * @returns {string}
 */
export function seatLabel(seats, i) {
  const s = seats[i];
  if (!s) return t('seat.n', { n: i + 1 });
  return s.kind === 'bot' ? t('seat.bot', { n: i + 1, bot: s.bot || s.name || 'bot' }) : s.name || t('seat.n', { n: i + 1 });
}

/**
 * A held seat's name with the rating it sat down with: `Ann (1523?)`; a casual table's, as typed.
 * @param {Occupant} s
 * @param {string} name
 * @returns {string}
 */
export function rated(s, name) {
  return s.rating ? `${name} (${ratingText(s.rating)})` : name;
}

/**
 * A seat as the lobby's lists write it: the bot's kind, the person (rated), or an open seat.
 * @param {Occupant} s
 * @returns {string}
 */
export function listedSeat(s) {
  if (s.kind === 'bot') return t('live.bot', { bot: s.bot ?? '' });
  return s.name ? rated(s, s.name) : t('lobby.openSeat');
}
