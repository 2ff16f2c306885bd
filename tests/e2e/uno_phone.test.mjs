// The UNO table as a person meets it on a phone (390×844) and in words: a refused move's error
// sits in the page's flow under the hand and can be dismissed; the round's end keeps the
// winner's line on screen with every hand a compact row; a reminder to call UNO on the hand at
// two cards; and every refusal a page meets said in a sentence for people, never the server's
// words for programs (serde's, "request body", raw codes).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, ARTIFACTS, noSeriousA11yViolations, serverAndBrowser, settled } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
const PHONE = { width: 390, height: 844 };
const FIRST = { first_player: 'seat0', first_card: 'no_effect' };

/** A table: the person (seat 0, "Ann") and `bots` heuristic bots; `rules` a rules object. */
async function table({ rules = { deal: FIRST }, bots = 1, delay = 0, seats = null, seed = '11' } = {}) {
  const bot = { kind: 'bot', bot: 'heuristic', delay_ms: delay };
  const { status, body } = await api('/api/tables', {
    method: 'POST',
    body: JSON.stringify({ rules, name: 'Ann', seed, seats: seats ?? [{ kind: 'human' }, ...Array(bots).fill(bot)] }),
  });
  assert.equal(status, 201, JSON.stringify(body));
  return body;
}

/** The changes to make to the page's next actions, by page (see `rewriteNextAction`). */
const rewrites = new WeakMap();

/** The person's page at the table (its seat kept in the browser, as after creating it). Its
 * socket passes through the test, which may change an action on its way (`rewriteNextAction`). */
async function seated(created, viewport = PHONE) {
  const ctx = await env.browser.newContext({ viewport });
  await ctx.addInitScript(([k, v]) => localStorage.setItem(k, v), [`tabletop.uno.${created.id}`, JSON.stringify({ seat: 0, token: created.token })]);
  const page = await ctx.newPage();
  const changes = [];
  rewrites.set(page, changes);
  await page.routeWebSocket(/\/api\/tables\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m));
      const change = msg.type === 'action' ? changes.shift() : undefined;
      if (!change) return server.send(m);
      const { action, version } = msg;
      return server.send(JSON.stringify({ type: 'action', ...change({ action, version }) }));
    });
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.server.base}/uno.html?table=${created.id}`);
  await page.waitForSelector('#hand button[data-card]');
  return { page, ctx, errors };
}

const rect = (page, sel) => page.locator(sel).boundingBox();
const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Rewrites the next action the page sends over its socket, `{action, version}` as the page
 * sent it (the server then refuses it for real). */
async function rewriteNextAction(page, change) {
  rewrites.get(page).push(change);
}

/** Words a person must never read: the server's words for programs. */
function assertPeopleWords(text, where) {
  assert.ok(text.trim().length > 0, `${where}: a sentence is shown`);
  for (const bad of [/request body/i, /unknown variant/i, /expected/i, /json/i, /`/, /\b[a-z]+_[a-z_]+\b/, /version \d+/i, /direction override/i]) {
    assert.doesNotMatch(text, bad, `${where}: "${text}"`);
  }
}

