// The replay page's analysis in a real Chromium against the real server: a finished game of
// three bots is analysed from seat 1's chair. The page shows what the server computed (checked
// against the analysis route's own answer): one graph point per decision, the mistakes marked in
// the graph and the timeline, and for a decision every legal move with its win chance and
// interval, the chosen one marked. A seat of a live table is offered no analysis.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, apiCall, finishedBotGame, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
const finishedGame = (seed) => finishedBotGame(env.server.base, seed);

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

describe('analysis on the replay page', () => {
  test('shows every decision of the seat as the server valued it', async () => {
    const id = await finishedGame(11);
    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const page = await ctx.newPage();
    const answers = [];
    page.on('response', (r) => {
      if (r.url().includes('/analysis?')) answers.push(r.json().catch(() => null));
    });
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=seat1&ply=0`);
    await page.waitForSelector('#replay:not([hidden])');
    assert.ok(await page.isVisible('#analysis-section'));
    await page.selectOption('#samples', '100');
    await page.click('#analyse');
    await page.waitForSelector('#analysis-result:not([hidden])', { timeout: 60000 });
    assert.equal(answers.length, 1);
    const shown = await answers[0];
    // The server's numbers, asked again: the same (from its cache), for the same seat and samples.
    const again = await api(`/api/games/${id}/analysis?seat=1&samples=100`);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.cached, true);
    assert.deepEqual(again.body.decisions, shown.decisions);
    const a = shown;
    assert.equal(a.seat, 1);
    assert.equal(a.samples, 100);
    assert.ok(a.decisions.length > 0, 'seat 1 took no decision');

    // The graph: one point per decision, the mistakes marked; the timeline marks them too.
    const mistakes = a.decisions.filter((d) => d.mistake);
    assert.equal(await page.locator('#analysis-graph .point').count(), a.decisions.length);
    assert.equal(await page.locator('#analysis-graph .point.mistake').count(), mistakes.length);
    assert.equal(await page.locator('#timeline .mistake-mark').count(), mistakes.length);
    for (const d of mistakes) assert.equal(await page.locator(`#timeline a[data-ply="${d.ply + 1}"] .mistake-mark`).count(), 1);
    const summary = await page.textContent('#analysis-summary');
    // Made by playouts, and the page says so.
    assert.equal(a.method, 'playouts');
    assert.match(summary, new RegExp(`^By playouts: ${a.decisions.length} decisions, ${mistakes.length} mistake`));
    assert.match(await page.textContent('#analysis-method'), /^by playouts/);
    // Skill, luck and mistakes are chances of winning, never written as game points.
    assert.doesNotMatch(summary, /\d points/);
    assert.match(summary, /Win chance from skill [+−]?\d+\.\d% .*from luck [+−]?\d+\.\d%/);
    for (const mark of await page.$$eval('#timeline .mistake-mark', (ms) => ms.map((m) => m.textContent))) {
      assert.match(mark, /^✕ mistake \(win chance −\d+\.\d%\)$/);
    }
    await page.screenshot({ path: `${ARTIFACTS}replay-analysis.png`, fullPage: true });
    await noSeriousA11yViolations(page, 'the replay page with its analysis');

    // Each decision, reached by its graph point: every legal move, best first, as valued.
    for (const d of a.decisions.slice(0, 4)) {
      await page.click(`#analysis-graph .point[data-ply="${d.ply + 1}"]`);
      await page.waitForFunction((n) => document.body.dataset.ply === String(n), d.ply + 1);
      assert.equal(await page.getAttribute('#analysis-decision [data-decision]', 'data-decision'), String(d.ply));
      const rows = await page.$$eval('#analysis-decision tbody tr', (trs) =>
        trs.map((tr) => ({ chosen: tr.classList.contains('chosen'), cells: [...tr.cells].map((c) => c.textContent) })),
      );
      assert.equal(rows.length, d.values.length);
      d.values.forEach((v, i) => {
        assert.equal(rows[i].cells[1], pct(v.win));
        assert.equal(rows[i].cells[2], `${pct(v.ci95[0])} – ${pct(v.ci95[1])}`);
        assert.equal(rows[i].chosen, same(v.action, d.chosen), `row ${i} of action ${d.ply + 1}`);
      });
    }
    // Another seat: its own analysis, not seat 1's.
    await page.selectOption('#perspective', 'seat2');
    await page.waitForFunction(() => document.getElementById('analysis-result').hidden);
    await page.selectOption('#perspective', 'spectator');
    await page.waitForFunction(() => document.getElementById('analysis-section').hidden);
    await ctx.close();
  });

  test('a live table offers no analysis', async () => {
    const { status, body } = await api('/api/tables', {
      method: 'POST',
      body: JSON.stringify({ preset: 'official', name: 'Ann', seed: 4, seats: [{ kind: 'human' }, { kind: 'bot', bot: 'heuristic' }] }),
    });
    assert.equal(status, 201, JSON.stringify(body));
    const refused = await api(`/api/games/${body.id}/analysis?seat=0`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'game_not_over');
    const ctx = await env.browser.newContext();
    await ctx.addInitScript(([table, seat]) => localStorage.setItem(`tabletop.uno.${table}`, JSON.stringify(seat)), [body.id, { seat: 0, token: body.token }]);
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/replay.html?game=${body.id}&view=seat0`);
    await page.waitForSelector('#replay:not([hidden])');
    assert.ok(await page.isHidden('#analysis-section'));
    await ctx.close();
  });
});
