// @ts-check
// What the UNO pages say when the server refuses something: a sentence for people for every
// refusal code a page can meet (crates/server/src/error.rs `ApiError::code` and the engine's
// `IllegalAction` names). The server's own message is written for programs and logs (it may quote
// a JSON reader, name "the request body" or a field); it is never shown.
import { ApiError } from './api.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @typedef {import('./protocol').ServerCode} ServerCode */
/** @typedef {import('./protocol').IllegalAction} IllegalAction */

/**
 * A sentence for every code the server's refusals carry, keyed by the generated `ServerCode` and
 * the engine's `IllegalAction`: a code the server gains without a sentence here fails the type
 * check (scripts/test), and so does a sentence for a code the server no longer sends.
 * @type {Record<ServerCode | IllegalAction, string>}
 */
const SENTENCES = {
  // The engine's reasons for refusing a move.
  game_over: 'The game is over: no more moves.',
  round_over: 'The round is over: wait for the next deal.',
  round_not_over: 'The round is still being played.',
  no_such_seat: 'That seat is not at this table.',
  not_your_turn: 'It is not your turn: wait for yours.',
  card_not_in_hand: 'That card is not in your hand.',
  does_not_match: 'That card does not match the colour or the number on the pile.',
  color_required: 'Choose a colour for the wild card.',
  color_not_allowed: 'Only a wild card takes a colour.',
  color_not_in_game: 'That colour is not in this game.',
  must_answer_draw_penalty: 'Answer the draw penalty first: stack a card on it or draw the cards.',
  must_play_when_able: 'These rules make you play when you can: play a card.',
  must_draw_before_pass: 'Draw a card before you pass.',
  already_drawn: 'You have already drawn this turn: play the drawn card or keep it.',
  only_drawn_card: 'Only the card you just drew can be played now.',
  must_play_drawn_card: 'These rules make you play the card you just drew.',
  same_number_only: 'Only another card of the same number can be played now, or pass.',
  draw_pile_empty: 'The draw pile is empty.',
  wild_draw_four_not_allowed: 'A Wild Draw Four may only be played when no card of the colour in play can be.',
  must_answer_challenge: 'Challenge the Wild Draw Four or accept it first.',
  no_challenge_pending: 'There is no Wild Draw Four to challenge now.',
  must_declare_color: 'Choose the colour first.',
  no_color_to_declare: 'There is no colour to choose now.',
  must_choose_swap: 'Choose whom to swap hands with first.',
  no_swap_pending: 'There are no hands to swap now.',
  invalid_swap_target: 'Choose another player to swap hands with.',
  jump_in_not_allowed: 'That card cannot jump in now: only the very same card can, and only under the jump-in house rule.',
  uno_calls_off: 'These rules have no UNO calls.',
  nothing_to_call: 'UNO is called with two cards or fewer, on your turn.',
  uno_already_called: 'You have already called UNO.',
  cannot_catch_yourself: 'You cannot catch yourself.',
  uno_called_in_time: 'Too late: they called UNO in time.',
  catch_too_late: 'Too late to catch them: the next player has already moved.',
  not_on_one_card: 'They hold more than one card: nothing to catch.',
  // The table.
  stale_state: 'The table changed before your move arrived; nothing was played. Look again and choose.',
  not_started: 'The game starts when every seat is taken.',
  not_finished: 'The game is not over yet.',
  game_not_over: 'The game is still being played: its record opens once it is over.',
  seat_taken: 'Someone took that seat just before you.',
  table_full: 'Every seat at this table is taken. You can watch instead, or open a table of your own.',
  name_taken: 'Another player at this table has that name: choose another.',
  not_owner: 'Only the player who opened the table can close it.',
  not_found: 'This table no longer exists: it ended or was cleared. Open a new one from the lobby.',
  spectators_not_allowed: 'This table does not allow watching.',
  missing_token: 'This page no longer holds a seat at the table: join again.',
  bad_token: 'This page no longer holds a seat at the table: join again.',
  token_in_url: 'This link carries a seat’s secret: open the table from its invite link instead.',
  // Records and replays.
  invalid_record: 'This file is not a game record this server can replay: it may be damaged, or come from another program.',
  no_such_ply: 'The game has no such move: open it at another one.',
  too_many_imports: 'You have opened as many record files as you may this hour: try again later.',
  analysis_busy: 'The server is analysing as many games as it can: try again in a minute.',
  too_many_analyses: 'You have as many analyses under way as you may: wait for one to finish.',
  analysis_timeout: 'The analysis took too long: ask for fewer worlds per move.',
  // Limits and the server's state.
  too_many_tables: 'You already have as many unfinished tables as you may: finish or close one first.',
  server_full: 'The server is full right now: try again in a minute.',
  rate_limited: 'Too many moves at once: wait a moment and try again.',
  owner_unavailable: 'The table is moving to another server: try again in a few seconds.',
  owned_elsewhere: 'The table is moving to another server: reload the page.',
  store_unavailable: 'Games cannot be saved right now: try again shortly.',
  internal: 'Something went wrong on the server: try again.',
  server_busy: 'The server has as many visitors as it can take right now: try again in a minute.',
  too_many_connections: 'Too many pages of this site are open from your connection (other tabs or devices): close one and try again.',
  // Requests the page itself got wrong: nothing a player did, and nothing the words of the
  // request (JSON, bodies, fields) would help with.
  malformed_json: 'This page sent something the server could not read: reload the page and try again.',
  invalid_body: 'This page sent something the server could not read: reload the page and try again.',
  not_json: 'This page sent something the server could not read: reload the page and try again.',
  body_too_large: 'That was too much to send at once.',
  bad_request: 'This page sent something the server could not use: reload the page and try again.',
  invalid_rules: 'These rules cannot be played: choose another rule set.',
  unknown_bot: 'That bot is not on this server: choose another.',
  websocket_required: 'This page needs a live connection: reload it.',
  method_not_allowed: 'This page asked the server for something it does not do: reload the page and try again.',
  too_long: 'That is too long: use something shorter.',
  too_small: 'That grid is too small for a game: make it larger.',
  illegal_action: 'That move is not allowed now.',
};

