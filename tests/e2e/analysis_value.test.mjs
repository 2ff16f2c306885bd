// The replay page's quick analysis (the value network) in a real Chromium against the real server:
// the page asks for `method=value`, shows what the server answered (checked against the analysis
// route's own answer: one graph point per decision, every legal move's chance) and says which
// method made the graph; the playouts' analysis of the same seat is then shown as such.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, apiCall, finishedBotGame, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);

const pct = (x) => `${(100 * x).toFixed(1)}%`;

describe('the value network analysis on the replay page', () => {
  test('shows the network analysis and says which method made it', async () => {
    const id = await finishedBotGame(env.server.base, 12);
    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const page = await ctx.newPage();
    const asked = [];
    page.on('response', (r) => {
      if (r.url().includes('/analysis?')) asked.push({ url: r.url(), body: r.json().catch(() => null) });
    });
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=seat1&ply=0`);
    await page.waitForSelector('#replay:not([hidden])');
    await page.click('#analyse-value');
    await page.waitForSelector('#analysis-result[data-method="value"]', { timeout: 60000 });
    assert.equal(asked.length, 1);
    assert.match(asked[0].url, /[?&]method=value(&|$)/);
    const a = await asked[0].body;
    assert.equal(a.method, 'value');
    // The server's answer, asked again: the same, from its cache.
    const again = await api(`/api/games/${id}/analysis?seat=1&method=value`);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.cached, true);
    assert.deepEqual(again.body.decisions, a.decisions);
    assert.ok(a.decisions.length > 0, 'seat 1 took no decision');

    // The page names the method where the graph and the figures are.
    assert.match(await page.textContent('#analysis-status'), /by the value network/);
    assert.match(await page.textContent('#analysis-summary'), /^By the value network: \d+ decisions/);
    assert.match(await page.textContent('#analysis-method'), /^by the value network/);
    assert.match(await page.getAttribute('#analysis-graph svg', 'aria-label'), /by the value network/);
    assert.equal(await page.locator('#analysis-graph .point').count(), a.decisions.length);
    assert.equal(await page.locator('#analysis-graph .point.mistake').count(), a.decisions.filter((d) => d.mistake).length);
    await page.screenshot({ path: `${ARTIFACTS}replay-analysis-value.png`, fullPage: true });
    await noSeriousA11yViolations(page, 'the replay page with the value network analysis');

    // A decision, reached by its graph point: every legal move with the network's chance.
    const d = a.decisions[0];
    await page.click(`#analysis-graph .point[data-ply="${d.ply + 1}"]`);
    await page.waitForFunction((n) => document.body.dataset.ply === String(n), d.ply + 1);
    assert.match(await page.textContent('#analysis-decision caption'), /valued by the value network/);
    const cells = await page.$$eval('#analysis-decision tbody tr', (trs) => trs.map((tr) => tr.cells[1].textContent));
    assert.deepEqual(
      cells,
      d.values.map((v) => pct(v.win)),
    );

    // The playouts' analysis of the same seat: another answer, shown as the playouts'.
    await page.selectOption('#samples', '100');
    await page.click('#analyse');
    await page.waitForSelector('#analysis-result[data-method="playouts"]', { timeout: 60000 });
    assert.equal(asked.length, 2);
    assert.doesNotMatch(asked[1].url, /method=/);
    assert.equal((await asked[1].body).method, 'playouts');
    assert.match(await page.textContent('#analysis-summary'), /^By playouts: /);
    assert.match(await page.textContent('#analysis-method'), /^by playouts/);
    // Back to the network's: from the page's own copy, no new request.
    await page.click('#analyse-value');
    await page.waitForSelector('#analysis-result[data-method="value"]');
    assert.equal(asked.length, 2);
    await ctx.close();
  });
});
