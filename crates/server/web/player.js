// @ts-check
// A player's profile (`player.html?id=ID`, `GET /api/players/{id}`): each pool's rating with
// its history as a graph (inline SVG), rated games played and won, the latest tables.
import { $, el, request, showError, svg } from './api.js';
import { lang, t } from './i18n.js';
import { errorText } from './refusals.js';
import { ratingText } from './rating.js';

/** @typedef {import('./protocol').PlayerView} PlayerView */
/** @typedef {import('./protocol').PoolView} PoolView */

/**
 * The history of one pool as a line graph, oldest left.
 * @param {PoolView} pool
 * @returns {SVGElement}
 */
function graph(pool) {
  const W = 320;
  const H = 120;
  const pad = 6;
  const pts = pool.history.map((p) => p.points);
  const lo = Math.min(...pts, 1500) - 10;
  const hi = Math.max(...pts, 1500) + 10;
  const x = (/** @type {number} */ i) => pad + (pts.length < 2 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (pts.length - 1));
  const y = (/** @type {number} */ v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo);
  const line = pts.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return svg(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', class: 'rating-graph', 'aria-label': t('player.graph', { n: pts.length, from: pts[0] ?? 1500, to: pts[pts.length - 1] ?? 1500 }) },
    svg('line', { x1: pad, x2: W - pad, y1: y(1500), y2: y(1500), stroke: 'currentColor', 'stroke-opacity': 0.25 }),
    svg('path', { d: line, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    ...pts.map((v, i) => svg('circle', { cx: x(i), cy: y(v), r: 2.5, fill: 'currentColor' })),
  );
}

async function show() {
  const id = new URLSearchParams(location.search).get('id') || '';
  try {
    const p = /** @type {PlayerView} */ (await request('GET', `/api/players/${encodeURIComponent(id)}`));
    document.title = `${p.name} · tabletop`;
    $('player-name').textContent = p.name;
    $('player-summary').textContent = t('player.played', { n: p.rated_played, won: p.rated_won });
    $('player-ratings').replaceChildren(
      ...(p.ratings.length ? p.ratings : []).map((pool) =>
        el(
          'section',
          { class: 'pool', dataset: { pool: pool.pool } },
          el('h2', {}, pool.pool, ': ', el('span', { class: 'rating' }, ratingText(pool.rating))),
          el('p', { class: 'hint' }, `${t('player.poolGames', { n: pool.rating.games })}${pool.rating.provisional ? t('player.provisional') : ''}.`),
          graph(pool),
        ),
      ),
      ...(p.ratings.length ? [] : [el('p', {}, t('player.noRated'))]),
    );
    $('player-recent').replaceChildren(
      ...p.recent.map((g) =>
        el('li', {}, el('a', { href: `replay.html?game=${encodeURIComponent(g.game_id)}` }, t('player.table', { id: g.game_id })), t('player.tableSeat', { seat: g.seat + 1, date: new Date(g.since).toLocaleDateString(lang) })),
      ),
    );
  } catch (err) {
    showError($('player-error'), errorText(err));
  }
}
show();
