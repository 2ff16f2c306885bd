// @ts-check
// A rating as the pages show it (the profile, the leaderboard, the lobby and the table).

/** @typedef {import('./protocol').ShownRating} ShownRating */

/**
 * A rating as text: `1523`, `1500?` while provisional.
 * @param {ShownRating | import('./protocol').SeatRating} r
 * @returns {string}
 */
export function ratingText(r) {
  return `${r.points}${r.provisional ? '?' : ''}`;
}
