// @ts-check
// UNO cards and events as the pages show them: a card drawn as SVG with its words, and an
// event in a sentence. Shared by the table page and the replay page.
import { capitalize, el, svg } from './api.js';
import { t } from './i18n.js';

/** @typedef {import('./i18n.js').Key} Key */

export const COLORS = ['red', 'yellow', 'green', 'blue'];
/** UNO's own words for the faces that are no number, in the page's language. */
/** @type {Record<string, Key>} */
const FACE_KEYS = { S: 'card.skip', R: 'card.reverse', D2: 'card.drawTwo', '': 'card.wild', 4: 'card.wildDrawFour' };
/** @type {Record<string, Key>} */
const COLOR_KEYS = { red: 'color.red', yellow: 'color.yellow', green: 'color.green', blue: 'color.blue' };

/** A colour in words, in the page's language ("red"). @param {string} c */
export const colorWords = (c) => (COLOR_KEYS[c] ? t(COLOR_KEYS[c]) : c);

/** A face in words: its number, or UNO's word for it ("Draw Two"; a wild's code `4` is the
 * Wild Draw Four, not a 4).
 * @param {string} code @param {boolean} [wild] */
export const faceWords = (code, wild = false) => (!wild && /^\d$/.test(code) ? code : FACE_KEYS[code] ? t(FACE_KEYS[code]) : code);
/** @type {Record<string, string>} */
const FACE_SHORT = { S: '⊘', R: '⇄', D2: '+2', '': 'W', 4: '+4' };

/**
 * Reads a card's text form (`R7`, `BS`, `GD2`, `W`, `W4`).
 * @param {string} text
 * @returns {{ color: string | null, code: string, wild: boolean }}
 */
export function parseCard(text) {
  const letter = text[0];
  const rest = text.slice(1);
  if (letter === 'W') return { color: null, code: rest, wild: true };
  /** @type {Record<string, string>} */
  const colors = { R: 'red', Y: 'yellow', G: 'green', B: 'blue' };
  const color = colors[letter] || 'unknown';
  return { color, code: rest, wild: false };
}

/**
 * A card in words ("red 7", "Wild Draw Four").
 * @param {string} text
 * @returns {string}
 */
export function cardWords(text) {
  const c = parseCard(text);
  const face = faceWords(c.code, c.wild);
  return c.wild ? face : t('card.colored', { color: colorWords(c.color || ''), face });
}

/** @type {Record<string, string>} */
const INK = { red: '#b71c1c', yellow: '#f2c200', green: '#1b5e20', blue: '#0d47a1' };
// A letter per colour in the corners, so no card is told by its colour alone.
/** @type {Record<string, string>} */
const COLOR_LETTER = { red: 'R', yellow: 'Y', green: 'G', blue: 'B' };

/** A card drawn as a card: the tilted oval, the face in the middle, the corner indices (face and
 * colour letter) top left and bottom right. Decorative: the element holding it carries the words. */
/**
 * @param {string} text the card's text form
 * @param {string} [size] a size class (`mini`)
 * @returns {SVGElement}
 */
export function cardSvg(text, size = '') {
  const c = parseCard(text);
  const digit = !c.wild && /^\d$/.test(c.code);
  const face = digit ? c.code : FACE_SHORT[c.code] || c.code;
  const fill = c.wild ? '#1b1b1b' : INK[c.color ?? ''] || '#555';
  const centreInk = c.wild ? '#1b1b1b' : c.color === 'yellow' ? '#5c4700' : fill;
  // White on yellow is unreadable (and vanishes under achromatopsia): yellow's corners are dark.
  const cornerInk = c.color === 'yellow' ? '#2b2100' : '#fff';
  /** @type {(x: number, y: number, rotate: boolean) => SVGElement} */
  const corner = (x, y, rotate) =>
    svg(
      'g',
      { transform: `translate(${x} ${y})${rotate ? ' rotate(180)' : ''}` },
      svg('text', { x: 0, y: 0, 'font-size': face.length > 1 ? 11 : 14, 'font-weight': 800, fill: cornerInk, 'text-anchor': 'middle' }, face),
      svg('text', { x: 0, y: 11, 'font-size': 9, 'font-weight': 800, fill: cornerInk, 'text-anchor': 'middle' }, c.wild ? 'W' : COLOR_LETTER[c.color ?? ''] || '?'),
    );
  const oval = svg('ellipse', { cx: 30, cy: 45, rx: 21, ry: 34, transform: 'rotate(28 30 45)', fill: '#fff' });
  const parts = [svg('rect', { x: 1, y: 1, width: 58, height: 88, rx: 7, fill, stroke: '#fff', 'stroke-width': 2 }), oval];
  if (c.wild) {
    // The four colours in the oval, each in its own quarter.
    /** @type {[string, number, number][]} */
    const q = [['red', -1, -1], ['blue', 1, -1], ['yellow', -1, 1], ['green', 1, 1]];
    const clip = `clip-${text}-${Math.random().toString(36).slice(2, 8)}`;
    parts.push(
      svg('clipPath', { id: clip }, svg('ellipse', { cx: 30, cy: 45, rx: 19, ry: 32, transform: 'rotate(28 30 45)' })),
      svg('g', { 'clip-path': `url(#${clip})` }, ...q.map(([col, dx, dy]) => svg('rect', { x: dx < 0 ? 0 : 30, y: dy < 0 ? 0 : 45, width: 30, height: 45, fill: INK[col] }))),
    );
  }
  parts.push(
    svg(
      'text',
      {
        x: 30,
        y: 45,
        'font-size': face.length > 1 ? 22 : 30,
        'font-weight': 900,
        fill: c.wild ? '#fff' : centreInk,
        stroke: c.wild ? '#1b1b1b' : 'none',
        'stroke-width': c.wild ? 1.5 : 0,
        'paint-order': 'stroke',
        'text-anchor': 'middle',
        'dominant-baseline': 'central',
      },
      face,
    ),
    corner(9, 15, false),
    corner(51, 75, true),
  );
  return svg('svg', { class: `card-svg ${size}`, viewBox: '0 0 60 90', 'aria-hidden': 'true', focusable: 'false' }, ...parts);
}

