// The pages' last traps (issue 43), each played as a person would in Chromium: Duel placements
// typed on a slow link, a file that is not a record opened on the replay page, a tap on a
// phone, and the small defects a first visit meets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, ARTIFACTS, finishedBotGame, noSeriousA11yViolations, serverAndBrowser, settled } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);

/** Every request of `page` answered `ms` later, as over a slow link (Chromium's own network
 * emulation, so the page's code is what it is in the field). */
async function slowLink(page, ms) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: ms, downloadThroughput: -1, uploadThroughput: -1 });
  return cdp;
}

describe('Duel on a slow link', () => {
  test('placements typed 250 ms apart, answered 400 ms late, each land on the cell they were typed on', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/duel.html?width=6&height=6&difficulty=easy`);
    await page.waitForSelector('#new-game:not([hidden])');
    await page.click('#start');
    await page.waitForSelector('#board button[data-cell="a1"]');
    const answered = async () => Number((await page.getAttribute('body', 'data-answered')) || '0');
    let n = await answered();
    await page.click('#next-round');
    await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') > k, n);
    assert.match(await page.textContent('#instructions'), /red piece/);

    await slowLink(page, 400);
    n = await answered();
    const typed = [['a1', '1'], ['b1', '2'], ['c1', '3'], ['d1', '4']];
    for (const [i, [cell, key]] of typed.entries()) {
      if (i > 0) await page.waitForTimeout(250);
      await page.click(`#board button[data-cell="${cell}"]`);
      await page.keyboard.press(key);
    }
    await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') >= k, n + typed.length, { timeout: 20000 });
    assert.ok(await page.isHidden('#error-box'), `no error: ${await page.textContent('#error')}`);

    const id = new URL(page.url()).searchParams.get('game');
    const view = (await api(`/api/duel/${id}`)).body;
    const placed = view.cells[0].slice(0, 4).map((c) => (c.kind === 'piece' ? `${c.side} ${c.rank}` : c.kind));
    assert.deepEqual(placed, ['red 1', 'red 2', 'red 3', 'red 4']);
    await page.close();
  });
});