/** The page's own: what `api.js` says when no answer came at all. */
const PAGE_SENTENCES = {
  network: 'The server cannot be reached. Check the connection and try again.',
};

/** On a form with a name (opening or joining a table), what the name-checking codes mean. */
const NAME_SENTENCES = {
  bad_request: 'That name cannot be used: use letters, digits, spaces and ordinary punctuation.',
  /** @param {string} message the server's, whose limit (a number) is the one fact taken from it */
  too_long: (message) => {
    const max = /at most (\d+)/.exec(message)?.[1];
    return max ? `That name is too long: at most ${max} characters.` : 'That name is too long: use a shorter one.';
  },
};

/**
 * A refusal in a sentence for people.
 * @param {string} code the refusal's code (`does_not_match`, `table_full`, ...)
 * @param {string} [message] the server's message: never shown; only a name's length limit is read from it
 * @param {{ name?: boolean, game?: boolean }} [about] `name`: the request carried a name the player
 *   typed; `game`: it asked for a kept game (a replay), not a live table
 * @returns {string}
 */
export function refusalText(code, message = '', about = {}) {
  if (about.name && code === 'bad_request') return NAME_SENTENCES.bad_request;
  if (code === 'too_long') return NAME_SENTENCES.too_long(message);
  if (about.game && code === 'not_found') return 'This server keeps no record of that game: it may have been cleared, or the link is wrong.';
  const known = /** @type {Record<string, string | undefined>} */ ({ ...SENTENCES, ...PAGE_SENTENCES });
  return known[code] || 'The server refused this: try again, or reload the page.';
}

/**
 * Anything thrown while talking to the server, in a sentence for people.
 * @param {unknown} err
 * @param {{ name?: boolean, game?: boolean }} [about]
 * @returns {string}
 */
export function errorText(err, about = {}) {
  if (err instanceof ApiError) return refusalText(err.code, err.message, about);
  return 'Something went wrong on this page: reload it and try again.';
}

/**
 * The Duel engine's refusals (crates/duel/src/error.rs `DuelError::code`) and the Duel routes' own
 * (a grid too small, no such game, too many games): their messages are written for the player,
 * word for word as seed 001 gives them, so the Duel pages show them as they come. Every other
 * code on a Duel page (a body the server could not read, a limit) gets the sentence above.
 */
const DUEL_WORDED = new Set([
  'not_block_key', 'not_rank_key', 'cell_occupied', 'too_many_of_rank', 'too_many_pieces',
  'no_red_piece', 'no_black_piece', 'outside_grid', 'bad_cell', 'not_move_key', 'not_own_piece',
  'off_grid', 'onto_block', 'onto_own_piece', 'must_attack', 'not_turn_of', 'setup_over',
  'not_playing', 'game_over', 'bad_size', 'bad_position', 'no_bot_move',
  'too_small', 'not_found', 'too_many_tables',
]);

/**
 * Anything thrown while talking to the Duel routes, in a sentence for people.
 * @param {unknown} err
 * @returns {string}
 */
export function duelErrorText(err) {
  if (err instanceof ApiError && DUEL_WORDED.has(err.code) && err.message) return err.message;
  return errorText(err);
}

/**
 * Shows a refusal (or an empty text: nothing) under the hand, in the flow of the page: it never
 * covers the hand or the controls, stays until dismissed or until the turn moves on, and is read
 * out by screen readers (`role="alert"`). Brought into view without moving the hand out of it.
 * @param {string} text
 */
export function showTableError(text) {
  const row = $('error-row');
  $('error').textContent = text;
  const was = !row.hidden;
  row.hidden = !text;
  if (text && !was) {
    const r = row.getBoundingClientRect();
    if (r.bottom > window.innerHeight) row.scrollIntoView({ block: 'nearest' });
  }
}

let wired = false;
/** The Dismiss button, wired once; the keyboard goes back to the hand. */
export function setupTableError() {
  if (wired) return;
  wired = true;
  $('error-dismiss').addEventListener('click', () => {
    showTableError('');
    $('hand-title').focus({ preventScroll: true });
  });
}
