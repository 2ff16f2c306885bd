// @ts-check
// A seat's name as every UNO page writes it (the table, the replay): a person's name, or the bot's
// number and kind.

import { t } from './i18n.js';

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
