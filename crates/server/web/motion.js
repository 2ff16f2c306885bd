// @ts-check
// Motion on the UNO table: short (never over 250 ms), ended by the next view, and none for
// people who ask their system for less motion.

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
 * hand, the direction sign, a skipped seat. The table and the hand say where each thing is.
 * @param {import('./protocol').TableView} v the new view
 * @param {import('./protocol').TableView | null} prev the view before it
 * @param {number | null} oldHand how many cards the viewer held before
 * @param {import('./tableview.js').TableDrawing} table
 * @param {{ takePlayedFrom: () => DOMRect | null, drawnButtons: (held: number) => Element[] }} hand
 */
export function animate(v, prev, oldHand, table, hand) {
  const playedFrom = hand.takePlayedFrom();
  if (!prev || still()) return;
  for (const ev of v.events || []) {
    const e = ev.event;
    if (e.type === 'card_played') {
      const from = e.seat === v.you && playedFrom ? playedFrom : table.row(e.seat)?.getBoundingClientRect();
      glide(table.top(), from);
    } else if (e.type === 'direction_reversed') {
      nudge(table.direction(), [{ transform: 'scaleX(-1)' }, { transform: 'none' }]);
    } else if (e.type === 'player_skipped') {
      nudge(table.row(e.seat), [{ opacity: 1 }, { opacity: 0.35 }, { opacity: 1 }]);
    }
  }
  // Another seat's draw: its backs come from the draw pile (where the table draws backs).
  const drewThere = new Set((v.events || []).flatMap((ev) => (ev.event.type === 'cards_drawn' && ev.event.seat !== v.you ? [ev.event.seat] : [])));
  for (const seat of drewThere) {
    const to = table.backs(seat);
    if (to) glide(to, table.drawPile().getBoundingClientRect());
  }
  const drewHere = (v.events || []).some((ev) => ev.event.type === 'cards_drawn' && ev.event.seat === v.you);
  if (drewHere && oldHand !== null) {
    const from = table.drawPile().getBoundingClientRect();
    for (const b of hand.drawnButtons(oldHand)) glide(b, from);
  }
}