/**
 * A card face: the drawn card, and its colour and face in words (the accessible name).
 * @param {string} text
 * @returns {Element[]}
 */
export function cardFace(text) {
  return [cardSvg(text), el('span', { class: 'visually-hidden' }, capitalize(cardWords(text)))];
}

/**
 * @param {string} text
 * @returns {string}
 */
export function cardClass(text) {
  const c = parseCard(text);
  return `uno-card ${c.wild ? 'wild' : `c-${c.color}`}`;
}

/**
 * An event in a sentence (`names`: `seatName(i)`, `who(i)` ("You" for the viewer), `you`, the
 * viewer's seat); empty for an event not worth a line.
 * @param {import('./protocol').Event} e the engine's event
 * @param {{ seatName: (seat: number) => string, who: (seat: number) => string, you: number | null | undefined }} names
 * @returns {string}
 */
export function eventWords(e, names) {
  const { seatName, who, you } = names;
  /** The line of `key` for a seat: its `.you` form for the viewer's own.
   * @param {Key} key @param {Key} mine @param {number} seat @param {Record<string, string | number>} [vars] */
  const said = (key, mine, seat, vars = {}) => (seat === you ? t(mine, vars) : t(key, { name: who(seat), ...vars }));
  switch (e.type) {
    case 'round_started':
      return t('ev.round', { round: e.round, dealer: seatName(e.dealer) });
    case 'start_card':
      return t(e.returned ? 'ev.firstReturned' : 'ev.first', { card: cardWords(e.card) });
    case 'turn_started':
      return '';
    case 'card_played':
      return said('ev.played', 'ev.played.you', e.seat, { card: `${cardWords(e.card)}${e.jump_in ? t('ev.jumpIn') : ''}` });
    case 'color_declared':
      return said('ev.chose', 'ev.chose.you', e.seat, { color: colorWords(e.color) });
    case 'cards_drawn': {
      const what = e.cards && e.cards.length ? `: ${e.cards.map(cardWords).join(', ')}` : '';
      /** @type {Record<string, Key>} */
      const reasons = { penalty: 'ev.why.penalty', uno_penalty: 'ev.why.uno', false_uno_call: 'ev.why.false', challenge_lost: 'ev.why.lost', challenge_guilty: 'ev.why.guilty' };
      const why = reasons[e.reason] ? t(reasons[e.reason]) : '';
      return said('ev.drew', 'ev.drew.you', e.seat, { n: e.count, why, what });
    }
    case 'passed':
      return said('ev.passed', 'ev.passed.you', e.seat);
    case 'run_ended':
      return said('ev.runEnded', 'ev.runEnded.you', e.seat);
    case 'direction_reversed':
      return t('ev.reversed', { dir: directionWords(e.direction) });
    case 'player_skipped':
      return said('ev.skipped', 'ev.skipped.you', e.seat);
    case 'uno_called':
      return said('ev.uno', 'ev.uno.you', e.seat);
    case 'uno_penalty':
      return e.caught_by === you ? t('ev.caught.you', { name: seatName(e.seat) }) : t('ev.caught', { by: who(e.caught_by), name: seatName(e.seat) });
    case 'false_uno_call':
      return said('ev.falseUno', 'ev.falseUno.you', e.seat);
    case 'challenge_resolved': {
      const verdict = t(e.guilty ? 'ev.guilty' : 'ev.notGuilty');
      return e.challenger === you
        ? t('ev.challenge.you', { name: seatName(e.offender), verdict })
        : t('ev.challenge', { by: who(e.challenger), name: seatName(e.offender), verdict });
    }
    case 'hands_swapped':
      return t('ev.swapped', { a: seatName(e.a), b: seatName(e.b) });
    case 'hands_rotated':
      return t('ev.rotated', { dir: directionWords(e.direction) });
    case 'deck_reshuffled':
      return t('ev.reshuffled', { n: e.cards });
    case 'round_scored':
      return said('ev.scored', 'ev.scored.you', e.winner, { n: e.points });
    case 'game_over': {
      const w = e.outcome.winner;
      return w === null || w === undefined ? t('ev.over') : said('ev.won', 'ev.won.you', w);
    }
    default:
      return '';
  }
}

/**
 * @param {string} d
 * @returns {string}
 */
export function directionWords(d) {
  return d === 'clockwise' ? t('dir.clockwise') : t('dir.counter');
}
