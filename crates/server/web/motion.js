// @ts-check
// Motion on the UNO table: short (never over 250 ms), ended by the next view, and none for
// people who ask their system for less motion.
import { $, table } from './tablestate.js';
/** Motion is short (never over 250 ms), ends at the next view, and is off for people who ask
 * their system for less motion. */
const MOTION_MS = 250;
export const still = () => !window.matchMedia || window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Moves `node` in from where `from` (a DOMRect) was: a card from a hand to the pile, or from the
 * draw pile to the hand. */
/**
 * @param {Element | null | undefined} node
 * @param {DOMRect | null | undefined} from
 */
export function glide(node, from) {
  if (!node || !from || still() || !node.animate) return;
  const to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.7)`, opacity: 0.5 }, { transform: 'none', opacity: 1 }], {
    duration: MOTION_MS,
    easing: 'ease-out',
  });
}

/** A short nudge: the direction sign on Reverse, a skipped seat. */
/**
 * @param {Element | null | undefined} node
 * @param {Keyframe[]} frames
 */
export function nudge(node, frames) {
  if (!node || still() || !node.animate) return;
  node.animate(frames, { duration: MOTION_MS, easing: 'ease-in-out' });
}

/** What moved in this change, shown moving: the played card to the pile, drawn cards to the
 * hand, the direction sign, a skipped seat. */
/**
 * @param {import('./protocol').TableView} v the new view
 * @param {import('./protocol').TableView | null} prev the view before it
 * @param {number | null} oldHand how many cards the viewer held before
 */
export function animate(v, prev, oldHand) {
  if (!prev || still()) {
    table.playedFrom = null;
    return;
  }
  /** @param {number} i */
  const seatRow = (i) => document.querySelector(`#players li:nth-child(${i + 1})`);
  for (const ev of v.events || []) {
    const e = ev.event;
    if (e.type === 'card_played') {
      const from = e.seat === v.you && table.playedFrom ? table.playedFrom : seatRow(e.seat)?.getBoundingClientRect();
      glide($('top-card').firstElementChild, from);
    } else if (e.type === 'direction_reversed') {
      nudge($('direction'), [{ transform: 'scaleX(-1)' }, { transform: 'none' }]);
    } else if (e.type === 'player_skipped') {
      nudge(seatRow(e.seat), [{ opacity: 1 }, { opacity: 0.35 }, { opacity: 1 }]);
    }
  }
  table.playedFrom = null;
  const drewHere = (v.events || []).some((ev) => ev.event.type === 'cards_drawn' && ev.event.seat === v.you);
  if (drewHere && oldHand !== null) {
    const from = $('draw-pile').getBoundingClientRect();
    for (const b of document.querySelectorAll('#hand button[data-index]')) {
      if (b instanceof HTMLElement && Number(b.dataset.index) >= oldHand) glide(b, from);
    }
  }
}
