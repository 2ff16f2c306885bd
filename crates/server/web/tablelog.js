// @ts-check
// The table's log: what happened, in words, newest first, each event once, announced to screen
// readers.
import { announce, el } from './api.js';
import { $, eventWords } from './tablestate.js';

const seenVersions = new Set();

/** @param {import('./protocol').LoggedEvent} ev */
export function addLog(ev) {
  const key = `${ev.version}:${JSON.stringify(ev.event)}`;
  if (seenVersions.has(key)) return;
  seenVersions.add(key);
  const text = eventWords(ev);
  if (!text) return;
  $('uno-log').prepend(el('li', { dataset: { version: String(ev.version) } }, text));
  while ($('uno-log').children.length > 200) $('uno-log').lastElementChild?.remove();
  announce($('uno-announce'), text);
}
