// @ts-check
// What the pages say when the server refuses something. The server's `message` is a sentence
// for a person, in English (docs/api.md, "Refusals"); the pages word each code they meet in
// their own sentence (the page's context, and a catalogue a translation can replace), keyed by
// the generated `ServerCode` and the engine's `IllegalAction`, and show the server's message
// only for a code they have no words for: a game's own refusals (the Duel engine's, which seed
// 001 words for the player).
import { ApiError, find } from './api.js';
import { isKey, t } from './i18n.js';

/** @typedef {import('./protocol').ServerCode} ServerCode */
/** @typedef {import('./protocol').IllegalAction} IllegalAction */

/** @typedef {import('./i18n.js').Key} Key */
/** The catalogue's key of a code's sentence: one for every code the server's refusals carry
 * (the generated `ServerCode` and the engine's `IllegalAction`), in every language's catalogue
 * (i18n-LANG.js). A code the server gains without a sentence fails the type check (scripts/test):
 * its key is not a `Key`.
 * @typedef {`refusal.${ServerCode | IllegalAction}`} RefusalKey */
/** The page's own sentences, about no code of the server's. */
/** @typedef {'refusal.network' | 'refusal.name' | 'refusal.nameTooLong' | 'refusal.nameTooLongAny' | 'refusal.gameNotKept' | 'refusal.unknown' | 'refusal.pageBug'} PageKey */
/** A sentence in the catalogue for a code the server no longer sends fails the type check too.
 * @typedef {Exclude<Extract<Key, `refusal.${string}`>, RefusalKey | PageKey>} StaleKey */
/** @type {[StaleKey] extends [never] ? true : StaleKey} */
const NO_STALE_SENTENCE = true;
void NO_STALE_SENTENCE;

/** A code the catalogue has a sentence for. @param {string} code @returns {code is ServerCode | IllegalAction} */
const worded = (code) => isKey(`refusal.${code}`) && !['network', 'name', 'nameTooLong', 'nameTooLongAny', 'gameNotKept', 'unknown', 'pageBug'].includes(code);

/**
 * A refusal in a sentence for people: the page's own for its code, else the server's.
 * @param {string} code the refusal's code (`does_not_match`, `table_full`, ...)
 * @param {string} [message] the server's message: shown for a code the page has no sentence
 *   for; otherwise only a name's length limit is read from it
 * @param {{ name?: boolean, game?: boolean }} [about] `name`: the request carried a name the player
 *   typed; `game`: it asked for a kept game (a replay), not a live table
 * @returns {string}
 */
export function refusalText(code, message = '', about = {}) {
  if (about.name && code === 'bad_request') return t('refusal.name');
  if (code === 'too_long') {
    const max = /at most (\d+)/.exec(message)?.[1];
    return max ? t('refusal.nameTooLong', { n: Number(max) }) : t('refusal.nameTooLongAny');
  }
  if (about.game && code === 'not_found') return t('refusal.gameNotKept');
  if (code === 'network') return t('refusal.network');
  if (worded(code)) return t(/** @type {RefusalKey} */ (`refusal.${code}`));
  return message || t('refusal.unknown');
}

/**
 * Anything thrown while talking to the server, in a sentence for people.
 * @param {unknown} err
 * @param {{ name?: boolean, game?: boolean }} [about]
 * @returns {string}
 */
export function errorText(err, about = {}) {
  if (err instanceof ApiError) return refusalText(err.code, err.message, about);
  return t('refusal.pageBug');
}

/**
 * The Duel engine's refusals (crates/duel/src/error.rs `DuelError::code`) and the Duel routes' own
 * words (a grid too small, no such game, too many games): seed 001 words them for the player, so
 * the Duel pages show the server's sentence as it comes (a code they share with the UNO pages,
 * `not_found` or `too_many_tables`, is Duel's sentence there). Every other code on a Duel page
 * (a body the server could not read, a limit) gets the sentence above.
 */
const DUEL_WORDED = new Set([
  'not_block_key', 'not_rank_key', 'cell_occupied', 'too_many_of_rank', 'too_many_pieces',
  'no_red_piece', 'no_black_piece', 'outside_grid', 'bad_cell', 'not_move_key', 'not_own_piece',
  'off_grid', 'onto_block', 'onto_own_piece', 'must_attack', 'not_turn_of', 'setup_over',
  'not_playing', 'game_over', 'bad_size', 'bad_position', 'no_bot_move',
  'too_small', 'not_found', 'too_many_tables',
]);

/**
 * What a cell holds as the server describes it (`duel::Cell::describe`: "nothing", "a block",
 * "a red 5"), in the page's words.
 * @param {string} holds
 */
function holdsWords(holds) {
  if (holds === 'nothing') return t('duel.holds.nothing');
  if (holds === 'a block') return t('duel.holds.block');
  const piece = /^a (red|black) (\d+)$/.exec(holds);
  if (!piece) return holds;
  return t(piece[1] === 'black' ? 'duel.holds.black' : 'duel.holds.red', { rank: piece[2] });
}

/**
 * The words a Duel refusal's sentence takes from its fields: each field as sent, and the words
 * for its side, direction and what a cell holds.
 * @param {Record<string, unknown>} f
 * @returns {Record<string, string | number>}
 */
function duelWords(f) {
  /** @type {Record<string, string | number>} */
  const words = {};
  for (const [k, v] of Object.entries(f)) if (typeof v === 'string' || typeof v === 'number') words[k] = v;
  const black = f.side === 'black';
  words.pieces = t(black ? 'duel.what.black' : 'duel.what.red');
  words.piece = f.limit !== undefined && f.limit !== 1 ? words.pieces : t(black ? 'duel.sidePiece.black' : 'duel.sidePiece.red');
  words.side = t(black ? 'duel.turnSide.black' : 'duel.turnSide.red');
  if (typeof f.holds === 'string') words.holds = holdsWords(f.holds);
  if (f.dir === 'up' || f.dir === 'down' || f.dir === 'left' || f.dir === 'right') words.dir = t(`duel.dir.${f.dir}`);
  return words;
}

/**
 * Anything thrown while talking to the Duel routes, in a sentence for people: a Duel refusal in
 * the page's language from the fields it carries (the server's sentence when the page has no
 * words for it, as for a position file's reason).
 * @param {unknown} err
 * @returns {string}
 */
export function duelErrorText(err) {
  if (err instanceof ApiError && DUEL_WORDED.has(err.code)) {
    const key = `duel.refusal.${err.code}`;
    if (isKey(key)) {
      const text = t(key, duelWords(err.fields || {}));
      if (!/\{\w+\}/.test(text)) return text;
    }
    if (err.message) return err.message;
  }
  return errorText(err);
}

/**
 * The refusal row in `root`, under the hand, in the flow of the page: a refusal shown there never
 * covers the hand or the controls, stays until dismissed or until the turn moves on, and is read
 * out by screen readers (`role="alert"`). `refocus`: where the keyboard goes on Dismiss.
 * @param {HTMLElement} root
 * @param {() => void} refocus
 */
export function createErrorRow(root, refocus) {
  const text = find(root, 'error');
  find(root, 'error-dismiss').addEventListener('click', () => {
    show('');
    refocus();
  });
  /**
   * Shows `message` (an empty one hides the row), brought into view without moving the hand
   * out of it.
   * @param {string} message
   */
  function show(message) {
    text.textContent = message;
    const was = !root.hidden;
    root.hidden = !message;
    if (message && !was) {
      const r = root.getBoundingClientRect();
      if (r.bottom > window.innerHeight) root.scrollIntoView({ block: 'nearest' });
    }
  }
  return { show };
}
