// The replay page in a real Chromium against the real server: a game of three bots is played to
// its end, then stepped through from seat 1's chair with the keyboard. At every ply the DOM and
// every frame the page fetched show seat 1's own hand (checked against the whole table, which the
// API opens once the game is over) and no other hand; the URL follows the ply; the perspective
// switch, autoplay, a link to a ply and "play from here" work; a live table offers neither the
// whole table nor another seat's chair.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, apiCall, finishedBotGame, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
const finishedGame = (seed) => finishedBotGame(env.server.base, seed);

const sorted = (cards) => [...cards].sort();
const cardsIn = (page, selector) => page.$$eval(`${selector} [data-card]`, (ns) => ns.map((n) => n.dataset.card));
const plyOf = async (page) => Number(await page.getAttribute('body', 'data-ply'));

describe('the replay page', () => {
  test('steps through a finished game from one seat without showing a hidden card', async () => {
    const id = await finishedGame(11);
    // The whole table at every ply, from the API (open now that the game is over).
    const end = await api(`/api/games/${id}/replay?view=all`);
    assert.equal(end.status, 200, JSON.stringify(end.body));
    const plies = end.body.plies;
    assert.ok(plies > 10, `a game of ${plies} actions`);
    const everyone = [];
    for (let k = 0; k <= plies; k += 1) everyone.push((await api(`/api/games/${id}/replay?view=all&ply=${k}`)).body.all_hands);

    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const page = await ctx.newPage();
    const fetched = [];
    page.on('response', async (r) => {
      if (r.url().includes('/replay?')) fetched.push(r.json().catch(() => null));
    });
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=seat1&ply=0`);
    await page.waitForSelector('#replay:not([hidden])');
    assert.equal(await plyOf(page), 0);
    await page.screenshot({ path: `${ARTIFACTS}replay-seat1.png`, fullPage: true });
    await noSeriousA11yViolations(page, 'the replay page');
    // The perspective switch offers the whole table: the game is over.
    const options = await page.$$eval('#perspective option', (os) => os.map((o) => o.value));
    assert.deepEqual(options, ['seat0', 'seat1', 'seat2', 'spectator', 'all']);

    for (let k = 0; k <= plies; k += 1) {
      assert.equal(await plyOf(page), k);
      assert.match(page.url(), new RegExp(`[?&]ply=${k}(&|$)`));
      assert.match(await page.textContent('#ply-label'), new RegExp(`^Action ${k} of ${plies}`));
      // Seat 1's own hand, exactly; nobody else's cards (the last ply reveals the hands: the
      // round is over, as at the table).
      assert.deepEqual(sorted(await cardsIn(page, '#hand')), sorted(everyone[k][1]), `seat 1's hand at ply ${k}`);
      if (k < plies) assert.deepEqual(await cardsIn(page, '#players'), [], `another hand shown at ply ${k}`);
      if (k < plies) {
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction((n) => document.body.dataset.ply === String(n), k + 1);
      }
    }
    // Every frame the page received was seat 1's, with only seat 1's cards.
    const frames = (await Promise.all(fetched)).filter(Boolean);
    assert.ok(frames.length >= plies, `${frames.length} frames fetched`);
    for (const f of frames) {
      assert.equal(f.perspective, 'seat1');
      assert.equal(f.all_hands, null);
      assert.deepEqual(sorted(f.view.hand), sorted(everyone[f.ply][1]), `frame of ply ${f.ply}`);
    }

    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.body.dataset.ply === '0');
    await page.keyboard.press('End');
    await page.waitForFunction((n) => document.body.dataset.ply === String(n), plies);

    // The perspective switch: a spectator sees no hand; the whole table sees every hand.
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.body.dataset.ply === '0');
    await page.selectOption('#perspective', 'spectator');
    await page.waitForFunction(() => document.getElementById('hand-section').hidden);
    assert.match(page.url(), /view=spectator/);
    assert.deepEqual(await cardsIn(page, '#hand'), []);
    assert.deepEqual(await cardsIn(page, '#players'), []);
    await page.selectOption('#perspective', 'all');
    await page.waitForFunction(() => document.querySelectorAll('#players [data-card]').length > 0);
    assert.deepEqual(sorted(await cardsIn(page, '#players')), sorted(everyone[0].flat()));

    // Autoplay moves on by itself, and stops when asked.
    await page.selectOption('#speed', '250');
    await page.click('#autoplay');
    await page.waitForFunction(() => Number(document.body.dataset.ply) >= 3, null, { timeout: 10000 });
    await page.click('#autoplay');
    assert.equal(await page.getAttribute('#autoplay', 'aria-pressed'), 'false');

    // A link to a position opens at it; a timeline entry goes to its ply.
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=seat2&ply=7`);
    await page.waitForSelector('#replay:not([hidden])');
    assert.equal(await plyOf(page), 7);
    assert.deepEqual(sorted(await cardsIn(page, '#hand')), sorted(everyone[7][2]));
    await page.click('#timeline a[data-ply="4"]');
    await page.waitForFunction(() => document.body.dataset.ply === '4');
    assert.equal(await page.getAttribute('#timeline a[data-ply="4"]', 'aria-current'), 'step');

    // Play from here: a new table at this position, seat 2 taken by this browser.
    // The answer is read on its way to the page (the page navigates away once it has it).
    let created = null;
    await page.route('**/api/tables', async (route) => {
      const response = await route.fetch();
      created = await response.json();
      await route.fulfill({ response });
    });
    await page.click('#play-from-here');
    await page.waitForURL(/uno\.html\?table=/);
    assert.ok(created, 'no table was created');
    assert.deepEqual(sorted(created.table.view.hand), sorted(everyone[4][2]));
    assert.equal(created.seat, 2);
    await page.waitForSelector('#play:not([hidden])');
    // The table says which kept game it started from: to its creator, and to whoever the invite
    // goes to, before they sit.
    const from = created.table.started_from;
    assert.deepEqual(from, { table: id, game: 0, ply: 4, imported: false });
    const origin = `replay.html?game=${id}&g=0&ply=4`;
    const guest = await env.browser.newContext();
    for (const p of [page, await guest.newPage()]) {
      if (p !== page) {
        await p.goto(`${env.server.base}/uno.html?table=${created.id}`);
        await p.waitForSelector('#join:not([hidden])');
      }
      await p.waitForSelector('#started-from:not([hidden])');
      assert.match(await p.textContent('#started-from'), new RegExp(`^Started from game 1 of table ${id}, after action 4`));
      assert.equal(await p.getAttribute('#started-from a', 'href'), origin);
    }
    await guest.close();
    await ctx.close();
  });

  test('a live table replays only as a spectator to someone without its seat', async () => {
    const { status, body } = await api('/api/tables', {
      method: 'POST',
      body: JSON.stringify({ preset: 'official', name: 'Ann', seed: 4, seats: [{ kind: 'human' }, { kind: 'bot', bot: 'heuristic' }] }),
    });
    assert.equal(status, 201, JSON.stringify(body));
    const all = await api(`/api/games/${body.id}/replay?view=all`);
    assert.equal(all.status, 403);
    assert.equal(all.body.code, 'game_not_over');
    const ctx = await env.browser.newContext();
    const page = await ctx.newPage();
    const fetched = [];
    page.on('response', async (r) => {
      if (r.url().includes('/replay?')) fetched.push(r.json().catch(() => null));
    });
    await page.goto(`${env.server.base}/replay.html?game=${body.id}&view=spectator`);
    await page.waitForSelector('#replay:not([hidden])');
    assert.deepEqual(await page.$$eval('#perspective option', (os) => os.map((o) => o.value)), ['spectator']);
    assert.ok(await page.isHidden('#hand-section'));
    assert.ok(await page.isHidden('#export'));
    for (const f of (await Promise.all(fetched)).filter(Boolean)) {
      assert.equal(f.live, true);
      assert.deepEqual(f.view.hand, []);
      assert.equal(f.all_hands, null);
    }
    // The table page's link for a visitor without a seat, and a hand-made `view=all` or another
    // seat's view: the page opens the spectator's chair and says why, never an empty page.
    for (const view of ['all', 'seat0']) {
      await page.goto(`${env.server.base}/replay.html?game=${body.id}&view=${view}&ply=0`);
      await page.waitForSelector('#replay:not([hidden])');
      assert.equal(new URL(page.url()).searchParams.get('view'), 'spectator', view);
      assert.equal(await page.$eval('#perspective', (s) => s.value), 'spectator');
      assert.ok(await page.isHidden('#replay-error'), view);
      assert.match(await page.textContent('#replay-note'), /still being played, so it shows from a spectator's chair/);
    }
    await ctx.close();
  });
});
