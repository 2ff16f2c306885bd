// Every page in the players' languages (issue 43 item 8), beyond the lobby and the table that
// languages.test.mjs covers: the Duel game and its replay, the UNO replay with its analysis,
// the statistics, the leaderboard, a player's page, the account page, the arenas, and the
// lobby's quick match, games to watch and arenas. Each on a 390×844 touch phone in English,
// Spanish, French, German, Brazilian Portuguese and Japanese (from the browser's locale): its
// headings in the language's own catalogue (crates/server/web/i18n-LANG.js, read here), a
// screenshot, nothing running off the screen, no script error. Then a language chosen on one of
// these pages is the language of every other, with the list in each header; and only the chosen
// language's catalogue is fetched.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, ARTIFACTS, finishedBotGame, overflowing, PHONE, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
const WEB = new URL('../../crates/server/web/', import.meta.url);

const LANGUAGES = [
  { tag: 'en', locale: 'en-GB', file: 'en', name: 'en' },
  { tag: 'es', locale: 'es-MX', file: 'es', name: 'es' },
  { tag: 'fr', locale: 'fr-FR', file: 'fr', name: 'fr' },
  { tag: 'de', locale: 'de-DE', file: 'de', name: 'de' },
  { tag: 'pt-BR', locale: 'pt-BR', file: 'pt-BR', name: 'ptBR' },
  { tag: 'ja', locale: 'ja-JP', file: 'ja', name: 'ja' },
];

/** A language's catalogue, as the pages load it. */
async function catalogue(l) {
  const m = await import(new URL(`i18n-${l.file}.js`, WEB).href);
  return m[l.name];
}


/** What each page is made of for the test: made once (games, an account, an arena). */
let made = null;
async function fixtures() {
  if (made) return made;
  const unoGame = await finishedBotGame(env.server.base, 21);
  // A Duel game played to its end through the API.
  const duel = await api('/api/duel', { method: 'POST', body: JSON.stringify({ difficulty: 'easy', width: 5, height: 4 }) });
  assert.ok(duel.status < 300, JSON.stringify(duel.body));
  const auth = { Authorization: `Bearer ${duel.body.token}` };
  for (const [path, body] of [
    ['place', { cell: 'c2', key: 'b' }],
    ['next-round'],
    ['place', { cell: 'a1', key: '6' }],
    ['next-round'],
    ['place', { cell: 'e4', key: '1' }],
    ['next-round'],
    ['move', { cell: 'a1', key: 's' }],
    ['end'],
  ]) {
    const r = await api(`/api/duel/${duel.body.id}/${path}`, { method: 'POST', headers: auth, body: body ? JSON.stringify(body) : undefined });
    assert.ok(r.status < 300, `${path}: ${JSON.stringify(r.body)}`);
  }
  const account = await api('/api/account/sign-up', { method: 'POST', body: JSON.stringify({ name: 'Lena Languages', password: 'pass word 1' }) });
  assert.ok(account.status < 300, JSON.stringify(account.body));
  const arena = await api('/api/arenas', { method: 'POST', body: JSON.stringify({ name: 'Vierer', minutes: 30 }) });
  assert.ok(arena.status < 300, JSON.stringify(arena.body));
  made = { unoGame, duelGame: duel.body.id, player: account.body.account.id, arena: arena.body.id };
  return made;
}

/**
 * The pages: where each is, what to wait for, and which element shows which key's words.
 * `words` is [selector, key] (the element's text is the key's) or [selector, key, 'start']
 * (its text starts with the key's up to the first `{`).
 */
