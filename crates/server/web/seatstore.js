// @ts-check
// Where the browser keeps a person's seat at a table (its secret token) and their name.
/** @param {string} table */
const tokenKey = (table) => `tabletop.uno.${table}`;
/**
 * @param {string} table
 * @returns {{ seat: number, token: string } | null}
 */
export function savedSeat(table) {
  try {
    const raw = localStorage.getItem(tokenKey(table));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}
/**
 * @param {string} table
 * @param {number} seat
 * @param {string} token
 */
export function saveSeat(table, seat, token) {
  try {
    localStorage.setItem(tokenKey(table), JSON.stringify({ seat, token }));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}
/** @param {string} table */
export function forgetSeat(table) {
  try {
    localStorage.removeItem(tokenKey(table));
  } catch {
    /* nothing kept */
  }
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
