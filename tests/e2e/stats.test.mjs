// The statistics page in a real Chromium against the real server: two people play a game
// through the API; the lobby links to the page, which lists them as `/api/stats` does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();
const api = (path, init) => apiCall(env.server.base, path, init);

/** Ann and Bob play one round: a card when they have one, otherwise whatever else is legal. */
async function playedGame() {
  const created = await api('/api/tables', {
    method: 'POST',
    body: JSON.stringify({ preset: 'official', house_rules: { match_target: 0 }, seed: 3, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }] }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { id } = created.body;
  const joined = await api(`/api/tables/${id}/join`, { method: 'POST', body: JSON.stringify({ name: 'Bob' }) });
  const tokens = [created.body.token, joined.body.token];
  for (let i = 0; i < 2000; i += 1) {
    const views = await Promise.all(tokens.map((t) => api(`/api/tables/${id}`, { headers: { Authorization: `Bearer ${t}` } })));
    if (views[0].body.status === 'finished') return;
    const seat = views[0].body.view.current;
    const legal = views[seat].body.legal_actions;
    const action = legal.find((a) => a.type === 'play') || legal.find((a) => a.type !== 'call_uno' && a.type !== 'catch_uno') || legal[0];
    const r = await api(`/api/tables/${id}/actions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens[seat]}` },
      body: JSON.stringify({ action, version: views[seat].body.version }),
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  throw new Error('the game did not end');
}

describe('the statistics page', () => {
  test('lists the players as the API counts them', async () => {
    await playedGame();
    const stats = await api('/api/stats');
    assert.equal(stats.status, 200);
    assert.deepEqual(stats.body.players.map((p) => p.name).sort(), ['Ann', 'Bob']);
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.click('a[href="stats.html"]');
    await page.waitForSelector('#stats:not([hidden])');
    const rows = await page.$$eval('#stats-rows tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.deepEqual(
      rows,
      stats.body.players.map((p) => [p.name, p.games, p.wins, p.points, p.challenges_won, p.uno_missed].map(String)),
    );
    assert.match(await page.textContent('#stats-summary'), /^2 players in 1 finished game\./);
    await noSeriousA11yViolations(page, 'the statistics page');
    await page.close();

    // On a phone (390 px) the table fits: nothing scrolls sideways.
    const phone = await env.browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${env.server.base}/stats.html`);
    await phone.waitForSelector('#stats:not([hidden])');
    const wide = await phone.evaluate(() => ({ page: document.documentElement.scrollWidth, table: document.getElementById('stats').getBoundingClientRect().right }));
    assert.ok(wide.page <= 390 && wide.table <= 390, `the statistics page is ${wide.page} px wide, its table ends at ${wide.table} px`);
    await phone.close();
  });
});
