// @ts-check
// The replay page's ways in and out: opening a record file (sent to the server as it is),
// saving the position shown (JSON, text, or seed 000's `.uno` files), and "Play from here" (a
// new table at the position shown).
import { ApiError, el, request, requestText, showError } from './api.js';
import { errorText } from './refusals.js';
import { t } from './i18n.js';

/** @typedef {import('./protocol').Occupant} Occupant */
/** @typedef {import('./protocol').CreateTable} CreateTable */
/** @typedef {import('./protocol').Created} Created */
/** @typedef {import('./protocol').Imported} Imported */
/** @typedef {import('./protocol').PositionExport} PositionExport */
/**
 * The position shown.
 * @typedef {object} Where
 * @property {string} id the table
 * @property {string | null} g which kept game, or null
 * @property {number} ply
 * @property {number | null} seat the seat seen by
 * @property {Occupant[]} seats
 */

const errorBox = () => /** @type {HTMLElement} */ (document.getElementById('replay-error'));
/** @param {unknown} err */
const words = (err) => errorText(err, { game: true });

/** Opens a new table at this position: the seat seen by (or the first) is yours, bots stay
 * bots, the other people's seats wait for whoever the invite link is sent to.
 * @param {Where} w */
export async function playFromHere(w) {
  const mine = w.seat ?? 0;
  /** @type {CreateTable['seats']} */
  const seats = w.seats.map((s, i) => (s.kind === 'bot' && i !== mine && s.bot ? { kind: 'bot', bot: s.bot } : { kind: 'human' }));
  let name = '';
  try {
    name = localStorage.getItem('tabletop.name') || '';
  } catch {
    /* no storage */
  }
  /** @type {NonNullable<CreateTable['from']>} */
  const from = { table: w.id, ply: w.ply };
  if (w.g !== null) from.game = Number(w.g);
  try {
    /** @type {CreateTable} */
    const body = { seats, creator_seat: mine, name: name || undefined, from };
    const made = /** @type {Created} */ (await request('POST', '/api/tables', body));
    try {
      localStorage.setItem(`tabletop.uno.${made.id}`, JSON.stringify({ seat: made.seat, token: made.token }));
    } catch {
      /* private mode: the seat lasts as long as the page */
    }
    location.href = `uno.html?table=${encodeURIComponent(made.id)}`;
  } catch (err) {
    showError(errorBox(), words(err));
  }
}

/** Sends a record file to the server, which checks it by replaying it and keeps it; then
 * opens its replay. */
export async function importFile() {
  const input = /** @type {HTMLInputElement} */ (document.getElementById('import-file'));
  const file = input.files?.[0];
  const chosen = document.getElementById('import-file-name');
  if (chosen) chosen.textContent = file ? file.name : t('replay.noFile');
  if (!file) return;
  // The file goes as it is: parsing and writing it again would round a seed above 2^53.
  const text = await file.text();
  /** @type {unknown} */
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    showError(errorBox(), `${file.name}: ${notARecord(null)}`);
    return;
  }
  try {
    const made = /** @type {Imported} */ (await requestText('POST', '/api/records', text));
    location.href = `replay.html?${new URLSearchParams({ game: made.id, view: made.over ? 'all' : 'spectator', ply: '0' })}`;
  } catch (err) {
    // A file of another shape (the server could not read it as a record): what it is, and
    // what this page opens. A record the server read but could not replay keeps its sentence.
    const shape = err instanceof ApiError && ['invalid_body', 'malformed_json', 'bad_request'].includes(err.code);
    showError(errorBox(), `${file.name}: ${shape ? notARecord(parsed) : words(err)}`);
  }
}

/** What this page opens, said after every file it cannot. */
const OPENS = 'This page opens UNO game records: the file “Download the record” saves from a game’s replay.';

/**
 * A file that is not an UNO game record, in words: what it looks like it is (the other files
 * this site saves), and what the page opens.
 * @param {unknown} parsed the file read, or null when it is not even readable as data
 * @returns {string}
 */
export function notARecord(parsed) {
  const o = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? /** @type {Record<string, unknown>} */ (parsed) : null;
  if (!o) return `This file holds no game record. ${OPENS}`;
  if (Array.isArray(o.hands) && Array.isArray(o.draw_pile) && Array.isArray(o.discard)) {
    return `This file is a saved position (“Position as …” writes it), not a game record: it holds the cards at one moment, not the moves that led there. ${OPENS} To play on from a position, open its game here and press “Play from here”.`;
  }
  if ((typeof o.engine === 'string' && o.engine.startsWith('duel')) || ('width' in o && 'height' in o && 'difficulty' in o)) {
    return `This file is a Duel game record, not an UNO one. ${OPENS} A Duel game is replayed from its own page (“Watch the replay of this game”).`;
  }
  return `This file is not a game record: none of what a record holds (the rules, the players, the moves) is in it. ${OPENS}`;
}

/**
 * @param {string} name
 * @param {string} type
 * @param {string} text
 */
function download(name, type, text) {
  const a = /** @type {HTMLAnchorElement} */ (el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Saves the whole position shown (every hand: the game is over) as `Position::from_json` or
 * the text form reads it, or (seed 000's rules) as the three `.uno` files.
 * @param {Where} w
 * @param {'json' | 'text' | 'uno'} form */
export async function exportPosition(w, form) {
  const q = new URLSearchParams({ ply: String(w.ply) });
  if (w.g !== null) q.set('game', w.g);
  try {
    const p = /** @type {PositionExport} */ (await request('GET', `/api/games/${encodeURIComponent(w.id)}/position?${q}`));
    const name = `uno-${w.id}-ply${p.ply}`;
    if (form === 'text') download(`${name}.position.txt`, 'text/plain', p.text);
    else if (form === 'json') download(`${name}.position.json`, 'application/json', `${JSON.stringify(p.position, null, 2)}\n`);
    else if (!p.uno) showError(errorBox(), p.uno_refused);
    else for (const file of /** @type {const} */ (['deck', 'discard', 'hands'])) download(`${name}.${file}.uno`, 'text/plain', p.uno[file]);
  } catch (err) {
    showError(errorBox(), words(err));
  }
}
