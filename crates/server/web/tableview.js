// @ts-check
// The UNO table as every page draws it (the table page and the replay), its markup written
// here once: the players in seat order (whose turn, hand counts, UNO calls) and the pile (the
// top card, the colour in play, the draw pile), inside the root element a page gives it. Both
// pages give the facts as the server sent them; this module only draws them. The table page
// seats the players around the table (`felt`); the seats stay in seat order in the document,
// so a screen reader hears them as a list, and only their places on screen go round.
import { el, find } from './api.js';
import { t } from './i18n.js';
import { cardClass, cardFace, cardWords, colorWords, directionWords } from './unocards.js';

/**
 * One row of the players list.
 * @typedef {object} PlayerRow
 * @property {string} name the seat's name (seats.js)
 * @property {number | null} cards how many cards the seat holds (`null`: nothing is dealt yet)
 * @property {boolean} current whether it is this seat's turn
 * @property {boolean} me whether this seat is the viewer's
 * @property {boolean} uno whether the seat called UNO
 * @property {string[]} [tags] small marks after the name ("open seat")
 * @property {string} [detail] more after the hand count ("· 40 points")
 * @property {Node | null} [after] drawn at the row's end (a revealed hand)
 */

/**
 * The pile as a page gives it.
 * @typedef {object} Pile
 * @property {string} top the top card
 * @property {string | null | undefined} color the colour in play; null after a first-card wild nobody chose yet
 * @property {string} undecided the words for a colour not chosen yet
 * @property {number} drawPile cards in the draw pile
 * @property {number} [pendingDraw] cards to draw as a penalty
 * @property {string} [by] who played the top card, in words (the table page says it)
 */

/** The most card backs drawn for a seat; more are said as a number. */
const MAX_BACKS = 8;

/**
 * Where seat `k` places after the viewer sit around an oval table of `n` seats, the viewer at
 * the bottom and the others in seat order going round (the next seat to the viewer's left, as
 * at a real table): the seat's centre as fractions of the table's half width and height.
 * @param {number} k
 * @param {number} n
 * @returns {[number, number]}
 */
export function seatPlace(k, n) {
  const a = Math.PI / 2 + (2 * Math.PI * k) / n;
  return [Math.cos(a), Math.sin(a)];
}

/**
 * A seat's cards, face down: a back per card (at most `MAX_BACKS`), for the eye only.
 * @param {number} cards
 */
function backs(cards) {
  const shown = Math.min(cards, MAX_BACKS);
  return el(
    'span',
    { class: 'backs', 'aria-hidden': 'true' },
    ...Array.from({ length: shown }, () => el('span', { class: 'card-back' })),
    cards > shown ? el('span', { class: 'backs-more' }, `+${cards - shown}`) : null,
  );
}

/**
 * The table drawn into `root` (emptied first): the players' section and the pile's, with
 * `below` (a page's own controls: the table page's actions) at the pile's foot. `felt`: the
 * seats sit around the table (the viewer at the bottom, each seat's cards as backs) with the
 * pile and the draw pile in the middle; otherwise the players are a list beside the pile.
 * @param {HTMLElement} root
 * @param {{ below?: Node[], felt?: boolean }} [parts]
 */
