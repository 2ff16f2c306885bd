// Where the browser keeps a person's seat at a table (its secret token) and their name.
const tokenKey = (table) => `tabletop.uno.${table}`;
export function savedSeat(table) {
  try {
    const raw = localStorage.getItem(tokenKey(table));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}
export function saveSeat(table, seat, token) {
  try {
    localStorage.setItem(tokenKey(table), JSON.stringify({ seat, token }));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}
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
export function saveName(name) {
  try {
    localStorage.setItem('tabletop.name', name);
  } catch {
    /* ignore */
  }
}
