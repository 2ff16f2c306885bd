// @ts-check
// A seat's name as every UNO page writes it (the table, the replay): a person's name, or the bot's
// number and kind.

/** @typedef {import('./protocol').SeatView} SeatView */

/**
 * @param {SeatView[]} seats the table's seats, as the server sends them
 * @param {number} i the seat
 * @returns {string}
 */
export function seatLabel(seats, i) {
  const s = seats[i];
  if (!s) return `Seat ${i + 1}`;
  return s.kind === 'bot' ? `Bot ${i + 1} (${s.bot || s.name || 'bot'})` : s.name || `Seat ${i + 1}`;
}
