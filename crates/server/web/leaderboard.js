// @ts-check
// The leaderboard page: `GET /api/leaderboard/{preset}?size=…` for the chosen rules and table
// size, with the bots' published levels on the same scale.
import { $, el, field, request, showError } from './api.js';
import { num, t } from './i18n.js';
import { errorText } from './refusals.js';
import { ratingText } from './rating.js';

/** @typedef {import('./protocol').Leaderboard} Leaderboard */
/** @typedef {import('./protocol').UnoOptions} UnoOptions */

const params = new URLSearchParams(location.search);

async function show() {
  const preset = field('board-preset').value || 'official';
  const size = field('board-size').value || 'table';
  try {
    const b = /** @type {Leaderboard} */ (await request('GET', `/api/leaderboard/${encodeURIComponent(preset)}?size=${size}`));
    showError($('board-error'), '');
    $('board-summary').textContent = t('board.summary', { players: t('board.players', { n: b.total }), games: t('board.minGames', { n: b.min_games }), pool: b.pool, days: b.active_days });
    $('board-rows').replaceChildren(
      ...b.rows.map((r) =>
        el('tr', {}, el('td', {}, num(r.rank)), el('th', { scope: 'row' }, el('a', { href: `player.html?id=${encodeURIComponent(r.id)}` }, r.name)), el('td', {}, ratingText(r.rating)), el('td', {}, num(r.rating.games))),
      ),
    );
    $('board-bots').replaceChildren(...b.bots.map((bot) => el('li', {}, `${bot.bot}: ${bot.points}`)));
    history.replaceState(null, '', `leaderboard.html?preset=${encodeURIComponent(preset)}&size=${size}`);
  } catch (err) {
    showError($('board-error'), errorText(err));
  }
}

async function start() {
  try {
    const o = /** @type {UnoOptions} */ (await request('GET', '/api/uno/options'));
    const want = params.get('preset') || 'official';
    $('board-preset').replaceChildren(...o.presets.map((p) => el('option', { value: p, selected: p === want }, p)));
  } catch (err) {
    showError($('board-error'), errorText(err));
  }
  const size = params.get('size');
  if (size) field('board-size').value = size;
  field('board-preset').addEventListener('change', show);
  field('board-size').addEventListener('change', show);
  show();
}
start();
