// Stepping through a replay (UNO and Duel) in a real Chromium: quick presses of the step keys and
// buttons are queued, not lost, even while each frame takes a while to arrive; and stepping never
// scrolls the window (the timeline scrolls inside its own box).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, finishedBotGame, serverAndBrowser, settled } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
/** Each Duel game's token, by game id: its actions need it. */
const tokens = new Map();
const post = async (path, body) => {
  const game = /^\/api\/duel\/([^/]+)\//.exec(path)?.[1];
  const headers = game && tokens.has(game) ? { Authorization: `Bearer ${tokens.get(game)}` } : {};
  const r = await api(path, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  assert.ok(r.status < 300, `${path}: ${JSON.stringify(r.body)}`);
  if (r.body && r.body.token && r.body.id) tokens.set(r.body.id, r.body.token);
  return r.body;
};

const plyOf = async (page) => Number(await page.getAttribute('body', 'data-ply'));

/** The replay frames each page has asked for and not been answered yet. */
const inFlight = new WeakMap();

/** Waits until the shown ply is `n` (or 4 s), then until no frame is on its way and the page has
 * drawn what came (a page that overshoots would show it now), then asserts it: a lost press
 * fails here. */
async function settlesAt(page, n, what) {
  await page.waitForFunction((k) => document.body.dataset.ply === String(k), n, { timeout: 4000 }).catch(() => {});
  const pending = inFlight.get(page);
  while (pending && pending.size > 0) await Promise.all([...pending]);
  await settled(page);
  assert.equal(await plyOf(page), n, what);
}

/** Every frame answers 150 ms late: a person pressing quickly is faster than the server. */
async function slowFrames(page) {
  const pending = new Set();
  inFlight.set(page, pending);
  await page.route(/\/replay\?/, async (route) => {
    const done = (async () => {
      await new Promise((r) => setTimeout(r, 150));
      await route.continue();
      await route.request().response();
    })();
    pending.add(done);
    await done;
    pending.delete(done);
  });
}

const scrollY = (page) => page.evaluate(() => window.scrollY);

describe('stepping through a replay', () => {
  test('UNO: quick key presses and clicks add up, and the window never scrolls', async () => {
    const id = await finishedBotGame(env.server.base, 11);
    const plies = (await api(`/api/games/${id}/replay?view=all`)).body.plies;
    assert.ok(plies > 12, `a game of ${plies} actions`);
    const ctx = await env.browser.newContext({ viewport: { width: 1000, height: 600 } });
    const page = await ctx.newPage();
    await slowFrames(page);
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=seat1&ply=0`);
    await page.waitForSelector('#replay:not([hidden])');
    // The page is taller than the window; the person has scrolled a little, the step buttons in view.
    assert.ok(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 200));
    await page.evaluate(() => window.scrollTo(0, 120));
    const y = await scrollY(page);
    assert.equal(y, 120);

    // Five quick presses of → while the frames are slow: five actions on.
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
    await settlesAt(page, 5, 'five presses of → go five actions on');
    assert.equal(await scrollY(page), y, 'stepping with → scrolled the window');
    // Two ← and End, Home…
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await settlesAt(page, 3, 'two presses of ← go two actions back');
    await page.keyboard.press('End');
    await settlesAt(page, plies, 'End goes to the end');
    assert.equal(await scrollY(page), y, 'End scrolled the window');
    await page.keyboard.press('Home');
    await settlesAt(page, 0, 'Home goes to the deal');
    // Clicks on ▶ come as quickly as a mouse can: three clicks, three actions.
    for (let i = 0; i < 3; i += 1) await page.click('#next');
    await settlesAt(page, 3, 'three clicks on ▶ go three actions on');
    await page.click('#prev');
    await settlesAt(page, 2, 'a click on ◀ goes one back');
    assert.equal(await scrollY(page), y, 'the step buttons scrolled the window');
    // The timeline followed inside its own box: the current step is in view there.
    const inBox = await page.evaluate(() => {
      const box = document.getElementById('timeline').getBoundingClientRect();
      const cur = document.querySelector('#timeline a[aria-current]').getBoundingClientRect();
      return cur.top >= box.top - 1 && cur.bottom <= box.bottom + 1;
    });
    assert.ok(inBox, 'the current step is not in view in the timeline');
    await ctx.close();
  });

  test('Duel: quick key presses add up, and the window never scrolls', async () => {
    const { id } = await post('/api/duel', { difficulty: 'easy', width: 5, height: 4 });
    for (const cell of ['c2', 'd2', 'b3']) await post(`/api/duel/${id}/place`, { cell, key: 'b' });
    await post(`/api/duel/${id}/next-round`);
    await post(`/api/duel/${id}/place`, { cell: 'a1', key: '6' });
    await post(`/api/duel/${id}/place`, { cell: 'b1', key: '5' });
    await post(`/api/duel/${id}/next-round`);
    await post(`/api/duel/${id}/place`, { cell: 'e4', key: '1' });
    await post(`/api/duel/${id}/next-round`);
    await post(`/api/duel/${id}/move`, { cell: 'a1', key: 's' });
    await post(`/api/duel/${id}/end`);
    const plies = (await api(`/api/duel/${id}/record`)).body.actions.length;
    assert.ok(plies >= 10, `${plies} actions`);
    // A phone held sideways: the page is taller than the window.
    const ctx = await env.browser.newContext({ viewport: { width: 700, height: 360 } });
    const page = await ctx.newPage();
    await slowFrames(page);
    await page.goto(`${env.server.base}/duel-replay.html?game=${id}&ply=0`);
    await page.waitForSelector('#replay:not([hidden])');
    await page.evaluate(() => window.scrollTo(0, 60));
    const y = await scrollY(page);
    assert.ok(y > 0, 'the page does not scroll');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    await settlesAt(page, 4, 'four presses of → go four actions on');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await settlesAt(page, 1, 'three presses of ← go three back');
    await page.keyboard.press('End');
    await settlesAt(page, plies, 'End goes to the end');
    assert.equal(await scrollY(page), y, 'stepping scrolled the window');
    await ctx.close();
  });
});
