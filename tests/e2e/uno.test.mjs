// The UNO pages in a real Chromium against the real server: a table opened in the lobby with
// two bot seats, a friend joining by the invite link in another browser context, both playing
// legal cards and a wild with a colour choice, each seeing the other's moves and never the
// other's cards; a reload resumes the seat; a spectator sees the public view; accessibility;
// screenshots of each state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser, settled, startServer } from './harness.mjs';

const env = serverAndBrowser();

async function shot(page, name) {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

/** A seed whose deal gives seat 0 a wild card (so the test plays one with a colour choice). */
async function seedWithWildForSeat0() {
  for (let seed = 1; seed < 40; seed += 1) {
    const r = await fetch(`${env.server.base}/api/tables`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        preset: 'official',
        // As many seats as the table below, every other one a bot's, so the game is dealt at
        // once (a table deals when its people's seats are taken): the same seed, the same deal.
        seats: [{ kind: 'human', name: 'probe' }, { kind: 'bot', bot: 'heuristic' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
        bot_delay_ms: 10000,
        seed,
      }),
    });
    const created = await r.json();
    assert.equal(r.status, 201, JSON.stringify(created));
    await fetch(`${env.server.base}/api/tables/${created.id}/close`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${created.token}` },
    });
    if (created.table.view.hand.some((c) => c === 'W' || c === 'W4')) return seed;
  }
  throw new Error('no seed with a wild card for seat 0');
}

/** Records every WebSocket frame a page receives (parsed). */
function recordFrames(page) {
  const frames = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      try {
        frames.push(JSON.parse(f.payload));
      } catch {
        /* not JSON */
      }
    });
  });
  return frames;
}

const version = async (page) => Number((await page.getAttribute('body', 'data-version')) || '-1');
const handOf = (page) => page.$$eval('#hand button[data-card]', (bs) => bs.map((b) => b.dataset.card));

/** Whether it is this page's seat's move (something besides calling UNO is offered). */
async function myMove(page) {
  return page.evaluate(
    () =>
      !!document.querySelector('#hand button.playable, #act-draw, #act-pass, #act-accept, #round-next:not([hidden])') ||
      !document.getElementById('color-picker').hidden,
  );
}

/** Does one move for the page's seat; returns what it did. */
async function playOnce(page, { preferWild }) {
  const v = await version(page);
  let did;
  if (!(await page.isHidden('#color-picker'))) {
    await page.click('#color-buttons button[data-color="blue"]');
    did = 'colour';
  } else {
    const cards = await page.$$eval('#hand button.playable', (bs) => bs.map((b) => b.dataset.card));
    const wild = cards.find((c) => c === 'W' || c === 'W4');
    const pick = preferWild && wild ? wild : cards.find((c) => c !== 'W' && c !== 'W4') || cards[0];
    if (pick) {
      await page.click(`#hand button.playable[data-card="${pick}"]`);
      if (pick === 'W' || pick === 'W4') {
        await page.waitForSelector('#color-picker:not([hidden])');
        await shot(page, 'uno-color-picker');
        await page.click('#color-buttons button[data-color="blue"]');
        did = `wild:${pick}`;
      } else {
        did = `card:${pick}`;
      }
    } else if (await page.$('#act-pass')) {
      await page.click('#act-pass');
      did = 'pass';
    } else if (await page.$('#act-accept')) {
      await page.click('#act-accept');
      did = 'accept';
    } else if (await page.$('#act-draw')) {
      await page.click('#act-draw');
      did = 'draw';
    } else if (await page.isVisible('#round-next')) {
      await page.click('#round-next');
      did = 'next';
    } else {
      return null;
    }
  }
  await page.waitForFunction((k) => Number(document.body.dataset.version || '-1') > k, v, { timeout: 10000 });
  const error = await page.locator('#error');
  if (await error.isVisible()) throw new Error(`the server refused ${did}: ${await error.textContent()}`);
  return did;
}

