// @ts-check
// The statistics page: `GET /api/stats` a page at a time (`stats.html?offset=N`), as a table.
import { num, t } from './i18n.js';
import { $, field, el, request, showError } from './api.js';
import { errorText } from './refusals.js';

/** @typedef {import('./protocol').StatsPage} StatsPage the answer of `GET /api/stats` */
/** @typedef {import('./protocol').PlayerStats} PlayerStats */

const PAGE = 50;
const params = new URLSearchParams(location.search);
let offset = Math.max(0, Number.parseInt(params.get('offset') || '0', 10) || 0);

async function show() {
  try {
    const s = /** @type {StatsPage} */ (await request('GET', `/api/stats?limit=${PAGE}&offset=${offset}`));
    showError($('stats-error'), '');
    $('stats-summary').textContent = t('stats.summary', { players: t('stats.players', { n: s.total }), games: t('stats.games', { n: s.games }) });
    $('stats-caption').textContent = s.players.length ? t('stats.caption', { from: s.offset + 1, to: s.offset + s.players.length, total: s.total }) : t('stats.none');
    $('stats-rows').replaceChildren(
      ...s.players.map((/** @type {PlayerStats} */ p) =>
        el(
          'tr',
          {},
          // An account's row links to its profile; a guest's is the name typed at the table.
          el('th', { scope: 'row' }, p.account ? el('a', { href: `player.html?id=${encodeURIComponent(p.account)}` }, p.name) : el('span', { class: 'guest-name' }, p.name)),
          el('td', {}, num(p.games)),
          el('td', {}, num(p.wins)),
          el('td', {}, num(p.points)),
          el('td', {}, num(p.challenges_won)),
          el('td', {}, num(p.uno_missed)),
        ),
      ),
    );
    $('stats').hidden = false;
    field('stats-prev').disabled = offset === 0;
    field('stats-next').disabled = offset + s.players.length >= s.total;
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