export function createTableView(root, { below = [], felt = false } = {}) {
  root.classList.add('uno-layout');
  root.classList.toggle('felt', felt);
  root.replaceChildren(
    el(
      'section',
      { class: 'players', 'aria-labelledby': 'players-title' },
      el('h2', { id: 'players-title' }, t('players.title')),
      el('p', { id: 'direction', class: 'direction' }),
      el('ol', { id: 'players', class: 'player-list' }),
    ),
    el(
      'section',
      { class: 'pile', 'aria-labelledby': 'pile-title' },
      el('h2', { id: 'pile-title' }, t('pile.title')),
      el(
        'div',
        { class: 'pile-row' },
        felt ? el('div', { id: 'draw-stack', class: 'draw-stack', 'aria-hidden': 'true' }, el('span', { class: 'card-back big' }), el('span', { id: 'draw-count', class: 'draw-count' })) : null,
        el('div', { id: 'top-card' }),
        el('div', {}, el('p', { id: 'color-in-play', class: 'color-in-play' }), el('p', { id: 'top-by', class: 'hint', hidden: true }), el('p', { id: 'draw-pile', class: 'hint' })),
      ),
      ...below,
    ),
  );
  const players = find(root, 'players');
  const direction = find(root, 'direction');
  // Round the table, the direction is said in the middle, over the pile.
  if (felt) find(root, 'pile-title').after(direction);
  const topCard = find(root, 'top-card');
  const pile = find(root, 'pile-title').parentElement;
  return {
    /**
     * Draws the players in seat order and the direction of play (none before the deal).
     * @param {PlayerRow[]} rows
     * @param {string | null} dir the view's `direction`
     */
    players(rows, dir) {
      direction.textContent = dir ? t('players.direction', { dir: directionWords(dir) }) : '';
      if (dir) direction.dataset.direction = dir;
      else delete direction.dataset.direction;
      const viewer = Math.max(0, rows.findIndex((r) => r.me));
      players.replaceChildren(
        ...rows.map((r, i) => {
          const li = el(
            'li',
            { class: `player${r.current ? ' current' : ''}${r.me ? ' me' : ''}`, 'aria-current': r.current ? 'true' : undefined, dataset: { seat: String(i) } },
            el('span', { class: 'turn-marker', 'aria-hidden': 'true' }, r.current ? '▶' : ''),
            el('span', { class: 'player-name' }, r.name),
            ...(r.tags || []).map((t) => el('span', { class: 'tag' }, t)),
            r.cards === null ? null : el('span', { class: 'hand-size' }, `${t('players.cards', { n: r.cards })}${r.detail ? ` ${r.detail}` : ''}`),
            r.uno ? el('span', { class: 'tag uno' }, 'UNO!') : null,
            r.current ? el('span', { class: 'visually-hidden' }, t('players.playingNow')) : null,
            felt && r.cards !== null && !r.me ? backs(r.cards) : null,
            r.after || null,
          );
          if (felt) {
            const [x, y] = seatPlace((i - viewer + rows.length) % rows.length, rows.length);
            li.style.setProperty('--seat-x', x.toFixed(3));
            li.style.setProperty('--seat-y', y.toFixed(3));
          }
          return li;
        }),
      );
    },
    /**
     * Draws the pile, or hides it (`null`: nothing is dealt yet).
     * @param {Pile | null} p
     */
    pile(p) {
      if (pile) pile.hidden = !p;
      if (!p) return;
      topCard.replaceChildren(el('div', { class: `${cardClass(p.top)} big`, role: 'img', 'aria-label': t('pile.top', { card: cardWords(p.top) }), dataset: { card: p.top } }, ...cardFace(p.top)));
      find(root, 'color-in-play').replaceChildren(
        t('pile.color'),
        p.color === null || p.color === undefined ? el('strong', {}, p.undecided) : el('strong', { class: `color-chip c-${p.color}` }, colorWords(p.color)),
      );
      const by = find(root, 'top-by');
      by.hidden = p.by === undefined;
      by.textContent = p.by ?? '';
      const pending = p.pendingDraw ? t('pile.penalty', { n: p.pendingDraw }) : '';
      find(root, 'draw-pile').textContent = `${t('pile.draw', { n: p.drawPile })}${pending}`;
      if (felt) find(root, 'draw-count').textContent = String(p.drawPile);
    },
    /** The row of seat `i` (for motion). @param {number} i */
    row: (i) => players.children[i] || null,
    /** The card on the pile (for motion). */
    top: () => topCard.firstElementChild,
    /** The direction line and the draw pile (for motion). */
    direction: () => direction,
    drawPile: () => (felt ? find(root, 'draw-stack') : find(root, 'draw-pile')),
    /** A seat's card backs (for motion), if drawn. @param {number} i */
    backs: (i) => players.children[i]?.querySelector('.backs') || null,
  };
}

/** @typedef {ReturnType<typeof createTableView>} TableDrawing */