describe('the replay page and files that are not records', () => {
  test('a saved position, a Duel record and other data are each said for what they are, with what the page opens', async () => {
    const id = await finishedBotGame(env.server.base, 7);
    const position = (await api(`/api/games/${id}/position?ply=4`)).body.position;
    assert.ok(Array.isArray(position.hands), 'the server exports a position');
    const duelRecord = { engine: 'duel 0.1.0', width: 5, height: 4, difficulty: 'easy', seed: '3', actions: [] };
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/replay.html`);
    await page.waitForSelector('#replay-error:not([hidden])');
    const files = [
      ['uno-position.json', JSON.stringify(position, null, 2), /saved position/],
      ['duel-record.json', JSON.stringify(duelRecord), /Duel game record/],
      ['hello.json', '{"hello":1}', /not a game record/],
      ['notes.txt', 'not data at all', /holds no game record/],
    ];
    for (const [name, text, what] of files) {
      await page.setInputFiles('#import-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
      await page.waitForFunction((n) => document.getElementById('replay-error').textContent.startsWith(`${n}: `), name);
      const shown = (await page.textContent('#replay-error')).slice(name.length + 2);
      assert.match(shown, what, `${name}: ${shown}`);
      assert.match(shown, /This page opens UNO game records/, `${name}: ${shown}`);
      assert.doesNotMatch(shown, /reload|could not read|json/i, `${name}: ${shown}`);
      assert.equal(new URL(page.url()).searchParams.get('game'), null, 'nothing opened');
    }
    await page.close();
  });
});

const PHONE = { width: 390, height: 844 };

/** A table of the person (seat 0, "Ann", to play first) and a bot that waits; its page on a
 * touch phone. */
async function phoneTable(seed) {
  const bot = { kind: 'bot', bot: 'heuristic', delay_ms: 10000 };
  const { status, body } = await api('/api/tables', {
    method: 'POST',
    body: JSON.stringify({ rules: { deal: { first_player: 'seat0', first_card: 'no_effect' } }, name: 'Ann', seed, seats: [{ kind: 'human' }, bot] }),
  });
  assert.equal(status, 201, JSON.stringify(body));
  const ctx = await env.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  await ctx.addInitScript(([k, v]) => localStorage.setItem(k, v), [`tabletop.uno.${body.id}`, JSON.stringify({ seat: 0, token: body.token })]);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.server.base}/uno.html?table=${body.id}`);
  await page.waitForSelector('#hand button[data-card]');
  return { page, ctx, errors };
}

describe('UNO on a touch phone', () => {
  test('a tapped card keeps the phone size (no hover styles on touch) and Dismiss takes one tap', async () => {
    const { page, ctx, errors } = await phoneTable('11');
    assert.equal(await page.evaluate(() => matchMedia('(hover: hover)').matches), false, 'a touch phone does not hover');
    const unplayable = page.locator('#hand button[data-card][aria-disabled="true"]').first();
    assert.ok(await unplayable.count(), 'the hand holds a card that cannot be played');
    const sizeBefore = await unplayable.boundingBox();
    await unplayable.scrollIntoViewIfNeeded();
    // A finger on the card (a card that cannot be played is aria-disabled, still tappable).
    const at = await unplayable.boundingBox();
    await page.touchscreen.tap(at.x + at.width / 2, at.y + at.height / 2);
    await page.waitForSelector('#error', { state: 'visible' });
    await settled(page);
    const sizeAfter = await unplayable.boundingBox();
    assert.equal(Math.round(sizeAfter.width), Math.round(sizeBefore.width), 'the tapped card keeps its size');
    assert.equal(Math.round(sizeAfter.height), Math.round(sizeBefore.height), 'the tapped card keeps its size');
    await page.screenshot({ path: `${ARTIFACTS}uno-phone-tapped-error.png` });
    // One tap on Dismiss, where it is drawn now.
    const dismiss = await page.locator('#error-dismiss').boundingBox();
    await page.touchscreen.tap(dismiss.x + dismiss.width / 2, dismiss.y + dismiss.height / 2);
    await page.waitForSelector('#error', { state: 'hidden', timeout: 2000 });
    assert.deepEqual(errors, []);
    await ctx.close();
  });
});

describe('the small defects a first visit meets', () => {
  test('a table that is not there: no join form, and never-existed is not told it ended', async () => {
    const ctx = await env.browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html?table=nosuchtable`);
    await page.waitForSelector('#gone:not([hidden])');
    assert.equal(await page.textContent('#gone-title'), 'There is no table at this link');
    assert.doesNotMatch(await page.textContent('#gone'), /ended/);
    assert.ok(await page.isHidden('#join'), 'no join form');
    assert.ok(await page.isHidden('#join-name'));
    assert.doesNotMatch(await page.title(), /nosuchtable/);
    // A table this browser sat at, gone since: it ended.
    await page.evaluate(() => localStorage.setItem('tabletop.uno.gonetable', JSON.stringify({ seat: 0, token: 'x' })));
    await page.goto(`${env.server.base}/uno.html?table=gonetable`);
    await page.waitForSelector('#gone:not([hidden])', { timeout: 15000 });
    assert.equal(await page.textContent('#gone-title'), 'This table has ended');
    assert.ok(await page.isHidden('#join'));
    await ctx.close();
  });

  test('a blank name is asked for, not refused for its letters', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', '   ');
    await page.click('#create');
    await page.waitForSelector('#create-error:not([hidden])');
    assert.equal(await page.textContent('#create-error'), 'Type your name: the others at the table see it.');
    const { body } = await api('/api/tables', { method: 'POST', body: JSON.stringify({ name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }] }) });
    await page.goto(`${env.server.base}/uno.html?table=${body.id}`);
    await page.waitForSelector('#join:not([hidden])');
    await page.fill('#join-name', '   ');
    await page.click('#join-button');
    await page.waitForSelector('#join-error:not([hidden])');
    assert.equal(await page.textContent('#join-error'), 'Type your name: the others at the table see it.');
    await page.close();
  });

  test("the invitee's page: named for its host, no invite box, nothing dealt while it waits", async () => {
    const { body } = await api('/api/tables', { method: 'POST', body: JSON.stringify({ name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }] }) });
    const ctx = await env.browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html?table=${body.id}`);
    await page.waitForSelector('#join:not([hidden])');
    assert.doesNotMatch(await page.title(), new RegExp(body.id));
    assert.match(await page.title(), /Ann’s table/);
    assert.doesNotMatch(await page.textContent('#page-title'), new RegExp(body.id));
    assert.ok(await page.isHidden('#invite'), 'the invitee is not asked to invite');
    await page.fill('#join-name', 'Bea');
    await page.click('#join-button');
    await page.waitForSelector('#play:not([hidden])');
    await settled(page);
    // One seat still open: nothing is dealt, to nobody.
    assert.equal(await page.locator('#hand [data-card]').count(), 0);
    assert.equal(await page.locator('#top-card [data-card]').count(), 0);
    assert.match(await page.textContent('#turn'), /Waiting for 1 more player/);
    await page.screenshot({ path: `${ARTIFACTS}uno-invitee-waiting.png` });
    await ctx.close();
  });

  test('the Duel size form clears its error once changed, and a win gives one reason', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/duel.html?width=1&height=1&difficulty=easy`);
    await page.waitForSelector('#new-game:not([hidden])');
    await page.click('#start');
    await page.waitForSelector('#new-game-error:not([hidden])');
    await page.fill('#width', '2');
    assert.ok(await page.isHidden('#new-game-error'), 'the error about 1×1 is gone once the size changed');
    // A 2×1 grid: a red 6 on a1, a black 5 on b1; the 6 attacks and wins.
    await page.click('#start');
    await page.waitForSelector('#board button[data-cell="a1"]');
    const answered = async () => Number((await page.getAttribute('body', 'data-answered')) || '0');
    const step = async (act) => {
      const n = await answered();
      await act();
      await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') > k, n);
    };
    await step(() => page.click('#next-round'));
    await page.click('#board button[data-cell="a1"]');
    await step(() => page.keyboard.press('6'));
    await step(() => page.click('#next-round'));
    await page.click('#board button[data-cell="b1"]');
    await step(() => page.keyboard.press('5'));
    await step(() => page.click('#next-round'));
    await page.click('#board button[data-cell="a1"]');
    await step(() => page.keyboard.press('d'));
    await page.waitForSelector('#outcome:not([hidden])');
    assert.equal((await page.textContent('#outcome-message')).trim(), 'You win: no black piece is left.');
    assert.ok(await page.isHidden('#outcome-reason'), `one reason: ${await page.textContent('#outcome-reason')}`);
    await page.close();
  });

  test('on a phone: the replay hand takes the keyboard, labels stay apart, the lobby does not pan', async () => {
    const id = await finishedBotGame(env.server.base, 9);
    const page = await env.browser.newPage({ viewport: PHONE });
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=seat0&ply=6`);
    await page.waitForSelector('#hand li');
    assert.equal(await page.getAttribute('#hand', 'tabindex'), '0');
    await noSeriousA11yViolations(page, 'the replay on a phone');
    // The samples picker speaks of win chances, not the game's points.
    for (const o of await page.$$eval('#samples option', (os) => os.map((x) => x.textContent))) assert.doesNotMatch(o, /points/, o);

    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= PHONE.width, `the lobby is ${wide} px wide on a ${PHONE.width} px phone`);
    await page.close();

    const { page: table, ctx } = await phoneTable('5');
    // "Turn sound: off" reads as one label: the state right after its words.
    const gap = await table.evaluate(() => {
      const b = document.getElementById('turn-sound');
      const state = b.querySelector('[aria-hidden="true"]');
      const range = document.createRange();
      range.selectNodeContents(b);
      range.setEndBefore(state);
      return state.getBoundingClientRect().left - range.getBoundingClientRect().right;
    });
    assert.ok(Math.abs(gap) < 1, `"Turn sound" and its state are ${gap} px apart`);
    // Each card's mark under its own card, none running into the next.
    const marks = await table.$$eval('#hand .playable-mark', (ms) => ms.map((m) => {
      const r = m.getBoundingClientRect();
      const card = m.closest('button').getBoundingClientRect();
      return { left: r.left, right: r.right, cardLeft: card.left, cardRight: card.right };
    }));
    for (const m of marks) assert.ok(m.left >= m.cardLeft - 1 && m.right <= m.cardRight + 1, `a mark wider than its card: ${JSON.stringify(m)}`);
    await ctx.close();
  });
});

