// @ts-check
// The table's log: what happened, in words, newest first, each event once, announced to screen
// readers: drawn in the list and the live region it is given.
import { announce, el } from './api.js';

/** @typedef {import('./protocol').LoggedEvent} LoggedEvent */

/**
 * @param {HTMLElement} list the log (newest first)
 * @param {HTMLElement} announcer a live region
 */
export function createLog(list, announcer) {
  const seen = new Set();
  return {
    /**
     * Logs `ev` once, in `words`.
     * @param {LoggedEvent} ev
     * @param {string} words
     */
    add(ev, words) {
      const key = `${ev.version}:${JSON.stringify(ev.event)}`;
      if (seen.has(key)) return;
      seen.add(key);
      if (!words) return;
      list.prepend(el('li', { dataset: { version: String(ev.version) } }, words));
      while (list.children.length > 200) list.lastElementChild?.remove();
      announce(announcer, words);
    },
    /** A new game: the log starts again. */
    clear() {
      list.replaceChildren();
    },
  };
}
