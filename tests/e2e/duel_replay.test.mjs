// The Duel replay page in a real Chromium against the real server: a game played through the
// API to its end is stepped through with the keyboard, and at every action the grid on the page
// is the server's frame of that action; the finished game's page links to its replay.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, apiCall, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();
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

/** The grid as the page draws it: each cell's text, row by row. */
const gridText = (page) => page.$$eval('#board tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('[data-cell]')].map((c) => c.textContent)));
const cellText = (cell) => (cell.kind === 'piece' ? `${cell.side === 'red' ? 'R' : 'B'}${cell.rank}` : cell.kind === 'block' ? '#' : '');

describe('the Duel replay page', () => {
  test('steps through a finished game as the server replays it', async () => {
    const { id } = await post('/api/duel', { difficulty: 'easy', width: 5, height: 4 });
    await post(`/api/duel/${id}/place`, { cell: 'c2', key: 'b' });
    await post(`/api/duel/${id}/next-round`);
    await post(`/api/duel/${id}/place`, { cell: 'a1', key: '6' });
    await post(`/api/duel/${id}/next-round`);
    await post(`/api/duel/${id}/place`, { cell: 'e4', key: '1' });
    await post(`/api/duel/${id}/next-round`);
    await post(`/api/duel/${id}/move`, { cell: 'a1', key: 's' });
    await post(`/api/duel/${id}/end`);
    const record = await api(`/api/duel/${id}/record`);
    assert.equal(record.status, 200, JSON.stringify(record.body));
    const plies = record.body.actions.length;

    const ctx = await env.browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/duel.html?game=${id}`);
    await page.waitForSelector('#outcome:not([hidden])');
    assert.equal(await page.getAttribute('#duel-replay-link', 'href'), `duel-replay.html?game=${id}&ply=0`);
    await page.click('#duel-replay-link');
    await page.waitForSelector('#replay:not([hidden])');
    await noSeriousA11yViolations(page, 'the Duel replay page');
    for (let k = 0; k <= plies; k += 1) {
      await page.waitForFunction((n) => document.body.dataset.ply === String(n), k);
      const frame = await api(`/api/duel/${id}/replay?ply=${k}`);
      assert.deepEqual(await gridText(page), frame.body.view.cells.map((row) => row.map(cellText)), `the grid after action ${k}`);
      assert.match(page.url(), new RegExp(`[?&]ply=${k}(&|$)`));
      if (k < plies) await page.keyboard.press('ArrowRight');
    }
    assert.match(await page.textContent('#stage'), /.+/);
    await page.screenshot({ path: `${ARTIFACTS}duel-replay.png`, fullPage: true });
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.body.dataset.ply === '0');
    await ctx.close();
  });
});