describe('the table as a table, the lobby opening on Play now', () => {
  test('"Play now" opens a table in one click; seats sit round the table, you at the bottom', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    // The lobby leads with Play now; the custom table is one click away (a link to its form).
    const first = await page.evaluate(() => document.querySelector('#lobby h2')?.id);
    assert.equal(first, 'play-now-title');
    assert.equal(await page.getAttribute('#play-now a[href="#create-title"]', 'href'), '#create-title');
    await page.screenshot({ path: `${ARTIFACTS}uno-lobby.png` });
    await page.fill('#play-name', 'Ada');
    await Promise.all([page.waitForURL(/table=/), page.click('#play-now-button')]);
    await page.waitForSelector('#hand button[data-card]');
    await settled(page);
    const seats = await page.$$eval('#players li', (lis) =>
      lis.map((li) => {
        const r = li.getBoundingClientRect();
        return { me: li.classList.contains('me'), current: li.classList.contains('current'), x: r.left + r.width / 2, y: r.top + r.height / 2, backs: li.querySelectorAll('.card-back').length, text: li.textContent };
      }),
    );
    assert.equal(seats.length, 3);
    const pile = await page.locator('#top-card').boundingBox();
    const pileY = pile.y + pile.height / 2;
    const me = seats.find((s) => s.me);
    assert.ok(me.y > pileY, 'you sit below the pile');
    for (const s of seats.filter((x) => !x.me)) {
      assert.ok(s.y < me.y, `${s.text} sits above you`);
      assert.ok(s.backs >= 1, `${s.text}: its cards as backs`);
    }
    // Seat 2 (the next in play) on your left, seat 3 on your right: the order going round.
    assert.ok(seats[1].x < seats[2].x, 'the seats go round in play order');
    assert.equal(seats.filter((s) => s.current).length, 1);
    assert.ok(await page.isVisible('#draw-stack'), 'the draw pile in the middle');
    assert.match(await page.textContent('#direction'), /clockwise/);
    await page.screenshot({ path: `${ARTIFACTS}uno-table.png` });
    await ctx.close();
  });

  test('a table against bots offers a new table for a friend, with the same rules', async () => {
    const bot = { kind: 'bot', bot: 'heuristic', delay_ms: 10000 };
    const { body } = await api('/api/tables', {
      method: 'POST',
      body: JSON.stringify({ preset: 'two-color', name: 'Ann', seed: '3', seats: [{ kind: 'human' }, bot, bot] }),
    });
    const ctx = await env.browser.newContext();
    await ctx.addInitScript(([k, v]) => localStorage.setItem(k, v), [`tabletop.uno.${body.id}`, JSON.stringify({ seat: 0, token: body.token })]);
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html?table=${body.id}`);
    await page.waitForSelector('#with-friend:not([hidden])');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('table') && u.searchParams.get('table') !== body.id), page.click('#with-friend-open')]);
    const id = new URL(page.url()).searchParams.get('table');
    await page.waitForSelector('#invite:not([hidden])');
    const made = (await api(`/api/tables/${id}`)).body;
    assert.equal(made.status, 'waiting');
    assert.deepEqual(made.seats.map((s) => s.kind), ['human', 'human', 'bot']);
    assert.equal(made.rules, (await api(`/api/tables/${body.id}`)).body.rules);
    assert.ok(await page.isHidden('#with-friend'));
    await ctx.close();
  });

  test('preset names for people come from the server; the ids stay the API\'s', async () => {
    const options = (await api('/api/uno/options')).body;
    assert.ok(options.presets.includes('cs410'));
    assert.equal(typeof options.preset_titles.cs410, 'string');
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    const shown = await page.$$eval('#preset option', (os) => os.map((o) => ({ value: o.value, text: o.textContent })));
    for (const o of shown) {
      assert.equal(o.text, options.preset_titles[o.value], o.value);
      assert.doesNotMatch(o.text, /cs410|csce322|Seed \d/);
    }
    for (const p of options.presets) assert.doesNotMatch(options.preset_about[p], /Seed \d/);
    await page.close();
  });
});