describe('UNO on a phone', () => {
  test('a refused move\'s error sits under the hand, covers no card or control, and is dismissed', async () => {
    const created = await table({ bots: 2, delay: 10000 });
    const { page, ctx, errors } = await seated(created);
    // Where a phone player's thumb is: the hand in view.
    await page.locator('#hand').scrollIntoViewIfNeeded();
    // The server refuses the move for real (a card the hand does not hold).
    const held = await page.locator('#hand button[data-card]').evaluateAll((bs) => bs.map((b) => b.dataset.card));
    const absent = ['R0', 'Y0', 'G0', 'B0', 'R1'].find((c) => !held.includes(c));
    await rewriteNextAction(page, (b) => ({ ...b, action: { type: 'play', card: absent } }));
    if (!(await page.locator('#hand button.playable').count())) await page.click('#act-draw');
    else {
      const wild = /^W/.test(await page.locator('#hand button.playable').first().getAttribute('data-card'));
      await page.click('#hand button.playable >> nth=0');
      if (wild) await page.click('#color-buttons button >> nth=0');
    }
    await page.waitForSelector('#error', { state: 'visible' });
    const text = (await page.textContent('#error')).trim();
    assert.ok(text.length > 0);
    await page.screenshot({ path: `${ARTIFACTS}uno-phone-error.png` });

    // In the flow (nothing fixed or absolute), and on screen.
    const placed = await page.evaluate(() => {
      const positions = [];
      for (let n = document.getElementById('error'); n; n = n.parentElement) positions.push(getComputedStyle(n).position);
      return positions;
    });
    assert.ok(placed.every((p) => p === 'static' || p === 'relative'), `the error sits in the flow: ${placed}`);
    const box = await rect(page, '#error-row');
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the error is on screen: ${JSON.stringify(box)}`);
    // It covers no card and no control of the table.
    const controls = await page.locator('#hand button, #actions button, #color-picker button, #uno-reminder button').all();
    for (const c of controls) {
      const r = await c.boundingBox();
      if (r) assert.ok(!overlaps(box, r), `the error covers ${await c.textContent()}: ${JSON.stringify([box, r])}`);
    }
    await noSeriousA11yViolations(page, 'the UNO table on a phone with an error');

    // Dismissed: gone, and the keyboard back on the hand.
    await page.click('#error-dismiss');
    await page.waitForSelector('#error', { state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'hand-title');
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('at a round\'s end the winner\'s line stays on screen and every hand is a compact row', async () => {
    const bot = { kind: 'bot', bot: 'heuristic' };
    const created = await table({ rules: { deal: { first_player: 'seat0' } }, seats: [{ kind: 'human' }, bot, bot, bot], seed: '7' });
    const { page, ctx, errors } = await seated(created);
    for (let i = 0; i < 600 && !(await page.isVisible('#round-end')); i += 1) {
      if ((await page.getAttribute('body', 'data-my-turn')) !== 'true') {
        await page.waitForTimeout(40);
        continue;
      }
      // Played as a phone player: down at the hand.
      await page.locator('#hand').scrollIntoViewIfNeeded();
      const v = Number(await page.getAttribute('body', 'data-version'));
      if (await page.isVisible('#color-picker')) await page.click('#color-buttons button >> nth=0');
      else if (await page.locator('#hand button.playable').count()) await page.click('#hand button.playable >> nth=0');
      else if (await page.locator('#act-pass').count()) await page.click('#act-pass');
      else if (await page.locator('#act-accept').count()) await page.click('#act-accept');
      else if (await page.locator('#act-draw').count()) await page.click('#act-draw');
      await page
        .waitForFunction((k) => Number(document.body.dataset.version) > k || !document.getElementById('color-picker').hidden, v, { timeout: 5000 })
        .catch(() => {});
    }
    await page.waitForSelector('#round-end', { state: 'visible' });
    await settled(page);
    await page.screenshot({ path: `${ARTIFACTS}uno-round-end-phone.png` });
    const title = await rect(page, '#round-end-title');
    assert.ok(title.y >= 0 && title.y + title.height <= PHONE.height, `the winner's line is on screen: ${JSON.stringify(title)}`);
    assert.match(await page.textContent('#round-end-title'), /wins? round 1|ended without a winner/);
    const deal = await rect(page, '#round-next');
    assert.ok(deal.y >= 0 && deal.y + deal.height <= PHONE.height, `the deal button is on screen too: ${JSON.stringify(deal)}`);
    // One compact row per seat, however many cards: the cards in one line.
    const rows = await page.locator('#round-end-hands tr').evaluateAll((trs) =>
      trs.map((tr) => ({ h: tr.getBoundingClientRect().height, n: tr.querySelectorAll('[data-card]').length, label: tr.querySelector('ul')?.getAttribute('aria-label') ?? '' })),
    );
    assert.equal(rows.length, 4);
    assert.ok(rows.some((r) => r.n >= 3), 'some hand holds several cards');
    for (const r of rows) {
      assert.ok(r.h <= 56, `a row ${r.h} px tall for ${r.n} cards`);
      // Screen readers hear the cards, not a count.
      if (r.n) assert.match(r.label, /^\d+ cards?: \w/);
    }
    const banner = await rect(page, '#round-end');
    const hands = await rect(page, '#round-end .round-hands');
    assert.ok(banner.x >= 0 && banner.x + banner.width <= PHONE.width, 'no sideways scrolling');
    assert.ok(hands.x + hands.width <= banner.x + banner.width, `the hands fit in the banner: ${JSON.stringify([hands, banner])}`);
    await noSeriousA11yViolations(page, 'the round\'s end on a phone');
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('a reminder to call UNO shows on the hand at two cards, and its button calls', async () => {
    const created = await table({ rules: { deal: { ...FIRST, hand_size: 2 } }, delay: 10000 });
    const { page, ctx, errors } = await seated(created);
    await page.waitForSelector('#uno-reminder', { state: 'visible' });
    assert.match(await page.textContent('#uno-reminder'), /Two cards left: call UNO/);
    // On the hand, where the player looks: just above its cards, within the hand's section.
    const reminder = await rect(page, '#uno-reminder');
    const hand = await rect(page, '#hand');
    assert.ok(reminder.y + reminder.height <= hand.y + 1 && hand.y - (reminder.y + reminder.height) < 40, `${JSON.stringify([reminder, hand])}`);
    assert.ok(reminder.y >= 0 && reminder.y + reminder.height <= PHONE.height, 'on the first screen');
    await page.screenshot({ path: `${ARTIFACTS}uno-reminder-phone.png` });
    await noSeriousA11yViolations(page, 'the UNO reminder');
    const v = Number(await page.getAttribute('body', 'data-version'));
    await page.click('#hand-uno');
    await page.waitForFunction((k) => Number(document.body.dataset.version) > k, v);
    assert.match(await page.textContent('#uno-log'), /You called UNO!/);
    await page.waitForSelector('#uno-reminder', { state: 'hidden' });
    assert.deepEqual(errors, []);
    await ctx.close();
  });
});

describe('refusals in words for people', () => {
  test('every refusal the table page meets is a sentence, never the server\'s words for programs', async () => {
    const created = await table({ bots: 1, delay: 10000 });
    const { page, ctx } = await seated(created, { width: 1200, height: 900 });
    const shown = async () => (await page.textContent('#error')).trim();
    /** Sends the page's next move changed by `change`, and returns the sentence shown. */
    async function refused(change, expected) {
      await rewriteNextAction(page, change);
      if (await page.locator('#hand button.playable').count()) {
        const wild = /^W/.test(await page.locator('#hand button.playable').first().getAttribute('data-card'));
        await page.click('#hand button.playable >> nth=0');
        if (wild) await page.click('#color-buttons button >> nth=0');
      } else await page.click('#act-draw');
      await page.waitForSelector('#error', { state: 'visible' });
      const text = await shown();
      assertPeopleWords(text, expected);
      assert.equal(text, expected);
      await page.click('#error-dismiss');
      await page.waitForSelector('#error', { state: 'hidden' });
    }
    const held = await page.locator('#hand button[data-card]').evaluateAll((bs) => bs.map((b) => b.dataset.card));
    const absent = ['R0', 'Y0', 'G0', 'B0', 'R1'].find((c) => !held.includes(c));
    // A move the serde reader cannot read (its message names variants and "the request body").
    await refused((b) => ({ ...b, action: { type: 'dance' } }), 'This page sent something the server could not read: reload the page and try again.');
    // A card that is no card.
    await refused((b) => ({ ...b, action: { type: 'play', card: 'Q9' } }), 'This page sent something the server could not read: reload the page and try again.');
    // A card not in the hand: the engine's refusal.
    await refused((b) => ({ ...b, action: { type: 'play', card: absent } }), 'That card is not in your hand.');
    // Another version than the table's (as when someone moved first).
    await refused((b) => ({ ...b, version: b.version + 3 }), 'The table changed before your move arrived; nothing was played. Look again and choose.');
    // A challenge with no Wild Draw Four to challenge.
    await refused((b) => ({ ...b, action: { type: 'challenge' } }), 'There is no Wild Draw Four to challenge now.');
    await ctx.close();
  });

  test('joining and opening tables: names, a full table, a table that is gone', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await ctx.newPage();
    const joinError = async () => {
      await page.waitForSelector('#join-error', { state: 'visible' });
      return (await page.textContent('#join-error')).trim();
    };
    // A name the server refuses (a direction override hides what follows it).
    const open = await table({ seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'bot', bot: 'random', delay_ms: 10000 }] });
    await page.goto(`${env.server.base}/uno.html?table=${open.id}`);
    await page.waitForSelector('#join-name');
    await page.fill('#join-name', 'Bo\u202Eb');
    await page.click('#join-button');
    let text = await joinError();
    assertPeopleWords(text, 'a refused name');
    assert.equal(text, 'That name cannot be used: use letters, digits, spaces and ordinary punctuation.');
    // The creator's name.
    await page.fill('#join-name', 'Ann');
    await page.click('#join-button');
    await page.waitForFunction(() => /Another player/.test(document.getElementById('join-error').textContent));
    text = await joinError();
    assertPeopleWords(text, 'a name taken');
    assert.equal(text, 'Another player at this table has that name: choose another.');
    // Someone else takes the last seat first.
    const { status } = await api(`/api/tables/${open.id}/join`, { method: 'POST', body: JSON.stringify({ name: 'Cy' }) });
    assert.equal(status, 200);
    await page.fill('#join-name', 'Dee');
    await page.click('#join-button');
    await page.waitForFunction(() => /seat/.test(document.getElementById('join-error').textContent) && !/name/.test(document.getElementById('join-error').textContent));
    text = await joinError();
    assertPeopleWords(text, 'a full table');
    assert.equal(text, 'Every seat at this table is taken. You can watch instead, or open a table of your own.');
    // A table that does not exist (a wrong or old link): said so, with no join form (issue 43:
    // never an empty form, and a table this browser never knew is not told it ended).
    await page.goto(`${env.server.base}/uno.html?table=nosuchtable`);
    await page.waitForSelector('#gone', { state: 'visible' });
    text = (await page.textContent('#gone')).trim();
    assertPeopleWords(text, 'a table that is gone');
    assert.equal((await page.textContent('#gone-title')).trim(), 'There is no table at this link');
    assert.ok(await page.isHidden('#join'));
    // The lobby: a name the server refuses.
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Ann\u202E');
    await page.click('#create');
    await page.waitForSelector('#create-error', { state: 'visible' });
    text = (await page.textContent('#create-error')).trim();
    assertPeopleWords(text, 'the lobby');
    assert.equal(text, 'That name cannot be used: use letters, digits, spaces and ordinary punctuation.');
    await ctx.close();
  });
});
