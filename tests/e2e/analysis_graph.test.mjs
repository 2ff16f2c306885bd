// The replay page's analysis graph in a real Chromium, for a game of several rounds: its points
// are reachable by keyboard (one tab stop; ← → Home End move between the decisions and go to
// each move), each named for screen readers; and none of its labels overlap another or leave
// the graph (checked on the boxes the browser lays out, at a desktop and a phone width).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);

/** A finished game of three bots played to 250 points: several rounds (seed 2: eight, one of them
 * with only a few decisions of seat 1, whose label has little room). */
async function manyRounds(seed) {
  const bot = { kind: 'bot', bot: 'heuristic' };
  const { status, body } = await api('/api/tables', {
    method: 'POST',
    body: JSON.stringify({ preset: 'official', house_rules: { match_target: 250 }, seed, seats: [bot, bot, bot] }),
  });
  assert.equal(status, 201, JSON.stringify(body));
  for (let i = 0; i < 1200; i += 1) {
    if ((await api(`/api/tables/${body.id}`)).body.status === 'finished') return body.id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the bots did not finish their game');
}

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function labelsApart(page, where) {
  const { svg, labels } = await page.evaluate(() => {
    const box = (n) => {
      const r = n.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, text: n.textContent };
    };
    return { svg: box(document.querySelector('#analysis-graph svg')), labels: [...document.querySelectorAll('#analysis-graph text')].map(box) };
  });
  assert.ok(labels.some((l) => /round|^\d+$/.test(l.text)), `no round label at ${where}`);
  for (const l of labels) {
    assert.ok(l.x >= svg.x - 0.5 && l.x + l.width <= svg.x + svg.width + 0.5, `"${l.text}" leaves the graph at ${where}`);
  }
  for (let i = 0; i < labels.length; i += 1) {
    for (let j = i + 1; j < labels.length; j += 1) {
      assert.ok(!overlap(labels[i], labels[j]), `"${labels[i].text}" and "${labels[j].text}" overlap at ${where}`);
    }
  }
}

describe('the analysis graph', () => {
  test('its points are reachable by keyboard and named; its labels never overlap', async () => {
    const id = await manyRounds(2);
    const rounds = (await api(`/api/games/${id}/replay?view=all&timeline=true`)).body.timeline.at(-1).round;
    assert.ok(rounds >= 3, `a game of ${rounds} rounds`);
    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await ctx.newPage();
    const answers = [];
    page.on('response', (r) => {
      if (r.url().includes('/analysis?')) answers.push(r.json().catch(() => null));
    });
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=seat1&ply=0`);
    await page.waitForSelector('#replay:not([hidden])');
    await page.selectOption('#samples', '100');
    await page.click('#analyse');
    await page.waitForSelector('#analysis-result:not([hidden])', { timeout: 120000 });
    const a = await answers[0];
    const n = a.decisions.length;
    assert.ok(new Set(a.decisions.map((d) => d.round)).size >= 3, 'seat 1 decided in fewer than 3 rounds');
    await labelsApart(page, '1200 px');

    // One tab stop into the graph, after the analysis controls.
    await page.focus('#analyse-value');
    await page.keyboard.press('Tab');
    const focused = () =>
      page.evaluate(() => {
        const f = document.activeElement;
        return f && f.classList.contains('point') ? { index: Number(f.dataset.index), label: f.getAttribute('aria-label'), role: f.getAttribute('role') } : null;
      });
    let f = await focused();
    assert.ok(f, 'Tab after the analysis controls does not reach a point of the graph');
    assert.equal(f.role, 'button');
    const d0 = a.decisions[f.index];
    assert.match(f.label, new RegExp(`^Action ${d0.ply + 1}: .+, \\d+\\.\\d% to win${d0.mistake ? ' \\(a mistake\\)' : '$'}`));
    // Every point is named.
    const names = await page.$$eval('#analysis-graph .point', (ps) => ps.map((p) => p.getAttribute('aria-label') || ''));
    assert.equal(names.length, n);
    assert.ok(names.every((t) => /^Action \d+: .+ to win/.test(t)), 'a point without a name');

    // → goes to the next decision (its move shown), End to the last, ← back, Home to the first.
    const expectAt = async (i, what) => {
      await page.waitForFunction((p) => document.body.dataset.ply === String(p), a.decisions[i].ply + 1, { timeout: 5000 }).catch(() => {});
      assert.equal((await focused())?.index, i, `focus after ${what}`);
      assert.equal(Number(await page.getAttribute('body', 'data-ply')), a.decisions[i].ply + 1, `the move shown after ${what}`);
      assert.equal(await page.getAttribute('#analysis-decision [data-decision]', 'data-decision'), String(a.decisions[i].ply));
      assert.equal(await page.getAttribute(`#analysis-graph .point[data-index="${i}"]`, 'aria-current'), 'step');
    };
    const start = f.index;
    await page.keyboard.press('ArrowRight');
    await expectAt(start + 1, '→');
    await page.keyboard.press('ArrowRight');
    await expectAt(start + 2, '→ →');
    await page.keyboard.press('ArrowLeft');
    await expectAt(start + 1, '←');
    await page.keyboard.press('End');
    await expectAt(n - 1, 'End');
    await page.keyboard.press('Home');
    await expectAt(0, 'Home');
    // The tab stop stays on the shown decision: Tab away and back lands on it.
    await page.keyboard.press('ArrowRight');
    await expectAt(1, '→ from the first');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.equal((await focused())?.index, 1, 'Tab back into the graph');
    await noSeriousA11yViolations(page, 'the replay page with a graph point focused');

    // On a phone the labels still keep apart.
    await page.setViewportSize({ width: 390, height: 844 });
    await labelsApart(page, '390 px');
    await ctx.close();
  });
});
