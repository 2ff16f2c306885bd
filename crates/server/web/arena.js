// @ts-check
// The arena pages: the arenas now (open one, pick one), and one arena: join it, its standings
// (read again every second, so they change as games end), the tables in play, and the holder's
// own table, one click away (its seat kept in the browser as at any table).
import { $, el, field, request, showError } from './api.js';
import { num, t } from './i18n.js';
import { errorText } from './refusals.js';
import { saveName, savedName, saveSeat } from './seatstore.js';

/** @typedef {import('./protocol').ArenaView} ArenaView */
/** @typedef {import('./protocol').ArenaList} ArenaList */
/** @typedef {import('./protocol').ArenaJoined} ArenaJoined */

const KEY = (/** @type {string} */ id) => `tabletop.arena.${id}`;

/** @param {string} id */
function savedToken(id) {
  try {
    return localStorage.getItem(KEY(id));
  } catch {
    return null;
  }
}

/** @param {number} ms */
function clock(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

async function hall() {
  $('arena-hall').hidden = false;
  $('arena-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const a = /** @type {ArenaView} */ (await request('POST', '/api/arenas', { name: field('arena-name').value.trim(), minutes: Number(field('arena-minutes').value) }));
      location.assign(`arena.html?arena=${encodeURIComponent(a.id)}`);
    } catch (err) {
      showError($('arena-error'), errorText(err, { name: true }));
    }
  });
  try {
    const list = /** @type {ArenaList} */ (await request('GET', '/api/arenas'));
    $('arenas-empty').hidden = list.arenas.length > 0;
    $('arena-list').replaceChildren(
      ...list.arenas.map((a) => el('li', {}, el('a', { href: `arena.html?arena=${encodeURIComponent(a.id)}` }, a.name), a.finished ? t('arena.over.short') : t('arena.inIt', { n: a.standings.length, left: clock(a.ends_in_ms) }))),
    );
  } catch (err) {
    showError($('arena-error'), errorText(err));
  }
}

/** @param {string} id */
async function arena(id) {
  $('arena').hidden = false;
  let token = savedToken(id);
  /** @type {string | null} */
  let shownTable = null;

  /** @param {ArenaView} a */
  function draw(a) {
    $('arena-title').textContent = t('arena.named', { name: a.name });
    document.title = t('arena.pageTitle', { name: a.name });
    document.body.dataset.arenaVersion = String(a.version);
    $('arena-clock').textContent = a.finished ? t('arena.over') : a.ends_in_ms > 0 ? t('arena.left', { left: clock(a.ends_in_ms), n: a.games }) : t('arena.timeUp');
    $('arena-scoring').textContent = t('arena.scoring', { points: a.place_points.map(num).join(', '), bonus: a.streak_bonus });
    $('arena-join').hidden = !!a.you || a.finished || a.ends_in_ms === 0;
    $('arena-leave').hidden = !a.you;
    $('standings-rows').replaceChildren(
      ...a.standings.map((s) =>
        el(
          'tr',
          { class: s.name === a.you ? 'me' : undefined, dataset: { name: s.name } },
          el('td', {}, num(s.rank)),
          el('th', { scope: 'row' }, s.name === a.you ? t('arena.you', { name: s.name }) : s.name),
          el('td', { class: 'points' }, num(s.points)),
          el('td', { class: 'games' }, num(s.games)),
          el('td', {}, num(s.wins)),
          el('td', {}, num(s.streak)),
          el('td', {}, s.presence === 'playing' ? t('arena.playing') : s.presence === 'left' ? t('arena.gone') : t('arena.waiting')),
        ),
      ),
    );
    $('arena-tables').replaceChildren(...a.tables.map((g) => el('li', {}, el('a', { href: `uno.html?table=${encodeURIComponent(g.table)}&watch` }, t('live.watch', { name: g.names.join(', ') })))));
    const mine = a.your_table;
    if (mine) {
      if (shownTable !== mine.table) {
        saveSeat(mine.table, mine.seat, mine.token);
        shownTable = mine.table;
      }
      $('your-table').replaceChildren(t('arena.ready'), el('a', { id: 'your-table-link', href: `uno.html?table=${encodeURIComponent(mine.table)}` }, t('arena.play')), '.');
    } else {
      $('your-table').textContent = a.you ? (a.finished ? '' : t('arena.next')) : '';
    }
  }

  async function refresh() {
    try {
      draw(/** @type {ArenaView} */ (await request('GET', `/api/arenas/${encodeURIComponent(id)}`, undefined, token)));
    } catch (err) {
      showError($('arena-error'), errorText(err));
    }
  }

  field('arena-join-name').value = savedName();
  $('arena-join-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = field('arena-join-name').value.trim();
    try {
      const j = /** @type {ArenaJoined} */ (await request('POST', `/api/arenas/${encodeURIComponent(id)}/join`, { name }));
      saveName(name);
      token = j.token;
      try {
        localStorage.setItem(KEY(id), j.token);
      } catch {
        /* this page only */
      }
      showError($('arena-error'), '');
      draw(j.arena);
    } catch (err) {
      showError($('arena-error'), errorText(err, { name: true }));
    }
  });
  $('arena-leave').addEventListener('click', async () => {
    try {
      await request('POST', `/api/arenas/${encodeURIComponent(id)}/leave`, undefined, token);
      refresh();
    } catch (err) {
      showError($('arena-error'), errorText(err));
    }
  });
  await refresh();
  setInterval(refresh, 1000);
}

const id = new URLSearchParams(location.search).get('arena');
(id ? arena(id) : hall()).then(() => {
  document.body.dataset.ready = 'true';
});
