// @ts-check
// The statistics page: `GET /api/stats` a page at a time (`stats.html?offset=N`), as a table.
import { el, request, showError } from './api.js';
import { errorText } from './refusals.js';

/** @typedef {import('./protocol').StatsPage} StatsPage the answer of `GET /api/stats` */
/** @typedef {import('./protocol').PlayerStats} PlayerStats */

/**
 * An element of stats.html (every id asked for is in the page).
 * @param {string} id
 * @returns {HTMLElement & { disabled: boolean }}
 */
function $(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`stats.html has no #${id}`);
  return /** @type {any} */ (found);
}
const PAGE = 50;
const params = new URLSearchParams(location.search);
let offset = Math.max(0, Number.parseInt(params.get('offset') || '0', 10) || 0);

async function show() {
  try {
    const s = /** @type {StatsPage} */ (await request('GET', `/api/stats?limit=${PAGE}&offset=${offset}`));
    showError($('stats-error'), '');
    $('stats-summary').textContent = `${s.total} player${s.total === 1 ? '' : 's'} in ${s.games} finished game${s.games === 1 ? '' : 's'}.`;
    $('stats-caption').textContent = s.players.length ? `Players ${s.offset + 1} to ${s.offset + s.players.length} of ${s.total}` : 'No player on this page';
    $('stats-rows').replaceChildren(
      ...s.players.map((/** @type {PlayerStats} */ p) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, p.name),
          el('td', {}, String(p.games)),
          el('td', {}, String(p.wins)),
          el('td', {}, String(p.points)),
          el('td', {}, String(p.challenges_won)),
          el('td', {}, String(p.uno_missed)),
        ),
      ),
    );
    $('stats').hidden = false;
    $('stats-prev').disabled = offset === 0;
    $('stats-next').disabled = offset + s.players.length >= s.total;
    history.replaceState(null, '', offset ? `stats.html?offset=${offset}` : 'stats.html');
  } catch (err) {
    showError($('stats-error'), errorText(err));
  }
}

$('stats-prev').addEventListener('click', () => {
  offset = Math.max(0, offset - PAGE);
  show();
});
$('stats-next').addEventListener('click', () => {
  offset += PAGE;
  show();
});
show();
