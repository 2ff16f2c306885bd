// @ts-check
// The analysis graph of the replay page: the win chance after each of one seat's decisions, a
// point per decision. The points are one keyboard stop (a roving tab stop on the shown
// decision): ← → move between decisions, Home and End to the first and last, and each point is
// named for screen readers. Round labels under the curve never overlap: one that has no room
// is shortened to its number, or left out (its separator line stays).
import { svg } from './api.js';
import { t } from './i18n.js';

const [W, H, LEFT, TOP] = [600, 160, 36, 10];
/** The labels' font size in the graph's units (style.css draws them at this size). */
const FONT = 11;
/** A wide estimate of one character's advance at that size (digits and lower case). */
const CHAR = 0.62 * FONT;
const GAP = 4;

/**
 * One decision as the analysis answer gives it (`GET /api/games/{id}/analysis`); its `ply` is the
 * ply the decision was taken at (the move leads to ply + 1).
 * @typedef {import('./protocol').Decision} Decision
 */

/**
 * Where the round labels go: `round N` where it fits, `N` where only that fits, nothing where
 * even that would touch its neighbour or leave the graph.
 * @param {{ x: number, round: number }[]} starts each round's first decision
 * @returns {{ x: number, text: string }[]}
 */
export function roundLabels(starts) {
  /** @type {{ x: number, text: string }[]} */
  const out = [];
  let free = LEFT; // the first x a label may start at
  starts.forEach((s, k) => {
    const next = k + 1 < starts.length ? starts[k + 1].x : W;
    for (const text of [`round ${s.round}`, String(s.round)]) {
      const width = text.length * CHAR;
      // Under its separator line, or pulled left to stay inside the graph.
      const x = Math.min(s.x, W - 2 - width);
      if (x < free) continue;
      // Room before the next round's line, unless the next label will have to give way anyway.
      if (x + width + GAP > next && k + 1 < starts.length && text !== String(s.round)) continue;
      out.push({ x, text });
      free = x + width + GAP;
      return;
    }
  });
  return out;
}

/**
 * The graph of analysis `a`.
 * @param {{ decisions: Decision[] }} a
 * @param {(d: Decision, win: number) => string} pointWords what a point says (screen readers, hover)
 * @param {(d: Decision) => number} winOf the chosen move's win chance
 * @param {string} [by] how the chances were estimated ("by playouts (…)"), for the graph's name
 * @returns {SVGElement}
 */
export function renderGraph(a, pointWords, winOf, by = '') {
  const n = a.decisions.length;
  const x = (/** @type {number} */ i) => LEFT + (n > 1 ? (i * (W - LEFT - 10)) / (n - 1) : (W - LEFT) / 2);
  const y = (/** @type {number} */ p) => TOP + (1 - p) * (H - 2 * TOP - 10);
  const wins = a.decisions.map(winOf);
  const parts = [];
  for (const p of [0, 0.5, 1]) {
    parts.push(svg('line', { class: 'grid', x1: LEFT, x2: W - 10, y1: y(p), y2: y(p) }));
    parts.push(svg('text', { x: 2, y: y(p) + 4, 'aria-hidden': 'true' }, `${100 * p}%`));
  }
  /** @type {{ x: number, round: number }[]} */
  const starts = [];
  a.decisions.forEach((d, i) => {
    if (i > 0 && d.round === a.decisions[i - 1].round) return;
    if (i > 0) parts.push(svg('line', { class: 'grid', x1: x(i) - 2, x2: x(i) - 2, y1: TOP, y2: H - 20 }));
    starts.push({ x: i > 0 ? x(i) - 2 : LEFT, round: d.round });
  });
  for (const l of roundLabels(starts)) parts.push(svg('text', { x: l.x, y: H - 4, class: 'round-label', 'aria-hidden': 'true' }, l.text));
  parts.push(svg('polyline', { class: 'curve', points: wins.map((p, i) => `${x(i)},${y(p)}`).join(' ') }));
  a.decisions.forEach((d, i) => {
    const words = pointWords(d, wins[i]);
    const attrs = { role: 'button', tabindex: -1, 'aria-label': words, 'data-ply': d.ply + 1, 'data-index': i };
    const point = d.mistake
      ? svg('path', { ...attrs, class: 'point mistake', d: `M${x(i) - 5},${y(wins[i]) - 5}l10,10m0,-10l-10,10` })
      : svg('circle', { ...attrs, class: 'point', cx: x(i), cy: y(wins[i]), r: 4 });
    // A wider target to click or touch than the mark itself.
    const hit = svg('circle', { class: 'hit', cx: x(i), cy: y(wins[i]), r: 9, 'data-ply': d.ply + 1, 'aria-hidden': 'true' });
    point.append(svg('title', {}, words));
    parts.push(hit, point);
  });
  const mistakes = a.decisions.filter((d) => d.mistake).length;
  return svg(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'group', 'aria-label': t('an.graph', { n, by: by ? `, ${by}` : '', mistakes }), 'data-own-keys': '' },
    ...parts,
  );
}

/**
 * Marks the decision of the shown ply (`here`) and makes it the graph's tab stop.
 * @param {Element} graph the svg
 * @param {number | null} index the shown decision, or null (the first point takes the stop)
 */
export function markShown(graph, index) {
  const points = [...graph.querySelectorAll('.point')];
  points.forEach((p, i) => {
    p.classList.toggle('here', i === index);
    p.setAttribute('tabindex', i === (index ?? 0) ? '0' : '-1');
    if (i === index) p.setAttribute('aria-current', 'step');
    else p.removeAttribute('aria-current');
  });
}

/**
 * Keys on a focused point: ← → to the previous or next decision, Home and End to the first and
 * last, Enter and Space to its move. `go` is given the decision's move's ply.
 * @param {Element} host the element the graph is drawn in
 * @param {(ply: number) => void} go
 */
export function bindGraphKeys(host, go) {
  host.addEventListener('keydown', (ev) => {
    const e = /** @type {KeyboardEvent} */ (ev);
    const t = e.target;
    if (!(t instanceof Element) || !t.classList.contains('point')) return;
    const points = [...host.querySelectorAll('.point')];
    const i = points.indexOf(t);
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, ArrowUp: i + 1, ArrowDown: i - 1, Home: 0, End: points.length - 1 }[e.key];
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      go(Number(/** @type {SVGElement} */ (t).dataset.ply));
      return;
    }
    if (to === undefined) return;
    e.preventDefault();
    const next = /** @type {SVGElement | undefined} */ (points[Math.max(0, Math.min(points.length - 1, to))]);
    if (!next) return;
    markShown(host.querySelector('svg') || host, points.indexOf(next));
    next.focus();
    go(Number(next.dataset.ply));
  });
}
