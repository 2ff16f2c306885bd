// @ts-check
// UNO cards and events as the pages show them: a card drawn as SVG with its words, and an
// event in a sentence. Shared by the table page and the replay page.
import { capitalize, el } from './api.js';

export const COLORS = ['red', 'yellow', 'green', 'blue'];
/** @type {Record<string, string>} */
const FACE_WORDS = { S: 'Skip', R: 'Reverse', D2: 'Draw Two', '': 'Wild', 4: 'Wild Draw Four' };
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
  const face = !c.wild && /^\d$/.test(c.code) ? c.code : FACE_WORDS[c.code] || c.code;
  return c.wild ? face : `${c.color} ${face}`;
}

const SVG = 'http://www.w3.org/2000/svg';
/** @type {Record<string, string>} */
const INK = { red: '#b71c1c', yellow: '#f2c200', green: '#1b5e20', blue: '#0d47a1' };
// A letter per colour in the corners, so no card is told by its colour alone.
/** @type {Record<string, string>} */
const COLOR_LETTER = { red: 'R', yellow: 'Y', green: 'G', blue: 'B' };

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | string | number)} children
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

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
  switch (e.type) {
    case 'round_started':
      return `Round ${e.round} begins; ${seatName(e.dealer)} deals.`;
    case 'start_card':
      return `The first card is ${cardWords(e.card)}${e.returned ? ' (returned to the pile)' : ''}.`;
    case 'turn_started':
      return '';
    case 'card_played':
      return `${who(e.seat)} played ${cardWords(e.card)}${e.jump_in ? ' (jump-in)' : ''}.`;
    case 'color_declared':
      return `${who(e.seat)} chose ${e.color}.`;
    case 'cards_drawn': {
      const what = e.cards && e.cards.length ? `: ${e.cards.map(cardWords).join(', ')}` : '';
      /** @type {Record<string, string>} */
      const reasons = { penalty: ' (penalty)', uno_penalty: ' (UNO penalty)', false_uno_call: ' (false UNO call)', challenge_lost: ' (lost the challenge)', challenge_guilty: ' (caught by the challenge)' };
      const why = reasons[e.reason] || '';
      return `${who(e.seat)} drew ${e.count} card${e.count === 1 ? '' : 's'}${why}${what}.`;
    }
    case 'passed':
      return `${who(e.seat)} kept the card and passed.`;
    case 'run_ended':
      return `${who(e.seat)} played no more cards of that number.`;
    case 'direction_reversed':
      return `The direction is now ${directionWords(e.direction)}.`;
    case 'player_skipped':
      return `${who(e.seat)} ${you === e.seat ? 'are' : 'is'} skipped.`;
    case 'uno_called':
      return `${who(e.seat)} called UNO!`;
    case 'uno_penalty':
      return `${who(e.caught_by)} caught ${seatName(e.seat)} without an UNO call.`;
    case 'false_uno_call':
      return `${who(e.seat)} called UNO wrongly.`;
    case 'challenge_resolved':
      return `${who(e.challenger)} challenged ${seatName(e.offender)}: ${e.guilty ? 'guilty' : 'not guilty'}.`;
    case 'hands_swapped':
      return `${seatName(e.a)} and ${seatName(e.b)} swapped hands.`;
    case 'hands_rotated':
      return `Every hand moved on ${directionWords(e.direction)}.`;
    case 'deck_reshuffled':
      return `The discard pile was shuffled into a new draw pile (${e.cards} cards).`;
    case 'round_scored':
      return `${who(e.winner)} won the round and scored ${e.points} points.`;
    case 'game_over': {
      const w = e.outcome.winner;
      return w === null || w === undefined ? 'The game is over without a winner.' : `${who(w)} won the game!`;
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
  return d === 'clockwise' ? 'clockwise ↻' : 'counter-clockwise ↺';
}