const PAGES = [
  { name: 'lobby-sections', path: () => '/uno.html', ready: 'body[data-ready="true"]', words: [['#quick-title', 'quick.title'], ['#quick-match', 'quick.title'], ['#live-title', 'live.title'], ['label[for="quick-players"]', 'quick.players'], ['a[href="arena.html"]', 'lobby.arenas']] },
  { name: 'duel', path: () => '/duel.html', ready: '#new-game:not([hidden])', words: [['#new-game-title', 'duel.new'], ['#start', 'duel.start'], ['label[for="difficulty"]', 'duel.difficulty'], ['#difficulty option[value="easy"]', 'duel.diff.easy']] },
  { name: 'duel-game', path: (f) => `/duel.html?game=${f.duelGame}`, ready: '#outcome:not([hidden])', words: [['#stage-title', 'duel.endTitle'], ['#instructions', 'duel.ins.end'], ['#log-title', 'duel.log'], ['#outcome-title', 'duel.over']] },
  { name: 'duel-replay', path: (f) => `/duel-replay.html?game=${f.duelGame}&ply=3`, ready: '#replay:not([hidden])', words: [['#page-title', 'dreplay.heading'], ['#export', 'replay.download'], ['#ply-label', 'replay.action', 'start']] },
  { name: 'replay', path: (f) => `/replay.html?game=${f.unoGame}&view=seat0&ply=5`, ready: '#replay:not([hidden])', words: [['label[for="perspective"]', 'replay.seenBy'], ['#timeline-title', 'replay.timeline'], ['#analysis-title', 'replay.analysis'], ['#analyse', 'an.analyse'], ['#ply-label', 'replay.action', 'start']] },
  { name: 'stats', path: () => '/stats.html', ready: '#stats:not([hidden])', words: [['h1', 'stats.heading'], ['#stats-prev', 'stats.prev'], ['#stats thead th', 'stats.col.player']] },
  { name: 'leaderboard', path: () => '/leaderboard.html', ready: '#board-summary:not(:empty)', words: [['h1', 'board.heading'], ['#board thead th', 'board.col.rank'], ['main h2', 'board.bots']] },
  { name: 'player', path: (f) => `/player.html?id=${f.player}`, ready: '#player-summary:not(:empty)', words: [['#player-ratings + h2', 'player.recent'], ['#player-ratings p', 'player.noRated']] },
  { name: 'account', path: () => '/account.html', ready: '#signed-out:not([hidden]), #signed-in:not([hidden])', words: [['h1', 'account.heading'], ['#sign-in', 'account.signIn'], ['#sign-up', 'account.signUp']] },
  { name: 'arenas', path: () => '/arena.html', ready: 'body[data-ready="true"]', words: [['h1', 'arena.heading'], ['#new-arena-title', 'arena.new'], ['#arena-create', 'arena.create'], ['#arenas-title', 'arena.now']] },
  { name: 'arena', path: (f) => `/arena.html?arena=${f.arena}`, ready: 'body[data-ready="true"]', words: [['#standings-title', 'arena.standings'], ['#arena-join-title', 'arena.join'], ['#arena-tables-title', 'arena.tables'], ['#arena-title', 'arena.named', 'start']] },
];

/** A key's words with `{…}` left out (the part before the first placeholder). */
const fixedPart = (text) => text.split('{')[0];

describe('every page in six languages', () => {
  for (const l of LANGUAGES) {
    test(`${l.tag}: every page on a phone, in the language, nothing off the screen`, async () => {
      const f = await fixtures();
      const words = await catalogue(l);
      const ctx = await env.browser.newContext({ viewport: PHONE, locale: l.locale, hasTouch: true, isMobile: true });
      const errors = [];
      ctx.on('weberror', (e) => errors.push(String(e.error())));
      const page = await ctx.newPage();
      for (const p of PAGES) {
        await page.goto(`${env.server.base}${p.path(f)}`);
        await page.waitForSelector(p.ready);
        const where = `${l.tag} ${p.name}`;
        assert.equal(await page.evaluate(() => document.documentElement.lang), l.tag, where);
        assert.equal(await page.inputValue('#language'), l.tag, `${where}: the language list`);
        for (const [selector, key, how] of p.words) {
          const want = words[key];
          assert.equal(typeof want, 'string', `${key} in ${l.tag}`);
          const shown = (await page.locator(selector).first().textContent()).trim();
          if (how === 'start') assert.ok(shown.startsWith(fixedPart(want).trim()), `${where} ${selector}: "${shown}" does not start with "${fixedPart(want)}"`);
          else assert.equal(shown, want.trim(), `${where} ${selector}`);
        }
        await page.screenshot({ path: `${ARTIFACTS}lang-${l.tag}-${p.name}-phone.png`, fullPage: true });
        assert.deepEqual(await overflowing(page), [], where);
      }
      assert.deepEqual(errors, [], `${l.tag}: script errors`);
      await ctx.close();
    });
  }

  test('a language chosen on one page is every page’s, its list in every header', async () => {
    const f = await fixtures();
    const de = await catalogue(LANGUAGES[3]);
    const ctx = await env.browser.newContext({ locale: 'en-US' });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/stats.html`);
    await page.waitForSelector('#language');
    await Promise.all([page.waitForNavigation(), page.selectOption('#language', 'de')]);
    await page.waitForSelector('#stats:not([hidden])');
    assert.equal((await page.textContent('h1')).trim(), de['stats.heading']);
    for (const p of PAGES) {
      await page.goto(`${env.server.base}${p.path(f)}`);
      await page.waitForSelector(p.ready);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'de', p.name);
      assert.equal(await page.inputValue('#language'), 'de', `${p.name}: the language list`);
      const [selector, key] = p.words[0];
      if (p.words[0][2] !== 'start') assert.equal((await page.locator(selector).first().textContent()).trim(), de[key].trim(), p.name);
    }
    // And back to English from the last page, for every page again.
    await Promise.all([page.waitForNavigation(), page.selectOption('#language', 'en')]);
    await page.goto(`${env.server.base}/duel.html`);
    await page.waitForSelector('#new-game:not([hidden])');
    assert.equal((await page.textContent('#new-game-title')).trim(), 'New game');
    await ctx.close();
  });

  test('a page fetches its own language’s catalogue only', async () => {
    const ctx = await env.browser.newContext({ locale: 'ja-JP' });
    const page = await ctx.newPage();
    const fetched = [];
    page.on('request', (r) => {
      const m = /\/i18n-([\w-]+)\.js$/.exec(new URL(r.url()).pathname);
      if (m) fetched.push(m[1]);
    });
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    assert.deepEqual(fetched, ['ja']);
    await ctx.close();
  });
});
