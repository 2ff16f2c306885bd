// @ts-check
// The UNO table as every page draws it (the table page and the replay): the players in seat
// order (whose turn, hand counts, UNO calls) and the pile (the top card, the colour in play, the
// draw pile). Both pages give the facts as the server sent them; this module only draws them.
import { el } from './api.js';
import { cardClass, cardFace, cardWords, directionWords } from './unocards.js';

/**
 * One row of the players list.
 * @typedef {object} PlayerRow
 * @property {string} name the seat's name (seats.js)
 * @property {number} cards how many cards the seat holds
 * @property {boolean} current whether it is this seat's turn
 * @property {boolean} me whether this seat is the viewer's
 * @property {boolean} uno whether the seat called UNO
 * @property {string[]} [tags] small marks after the name ("open seat")
 * @property {string} [detail] more after the hand count ("· 40 points")
 * @property {Node | null} [after] drawn at the row's end (a revealed hand)
 */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Draws the players into `#players` and the direction of play into `#direction`.
 * @param {PlayerRow[]} rows in seat order
 * @param {string} direction the view's `direction`
 */
export function renderPlayers(rows, direction) {
  $('direction').textContent = `Direction: ${directionWords(direction)}`;
  $('players').replaceChildren(
    ...rows.map((r) =>
      el(
        'li',
        { class: `player${r.current ? ' current' : ''}${r.me ? ' me' : ''}`, 'aria-current': r.current ? 'true' : undefined },
        el('span', { class: 'turn-marker', 'aria-hidden': 'true' }, r.current ? '▶' : ''),
        el('span', { class: 'player-name' }, r.name),
        ...(r.tags || []).map((t) => el('span', { class: 'tag' }, t)),
        el('span', { class: 'hand-size' }, `${r.cards} card${r.cards === 1 ? '' : 's'}${r.detail ? ` ${r.detail}` : ''}`),
        r.uno ? el('span', { class: 'tag uno' }, 'UNO!') : null,
        r.current ? el('span', { class: 'visually-hidden' }, ', playing now') : null,
        r.after || null,
      ),
    ),
  );
}

/**
 * Draws the pile: the top card into `#top-card`, the colour in play into `#color-in-play`, the
 * draw pile into `#draw-pile`.
 * @param {object} pile
 * @param {string} pile.top the top card
 * @param {string | null | undefined} pile.color the colour in play; null after a first-card wild nobody chose yet
 * @param {string} pile.undecided the words for a colour not chosen yet
 * @param {number} pile.drawPile cards in the draw pile
 * @param {number} [pile.pendingDraw] cards to draw as a penalty
 */
export function renderPile({ top, color, undecided, drawPile, pendingDraw = 0 }) {
  $('top-card').replaceChildren(el('div', { class: `${cardClass(top)} big`, role: 'img', 'aria-label': `Top card: ${cardWords(top)}`, dataset: { card: top } }, ...cardFace(top)));
  $('color-in-play').replaceChildren(
    'Colour in play: ',
    color === null || color === undefined ? el('strong', {}, undecided) : el('strong', { class: `color-chip c-${color}` }, color),
  );
  $('draw-pile').textContent = `${drawPile} card${drawPile === 1 ? '' : 's'} in the draw pile${pendingDraw ? ` · ${pendingDraw} to draw as a penalty` : ''}`;
}