describe('UNO pages', () => {
  test('two people and two bots play at one table', async () => {
    const ctxA = await env.browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const ctxB = await env.browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const a = await ctxA.newPage();
    const b = await ctxB.newPage();
    const framesA = recordFrames(a);
    const framesB = recordFrames(b);

    // The lobby, before any table is open.
    await a.goto(`${env.server.base}/uno.html`);
    await a.waitForSelector('body[data-ready="true"]');
    await a.fill('#your-name', 'Ada');
    await a.click('#add-human');
    await shot(a, 'uno-lobby');
    await noSeriousA11yViolations(a, 'the UNO lobby');

    // Ada opens a table with a friend's seat and two bots (with a deal that gives her a wild).
    const seed = await seedWithWildForSeat0();
    await a.goto(`${env.server.base}/uno.html?seed=${seed}`);
    await a.waitForSelector('body[data-ready="true"]');
    await a.fill('#your-name', 'Ada');
    await a.selectOption('#preset', 'official');
    await a.click('#add-human'); // seats: Ada, bot, bot, a person
    await a.selectOption('#bot-level-1', 'heuristic');
    await a.selectOption('#bot-level-2', 'random');
    await a.selectOption('#bot-pace', '150');
    await a.click('#create');
    await a.waitForSelector('#play:not([hidden])');
    await a.waitForSelector('#invite:not([hidden])');
    assert.match(await a.textContent('#turn'), /Waiting for 1 more player to join/);
    const invite = await a.inputValue('#invite-link');
    assert.match(invite, /\/uno\.html\?table=[0-9a-f]+$/);
    await shot(a, 'uno-waiting');

    // The open table is listed in the lobby.
    const lobby = await ctxB.newPage();
    await lobby.goto(`${env.server.base}/uno.html`);
    await lobby.waitForSelector('#table-list li a');
    assert.ok((await lobby.$$eval('#table-list a', (as) => as.map((x) => x.href))).includes(invite));
    // Listed by its creator's name, not by its id.
    assert.match(await lobby.textContent('#table-list'), /Ada’s table/);
    await lobby.close();

    // Bea joins by the invite link.
    await b.goto(invite);
    await b.waitForSelector('#join:not([hidden])');
    await b.fill('#join-name', 'Bea');
    await b.click('#join-button');
    await b.waitForSelector('#play:not([hidden])');
    await a.waitForFunction(() => !/Waiting/.test(document.getElementById('turn').textContent));
    assert.equal(await a.getAttribute('body', 'data-seat'), '0');
    assert.equal(await b.getAttribute('body', 'data-seat'), '3');
    assert.match(await a.textContent('#players'), /Bea/);
    assert.match(await b.textContent('#players'), /Ada/);

    // Play: each person moves on their turn; Ada plays her wild (choosing blue) when she can.
    const played = { a: [], b: [] };
    let wildPlayed = false;
    for (let step = 0; step < 400; step += 1) {
      const over = await a.evaluate(() => /over/.test(document.getElementById('turn').textContent));
      const enough = wildPlayed && played.a.filter((x) => x.startsWith('card')).length >= 1 && played.b.some((x) => x.startsWith('card'));
      if (over || enough) break;
      if (await myMove(a)) {
        const did = await playOnce(a, { preferWild: !wildPlayed });
        played.a.push(did);
        if (did && did.startsWith('wild')) {
          wildPlayed = true;
          // Both pages show the colour Ada chose, and Bea's log names the wild.
          for (const p of [a, b]) {
            await p.waitForFunction(() => /Colour in play: blue/.test(document.getElementById('color-in-play').textContent));
          }
          await b.waitForFunction(() => /Ada played Wild/.test(document.getElementById('uno-log').textContent));
          await b.waitForFunction(() => /Ada chose blue/.test(document.getElementById('uno-log').textContent));
        }
        if (did && did.startsWith('card:')) {
          const card = did.slice(5);
          await b.waitForFunction(
            (c) => document.getElementById('top-card').textContent.length > 0 && document.getElementById('uno-log').textContent.includes('Ada played'),
            card,
          );
        }
      } else if (await myMove(b)) {
        const did = await playOnce(b, { preferWild: false });
        played.b.push(did);
        if (did && did.startsWith('card:')) {
          await a.waitForFunction(() => document.getElementById('uno-log').textContent.includes('Bea played'));
        }
      } else {
        await a.waitForTimeout(100);
      }
    }
    assert.ok(wildPlayed, `Ada played a wild (${played.a.join(', ')})`);
    assert.ok(played.b.some((x) => x && x.startsWith('card')), `Bea played a card (${played.b.join(', ')})`);
    await shot(a, 'uno-table');
    await shot(b, 'uno-table-friend');
    await noSeriousA11yViolations(a, 'the UNO table');

    // Never the other's cards: every view a page received holds only its own hand, and other
    // seats' draws come without their cards. Full states name the seat; updates are compact
    // (no discard pile, no seat list) and carry the hand only when it changed.
    const check = (frames, me) => {
      let views = 0;
      let updates = 0;
      for (const f of frames) {
        if (!f.view) continue;
        views += 1;
        if (f.type === 'update') {
          updates += 1;
          assert.equal(f.view.discard, undefined);
          assert.equal(f.seats, undefined);
        } else {
          assert.equal(f.you, me);
        }
        if (f.type === 'state' || f.view.hand !== undefined) assert.equal(f.view.hand.length, f.view.hand_sizes[me]);
        for (const e of f.events || []) {
          if (e.event.type === 'cards_drawn' && e.event.seat !== me) assert.deepEqual(e.event.cards, []);
        }
      }
      assert.ok(views > 3, `page of seat ${me} received views`);
      assert.ok(updates > 0, `page of seat ${me} received updates`);
    };
    check(framesA, 0);
    check(framesB, 3);
    const handA = await handOf(a);
    const handB = await handOf(b);
    const bText = await b.textContent('#hand');
    assert.equal((await b.$$('#hand button[data-card]')).length, handB.length);
    assert.ok(handA.length > 0 && !bText.includes('(you)'));

    // A reload resumes Bea's seat with the same hand.
    await b.reload();
    await b.waitForSelector('#play:not([hidden])');
    await b.waitForFunction(() => document.body.dataset.seat === '3');
    const handAfter = await handOf(b);
    const nowA = await handOf(a);
    assert.ok(handAfter.length > 0);
    assert.equal(await b.isHidden('#join'), true);
    assert.match(await b.textContent('#players'), /Bea \(you\)/);
    assert.deepEqual([...handAfter].sort(), [...(await handOf(b))].sort());
    assert.ok(nowA.length > 0);

    // A spectator sees the public view: hand sizes, the pile, no cards.
    const ctxC = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const c = await ctxC.newPage();
    const framesC = recordFrames(c);
    await c.goto(invite);
    await c.waitForSelector('#join:not([hidden])');
    assert.match(await c.textContent('#join-title'), /full/);
    await c.click('#watch-button');
    await c.waitForSelector('#play:not([hidden])');
    assert.match(await c.textContent('#turn'), /^Watching\./);
    assert.equal((await c.$$('#hand button')).length, 0);
    assert.match(await c.textContent('#players'), /Ada/);
    // Every frame the spectator's socket got by the time its page has drawn it is checked.
    await settled(c);
    assert.ok(framesC.some((f) => f.type === 'state'), 'no state reached the spectator');
    for (const f of framesC) {
      if (f.type === 'state') assert.deepEqual(f.view.hand, []);
      else if (f.view) assert.equal(f.view.hand, undefined);
    }
    await shot(c, 'uno-spectator');
    await ctxC.close();
    await ctxA.close();
    await ctxB.close();
  });

  test('a dropped connection reconnects by itself, even across a server restart', async () => {
    let own = await startServer();
    const ctx = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    try {
      await page.goto(`${own.base}/uno.html`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.fill('#your-name', 'Dee');
      await page.click('#seat-list li:nth-child(3) .remove-seat'); // Dee and one bot
      await page.selectOption('#bot-pace', '150');
      await page.click('#create');
      await page.waitForSelector('#play:not([hidden])');
      await page.waitForFunction(() => !!document.querySelector('#hand button[data-card]'));
      // Dee's turn (whatever it asks: a play, a draw, a challenge): the bot cannot act now, so the
      // hand read here is the one the store keeps (read on the bot's turn, a bot's Draw Two could
      // land between the read and the stop).
      await page.waitForFunction(() => !!document.querySelector('#players li.me.current'), null, { timeout: 20000 });
      const hand = await handOf(page);
      const v = await version(page);

      await own.stop({ keepData: true });
      await page.waitForFunction(() => /Reconnecting in \d+ s/.test(document.getElementById('connection').textContent));
      // While it is down the page counts down to the next try, and no move can be sent.
      const counts = new Set();
      for (let i = 0; i < 30 && counts.size < 2; i += 1) {
        const m = /Reconnecting in (\d+) s/.exec(await page.textContent('#connection'));
        if (m) counts.add(m[1]);
        await page.waitForTimeout(150);
      }
      assert.ok(counts.size >= 2, `the reconnect message counts down (${[...counts]})`);
      assert.equal(await page.evaluate(() => [...document.querySelectorAll('#hand button, #actions button')].filter((b) => !b.disabled).length), 0);
      await shot(page, 'uno-reconnecting');
      own = await startServer([], { dir: own.dir, port: own.port });
      await page.waitForFunction(() => document.getElementById('connection').textContent === '', null, { timeout: 20000 });
      assert.deepEqual(await handOf(page), hand);
      assert.ok((await version(page)) >= v);
      // And the table goes on: the seat can act again.
      await page.waitForFunction(() => !!document.querySelector('#hand button.playable, #actions button'), null, { timeout: 20000 });
      assert.ok(await playOnce(page, { preferWild: false }));
    } finally {
      await ctx.close();
      await own.stop();
    }
  });

  test('a one-round game against a bot to the end: scores, then a rematch', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Eve');
    await page.click('#seat-list li:nth-child(3) .remove-seat'); // Eve and one bot
    await page.selectOption('#bot-level-1', 'random');
    await page.check('#hr-one-round');
    await page.selectOption('#bot-pace', '150');
    await page.click('#create');
    await page.waitForSelector('#play:not([hidden])');
    for (let step = 0; step < 600; step += 1) {
      if (await page.evaluate(() => /over/.test(document.getElementById('turn').textContent))) break;
      if (await myMove(page)) await playOnce(page, { preferWild: false });
      else await page.waitForTimeout(50);
    }
    await page.waitForSelector('#scores:not([hidden])');
    assert.match(await page.textContent('#result'), /won the game|without a winner/);
    assert.match(await page.textContent('#score-table'), /Eve \(you\)/);
    await page.waitForSelector('#rematch:not([hidden])');
    await shot(page, 'uno-game-over');
    await noSeriousA11yViolations(page, 'the UNO table at the end');
    const before = await version(page);
    await page.click('#rematch');
    await page.waitForFunction(() => !/over/.test(document.getElementById('turn').textContent));
    assert.ok((await version(page)) > before);
    assert.equal(await page.isHidden('#rematch'), true);
    // A fresh deal is seven cards; a first-card Draw Two or the bot's quick Draw Two (it plays at
    // 150 ms) may add cards before the page is read, but never leaves fewer.
    const dealt = (await handOf(page)).length;
    assert.ok(dealt >= 7, `a new hand of ${dealt} cards`);
    await ctx.close();
  });

  test('refusals appear inline in words', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Cy');
    // Remove both bots: one seat is too few for the rules.
    await page.click('#seat-list li:nth-child(3) .remove-seat');
    await page.click('#seat-list li:nth-child(2) .remove-seat');
    await page.click('#create');
    await page.waitForSelector('#create-error:not([hidden])');
    assert.equal(await page.textContent('#create-error'), 'A table needs at least two seats: add a bot or a seat for a person.');
    await ctx.close();
  });
});
