// @ts-check
// Where the browser keeps a person's seat at a table (its secret token) and their name: the one
// place every page (a game's table, its replay) reads and writes them.
/**
 * @param {string} game the table's game (`uno`, `duel`)
 * @param {string} table
 */
const tokenKey = (game, table) => `tabletop.${game}.${table}`;
/**
 * @param {string} table
 * @param {string} [game]
 * @returns {{ seat: number, token: string } | null}
 */
export function savedSeat(table, game = 'uno') {
  try {
    const raw = localStorage.getItem(tokenKey(game, table));
    const held = raw ? JSON.parse(raw) : null;
    return held && typeof held.token === 'string' && typeof held.seat === 'number' ? held : null;
  } catch {
    return null;
  }
}
/**
 * @param {string} table
 * @param {number} seat
 * @param {string} token
 * @param {string} [game]
 */
export function saveSeat(table, seat, token, game = 'uno') {
  try {
    localStorage.setItem(tokenKey(game, table), JSON.stringify({ seat, token }));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}
/**
 * @param {string} table
 * @param {string} [game]
 */
export function forgetSeat(table, game = 'uno') {
  try {
    localStorage.removeItem(tokenKey(game, table));
  } catch {
    /* nothing kept */
  }
}
/**
 * Every seat this browser holds, at any game's table: what a guest who signs up claims.
 * @returns {{ table: string, token: string }[]}
 */
export function heldSeats() {
  /** @type {{ table: string, token: string }[]} */
  const held = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) || '';
      const m = /^tabletop\.([a-z0-9-]+)\.([0-9a-f]+)$/.exec(key);
      if (!m) continue;
      const seat = savedSeat(m[2], m[1]);
      if (seat) held.push({ table: m[2], token: seat.token });
    }
  } catch {
    /* nothing kept */
  }
  return held.slice(-200);
}
export function savedName() {
  try {
    return localStorage.getItem('tabletop.name') || '';
  } catch {
    return '';
  }
}
/** @param {string} name */
export function saveName(name) {
  try {
    localStorage.setItem('tabletop.name', name);
  } catch {
    /* ignore */
  }
}
