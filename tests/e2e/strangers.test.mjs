// Playing with strangers in the browser (issue 41): two people press Quick match and sit at
// the same table; the turn clock everyone sees runs out on one of them, both pages say so, and
// after the second time a bot plays that seat until the person is back; quick phrases shown by
// the seat and muted per person; the game in the lobby's games to watch, one click to watch;
// resigning hands the seat to a bot, said on both pages. On a phone (390×844) and a desktop.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

// A 3-second clock at quick-match tables, so two time-outs take seconds, not a minute.
const env = serverAndBrowser(['--bot-delay-ms', '100', '--quick-turn-secs', '3']);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A person's lobby page, in a browser context of their own. */
async function lobby(viewport) {
  const ctx = await env.browser.newContext({ viewport });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.server.base}/uno.html`);
  await page.waitForSelector('body[data-ready="true"]');
  return { ctx, page, errors };
}

/** Presses Quick match as `name` for a table of two. */
async function quickMatch(page, name) {
  await page.fill('#quick-name', name);
  await page.selectOption('#quick-players', '2');
  await page.click('#quick-match');
}

const text = (page, sel) => page.locator(sel).innerText();

describe('playing with strangers', () => {
  test('quick match seats two people together; the clock runs out, twice, and a bot takes over', async () => {
    const ann = await lobby(PHONE);
    const bob = await lobby(DESKTOP);
    await quickMatch(ann.page, 'Ann');
    await ann.page.waitForFunction(() => document.querySelector('#quick-status')?.textContent?.includes('In the queue'));
    await quickMatch(bob.page, 'Bob');
    for (const p of [ann.page, bob.page]) {
      await p.waitForURL(/uno\.html\?table=/, { timeout: 15000 });
      await p.waitForSelector('#hand button[data-card]');
    }
    assert.equal(new URL(ann.page.url()).search, new URL(bob.page.url()).search, 'the same table');
    // Both see one clock for the seat to move.
    for (const p of [ann.page, bob.page]) await p.waitForSelector('#clock:not([hidden])');
    const mover = (await ann.page.evaluate(() => document.body.dataset.myTurn)) === 'true' ? ann : bob;
    const other = mover === ann ? bob : ann;
    const moverName = mover === ann ? 'Ann' : 'Bob';
    assert.match(await text(mover.page, '#clock'), /Your time: \d+ s left/);
    assert.match(await text(other.page, '#clock'), new RegExp(`${moverName}’s time: \\d+ s left`));
    // Nobody moves. The mover is warned as their time runs out, then both pages say it ran out.
    await mover.page.waitForSelector('#clock-warning:not([hidden])', { timeout: 5000 });
    assert.match(await text(mover.page, '#clock-warning'), /Your time is running out/);
    await mover.page.waitForFunction(() => document.querySelector('#clock-note')?.textContent?.includes('Your time ran out'), null, { timeout: 8000 });
    await other.page.waitForFunction((n) => document.querySelector('#clock-note')?.textContent?.includes(`${n}’s time ran out`), moverName, { timeout: 8000 });
    // The second time in a row: a bot plays the seat until its person is back, on both pages.
    await mover.page.waitForSelector('#away-note:not([hidden])', { timeout: 15000 });
    assert.match(await text(mover.page, '#away-note'), /A bot plays your seat while you are away/);
    await other.page.waitForFunction((n) => document.querySelector('#away-note')?.textContent?.includes(`A bot plays for ${n}`), moverName, { timeout: 8000 });
    assert.match(await text(other.page, '#players'), /away: a bot plays/);
    await ann.page.screenshot({ path: `${ARTIFACTS}strangers-away-phone.png`, fullPage: true });
    // The phone page fits its width.
    const overflow = await ann.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the phone page is ${overflow}px too wide`);
    await noSeriousA11yViolations(mover.page, 'a table whose seat a bot plays');
    // Back: the seat is the person's again, and both pages say so.
    await mover.page.click('#im-back');
    await mover.page.waitForSelector('#im-back', { state: 'hidden' });
    await other.page.waitForFunction((n) => document.querySelector('#clock-note')?.textContent?.includes(`${n} is back`), moverName, { timeout: 8000 });

    // A quick phrase shows beside the seat on the other page; muted, the next one does not.
    await other.page.waitForSelector('#phrase-buttons button[data-phrase="good_game"]');
    await other.page.click('#phrase-buttons button[data-phrase="good_game"]');
    await mover.page.waitForFunction(() => document.querySelector('#players .said')?.textContent?.includes('Good game'));
    await mover.page.click('#mute-buttons button.mute');
    const seen = Number(await mover.page.evaluate(() => document.body.dataset.phrases || '0'));
    await other.page.waitForTimeout(2100); // the server's least time between one seat's phrases
    await other.page.click('#phrase-buttons button[data-phrase="thanks"]');
    await other.page.waitForFunction(() => Number(document.body.dataset.phrases || '0') >= 2);
    assert.equal(Number(await mover.page.evaluate(() => document.body.dataset.phrases || '0')), seen, 'a muted person’s phrase is not shown');

    // The game is in the lobby's games to watch; one click watches it.
    const watcher = await lobby(PHONE);
    await watcher.page.waitForSelector('#live-list a.watch-link');
    assert.match(await text(watcher.page, '#live-list'), /Ann|Bob/);
    await watcher.page.click('#live-list a.watch-link');
    await watcher.page.waitForFunction(() => document.querySelector('#turn')?.textContent?.startsWith('Watching.'));

    // The other person resigns: a bot takes the seat, said on every page.
    const otherName = moverName === 'Ann' ? 'Bob' : 'Ann';
    await other.page.click('#resign');
    await other.page.click('#resign-yes');
    await other.page.waitForFunction(() => document.querySelector('#connection')?.textContent?.includes('You resigned'));
    await mover.page.waitForFunction((n) => document.querySelector('#clock-note')?.textContent?.includes(`${n} resigned`), otherName);
    await watcher.page.waitForFunction((n) => document.querySelector('#players')?.textContent?.includes(`bot for ${n}`), otherName);
    for (const p of [ann, bob, watcher]) {
      assert.deepEqual(p.errors, []);
      await p.ctx.close();
    }
  });

  test('an arena: a person joins, is seated with bots, and sees the standings change', async () => {
    const ctx = await env.browser.newContext({ viewport: PHONE });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.server.base}/arena.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#arena-name', 'Friday night');
    await page.click('#arena-create');
    await page.waitForURL(/arena\.html\?arena=/);
    await page.waitForSelector('#arena-join:not([hidden])');
    await page.fill('#arena-join-name', 'Ann');
    await page.click('#arena-join-button');
    const games = () => page.locator('#standings-rows tr[data-name="Ann"] td.games').innerText();
    await page.waitForSelector('#standings-rows tr[data-name="Ann"]');
    assert.equal(await games(), '0');
    // Alone, she waits one pairing, then sits with three bots: her table is one click away.
    await page.waitForSelector('#your-table-link', { timeout: 10000 });
    assert.match(await page.locator('#standings-rows tr[data-name="Ann"]').innerText(), /playing/);
    // She does not play: her clock runs out twice, a bot plays her seat, the round ends, and
    // the standings count the game with its points, without a reload.
    await page.waitForFunction(() => document.querySelector('#standings-rows tr[data-name="Ann"] td.games')?.textContent === '1', null, { timeout: 90000 });
    const points = Number(await page.locator('#standings-rows tr[data-name="Ann"] td.points').innerText());
    assert.ok([1, 3, 5, 6, 8].includes(points), `points by place: ${points}`);
    await page.screenshot({ path: `${ARTIFACTS}arena-standings-phone.png`, fullPage: true });
    await noSeriousA11yViolations(page, 'an arena\'s standings');
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('the lobby sets a turn time; the table shows the clock to its creator', async () => {
    const ann = await lobby(PHONE);
    await ann.page.fill('#your-name', 'Ann');
    await ann.page.selectOption('#turn-time', '60');
    await ann.page.click('#create');
    await ann.page.waitForSelector('#hand button[data-card]');
    await ann.page.waitForSelector('#clock:not([hidden])');
    assert.match(await text(ann.page, '#clock'), /time: (59|60) s left/);
    assert.deepEqual(ann.errors, []);
    await ann.ctx.close();
  });
});
