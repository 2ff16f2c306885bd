// @ts-check
// Shared by every page: JSON requests to the server and small DOM helpers (each written here
// once: `$` for a page's own elements, `find` for a view's within its root, `el`, `svg`).
// The server is authoritative; a refused request carries its code and message, which pages put
// in words for people with refusals.js.

/** @typedef {import('./protocol').ErrorBody} ErrorBody */

/** An error answered by the server: `{code, message}` plus the HTTP status. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {Record<string, unknown> | null} [fields] what the sentence names (Duel's refusals)
   */
  constructor(status, code, message, fields = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/**
 * Sends a JSON request (with a seat token, if given); resolves with the answer's JSON, rejects
 * with an ApiError. The answer is `unknown`: each caller casts it to the generated type of the
 * route's answer (protocol.d.ts, duelprotocol.d.ts), so no answer is read untyped. `minimal`:
 * the caller needs no view in the answer (`Prefer: return=minimal`: it follows the table on its
 * socket), which is then `null`.
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @param {{ minimal?: boolean }} [options]
 * @returns {Promise<unknown>}
 */
export async function request(method, url, body, token, options = {}) {
  return send(method, url, body === undefined ? undefined : JSON.stringify(body), token, options.minimal);
}

/**
 * Sends JSON text as it is (a record file's bytes: its 64-bit seed never passes through a
 * JavaScript number); answers as `request` does.
 * @param {string} method
 * @param {string} url
 * @param {string} text
 * @returns {Promise<unknown>}
 */
export async function requestText(method, url, text) {
  return send(method, url, text);
}

/**
 * @param {string} method
 * @param {string} url
 * @param {string | undefined} json
 * @param {string | null} [token]
 * @param {boolean} [minimal]
 * @returns {Promise<unknown>}
 */
async function send(method, url, json, token, minimal = false) {
  /** @type {{ method: string, headers: Record<string, string>, body?: string }} */
  const init = { method, headers: { Accept: 'application/json' } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (minimal) init.headers.Prefer = 'return=minimal';
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = json;
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  const text = await res.text();
  /** @type {unknown} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // Every refusal's body (crates/server/src/error.rs); a proxy's page may be anything else.
    const refusal = /** @type {Partial<ErrorBody> | null} */ (data && typeof data === 'object' ? data : null);
    const message = refusal?.message || text || `The server answered ${res.status}.`;
    const fields = refusal?.fields && typeof refusal.fields === 'object' ? refusal.fields : null;
    throw new ApiError(res.status, refusal?.code || 'http', message, fields);
  }
  return data;
}

/**
 * An element of the page by id, for a page's own wiring (a view looks inside its root with
 * `find` instead). Every id asked for is in the page, so a missing one is a mistake in the page
 * and throws.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const found = document.getElementById(id);
  if (!(found instanceof HTMLElement)) throw new Error(`the page has no #${id}`);
  return found;
}

/**
 * A form field of the page by id (an input, a select or a button), typed as an input: its
 * `value`, `disabled`, `checked` and `required` are what the pages read of one.
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export function field(id) {
  return /** @type {HTMLInputElement} */ ($(id));
}

/**
 * An element inside a view's `root`, by id: a view reads and writes only what is inside its
 * root, so no two views meet in a page-global element.
 * @param {Element} root
 * @param {string} id
 * @returns {HTMLElement}
 */
export function find(root, id) {
  const found = root.id === id ? root : root.querySelector(`#${id}`);
  if (!(found instanceof HTMLElement)) throw new Error(`#${root.id || root.tagName} holds no #${id}`);
  return found;
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * Creates an SVG element: svg('circle', {cx: 3, r: 2}, child).
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | string | number)} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/**
 * Creates an element: el('button', {class: 'x', onclick: f}, 'text', child).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children nodes, text, or nothing (`null`, `undefined`, `false`), nested in arrays or not
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (v === true) node.setAttribute(k, '');
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/**
 * Puts `text` in a live region so screen readers announce it (even when it repeats).
 * @param {HTMLElement} region
 * @param {string} text
 */
export function announce(region, text) {
  region.textContent = '';
  // A fresh text node on the next frame makes repeated messages announced again.
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

/**
 * Shows an inline error (never alert()); an empty message hides it.
 * @param {HTMLElement} box
 * @param {string | null} [message]
 */
export function showError(box, message) {
  box.textContent = message || '';
  box.hidden = !message;
}

/**
 * Upper-cases the first letter.
 * @param {string} s
 * @returns {string}
 */
export function capitalize(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
