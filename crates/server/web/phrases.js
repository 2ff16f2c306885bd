// @ts-check
// Quick phrases at a table: the server's fixed set as buttons for a seated person, each said
// phrase shown beside its seat for a moment, and a mute per person (kept in this browser, by
// name). No free text: nothing to moderate. The server limits how often a seat may speak.
import { el, request } from './api.js';
import { t } from './i18n.js';
import { errorText } from './refusals.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Phrase} Phrase */
/** @typedef {import('./protocol').PhraseSaid} PhraseSaid */
/** @typedef {import('./tablefacts.js').Names} Names */

/** How long a phrase stays beside its seat. */
export const SHOWN_MS = 4000;
const KEY = 'tabletop.muted';

/** @returns {string[]} */
function mutedNames() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** @param {string[]} names */
function keepMuted(names) {
  try {
    localStorage.setItem(KEY, JSON.stringify(names));
  } catch {
    /* muted for this page only */
  }
}

/**
 * A phrase in the page's language: the catalogue's words for its code, else the server's.
 * @param {string} code
 * @param {string} text the server's words
 */
function phraseWords(code, text) {
  const key = PHRASE_KEYS[code];
  return key ? t(key) : text;
}

/** The catalogue's key of each phrase the server offers (host/phrases.rs); the emoji need none.
 * @type {Record<string, import('./i18n.js').Key | undefined>} */
const PHRASE_KEYS = {
  good_game: 'phrase.good_game',
  well_played: 'phrase.well_played',
  uno: 'phrase.uno',
  oops: 'phrase.oops',
  thanks: 'phrase.thanks',
  hello: 'phrase.hello',
};

/**
 * The phrases drawn into `root`, said at table `id`; `rowOf(seat)` is the seat's row in the
 * players list (the phrase is shown there).
 * @param {HTMLElement} root
 * @param {{ id: string, token: () => string | null, rowOf: (seat: number) => Element | null }} table
 */
export function createPhrases(root, { id, token, rowOf }) {
  const buttons = el('div', { id: 'phrase-buttons', class: 'controls phrase-buttons', role: 'group', 'aria-label': t('phrase.say') });
  const mutes = el('div', { id: 'mute-buttons', class: 'controls mute-row', role: 'group', 'aria-label': t('phrase.mutes') });
  const note = el('p', { id: 'phrase-note', class: 'hint', role: 'status' });
  root.replaceChildren(el('h2', { id: 'phrases-title', class: 'visually-hidden' }, t('phrase.title')), buttons, mutes, note);
  root.setAttribute('aria-labelledby', 'phrases-title');
  /** @type {Map<number, { text: string, until: number }>} */
  const shown = new Map();
  /** @type {TableView | null} */
  let view = null;
  /** @type {Phrase[]} */
  let phrases = [];

  /** @param {string} code */
  async function say(code) {
    const t = token();
    if (!t) return;
    try {
      await request('POST', `/api/tables/${encodeURIComponent(id)}/phrase`, { phrase: code }, t);
      note.textContent = '';
    } catch (err) {
      note.textContent = errorText(err);
    }
  }

  /** Puts every phrase still shown beside its seat (the rows are drawn again with each view). */
  function draw() {
    const now = Date.now();
    for (const [seat, s] of shown) if (s.until <= now) shown.delete(seat);
    for (const old of document.querySelectorAll('.player .said')) old.remove();
    for (const [seat, s] of shown) {
      const row = rowOf(seat);
      if (row) row.append(el('span', { class: 'said', dataset: { seat: String(seat) } }, `“${s.text}”`));
    }
  }

  /**
   * Draws the buttons and the mutes for view `v`.
   * @param {TableView} v
   * @param {Names} n
   */
  function render(v, n) {
    view = v;
    const seated = v.you !== null && v.you !== undefined;
    root.hidden = phrases.length === 0;
    buttons.hidden = !seated;
    const muted = mutedNames();
    const people = v.seats.map((s, i) => ({ s, i })).filter(({ s, i }) => s.kind === 'human' && s.taken && s.name && i !== v.you);
    mutes.replaceChildren(
      ...people.map(({ s, i }) => {
        const name = s.name || '';
        const on = muted.includes(name);
        const toggle = () => {
          const now = mutedNames();
          keepMuted(now.includes(name) ? now.filter((m) => m !== name) : [...now, name]);
          if (view) render(view, n);
        };
        return el('button', { type: 'button', class: 'small mute', 'aria-pressed': String(on), dataset: { seat: String(i) }, onclick: toggle }, t(on ? 'phrase.unmute' : 'phrase.mute', { name: n.seatName(i) }));
      }),
    );
    draw();
  }

  return {
    /** @param {Phrase[]} list the server's phrases */
    offer(list) {
      phrases = list;
      buttons.replaceChildren(...phrases.map((p) => el('button', { type: 'button', class: 'small phrase', dataset: { phrase: p.code }, onclick: () => say(p.code) }, phraseWords(p.code, p.text))));
      if (view) root.hidden = phrases.length === 0;
    },
    render,
    /** A seat said a phrase (the socket's message). @param {PhraseSaid} m */
    said(m) {
      const s = view && view.seats[m.seat];
      if (s && s.name && mutedNames().includes(s.name) && m.seat !== view?.you) return;
      shown.set(m.seat, { text: phraseWords(m.phrase, m.text), until: Date.now() + SHOWN_MS });
      document.body.dataset.phrases = String(Number(document.body.dataset.phrases || '0') + 1);
      draw();
      setTimeout(draw, SHOWN_MS + 50);
    },
  };
}
