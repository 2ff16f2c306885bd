// The same-number house rule on the UNO page: chosen in the lobby, a run offered after a number
// card (the hint, the turn line and the pass button say so), ended with the pass button.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

const RULE = { multi_play: 'same_number' };
const digit = (card) => /^[RYGB]\d$/.test(card);

/** A seed whose two-seat deal has seat 0 to play a number card while holding another of its
 * number; the card to play. Probes tables whose second seat stays open, so nobody plays. */
async function seedWithARun() {
  for (let seed = 1; seed < 400; seed += 1) {
    const r = await fetch(`${env.server.base}/api/tables`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // A bot in the second seat, so the game is dealt at once (a table deals when its people's
      // seats are taken): the same seed, the same deal as the table of two people below.
      body: JSON.stringify({ preset: 'official', house_rules: RULE, seats: [{ kind: 'human', name: 'probe' }, { kind: 'bot', bot: 'first', delay_ms: 10000 }], seed }),
    });
    const created = await r.json();
    assert.equal(r.status, 201, JSON.stringify(created));
    await fetch(`${env.server.base}/api/tables/${created.id}/close`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${created.token}` },
    });
    // Match by hand: the deal as seat 0 sees it.
    const { view } = created.table;
    if (view.current !== 0 || view.phase.phase !== 'play') continue;
    const letter = { red: 'R', yellow: 'Y', green: 'G', blue: 'B' }[view.color];
    const matches = (c) => c[0] === letter || (digit(view.top) && c[1] === view.top[1]);
    const card = view.hand.filter((c) => digit(c) && matches(c)).find((c) => view.hand.filter((h) => digit(h) && h[1] === c[1]).length >= 2);
    if (card) return { seed, card };
  }
  throw new Error('no seed deals seat 0 a run');
}

describe('same-number runs on the UNO page', () => {
  test('the lobby turns the rule on; a run is offered after a number card and ended with pass', async () => {
    const { seed, card } = await seedWithARun();
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/uno.html?seed=${seed}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Pia');
    await page.click('#seat-list li:nth-child(3) .remove-seat');
    await page.selectOption('#bot-level-1', 'random');
    await page.check('#hr-multi-play');
    await page.click('#create');
    await page.waitForSelector('#play:not([hidden])');
    await page.waitForSelector(`#hand button.playable[data-card="${card}"]`);

    const before = Number(await page.getAttribute('body', 'data-version'));
    await page.click(`#hand button.playable[data-card="${card}"]`);
    await page.waitForFunction((k) => Number(document.body.dataset.version || '-1') > k, before);
    await page.waitForSelector('#act-pass');
    assert.equal(await page.textContent('#act-pass'), 'Pass: play no more of this number');
    assert.match(await page.textContent('#turn'), /^Your turn: play another card of the same number or pass\.$/);
    assert.match(await page.textContent('#hand-hint'), new RegExp(`^You may play another ${card[1]} of any colour`));
    const offered = await page.$$eval('#hand button.playable', (bs) => bs.map((b) => b.dataset.card));
    assert.ok(offered.length > 0 && offered.every((c) => c[1] === card[1] && c.length === 2), offered.join(' '));
    assert.equal(await page.locator('#act-draw').count(), 0, 'no draw during a run');
    await page.screenshot({ path: `${ARTIFACTS}uno-same-number-run.png`, fullPage: true });
    await noSeriousA11yViolations(page, 'a same-number run');

    const during = Number(await page.getAttribute('body', 'data-version'));
    await page.click('#act-pass');
    await page.waitForFunction((k) => Number(document.body.dataset.version || '-1') > k, during);
    await page.waitForFunction(() => /You played no more cards of that number\./.test(document.getElementById('uno-log').textContent));
    await page.close();
  });
});
