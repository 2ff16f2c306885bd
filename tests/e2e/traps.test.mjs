// The traps that cost a player cards or a game (issue 16), each played as a person would: a
// double click on Duel's last setup button, keys typed ahead of the server, the error banner moving
// the grid or covering the keys on a phone,
// the UNO button at the wrong moment, a round's result that nobody could read, the words of
// hints and refusals, and the keyboard focus after each move.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser, settled } from './harness.mjs';

const env = serverAndBrowser();

async function shot(page, name) {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: false });
}

// ---------------------------------------------------------------- Duel

const cell = (page, name) => page.locator(`#board button[data-cell="${name}"]`);
const answered = async (page) => Number((await page.getAttribute('body', 'data-answered')) || '0');
async function settle(page, n) {
  await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') >= k, n);
}
async function errorText(page) {
  const box = page.locator('#error');
  return (await box.isVisible()) ? (await box.textContent()).trim() : '';
}

/** A 5×4 game at the last setup round: a block, a red 6 on a1, a black 1 on e4. */
async function duelAtLastSetupRound(page) {
  await page.goto(`${env.server.base}/duel.html?width=5&height=4&difficulty=easy`);
  await page.waitForSelector('#new-game:not([hidden])');
  await page.click('#start');
  await page.waitForSelector('#board button[data-cell="a1"]');
  // "Start" leaves the keyboard on the grid, not on the page body.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.cell), 'a1');
  let n = await answered(page);
  await page.click('#next-round');
  await settle(page, n + 1);
  await cell(page, 'a1').click();
  n = await answered(page);
  await page.keyboard.press('6');
  await settle(page, n + 1);
  n = await answered(page);
  await page.click('#next-round');
  await settle(page, n + 1);
  await cell(page, 'e4').click();
  n = await answered(page);
  await page.keyboard.press('1');
  await settle(page, n + 1);
  assert.equal(await page.textContent('#next-round'), 'Next round: start playing');
}

describe('Duel traps', () => {
  test('a double click on "Next round: start playing" starts play once and never ends the game', async () => {
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 } });
    await duelAtLastSetupRound(page);
    await page.locator('#next-round').scrollIntoViewIfNeeded();
    const box = await page.locator('#next-round').boundingBox();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.dblclick(x, y);
    await page.waitForFunction(() => document.body.dataset.stage === 'play');
    // The focus went from the vanished button to the grid.
    assert.ok(await page.evaluate(() => !!document.activeElement?.closest('#board')));
    // Whatever now sits where the button was is pressed too, as a second tap would.
    await page.waitForTimeout(450);
    const tapped = await answered(page);
    await page.mouse.click(x, y);
    await settled(page);
    assert.equal(await page.getAttribute('body', 'data-stage'), 'play');
    assert.equal(await answered(page), tapped, 'the second tap sent an action');
    assert.equal(await errorText(page), '');
    assert.ok(await page.isHidden('#outcome'));

    // Ending the game asks first; "Keep playing" keeps playing.
    await page.click('#end-play');
    await page.waitForSelector('#end-confirm:not([hidden])');
    await shot(page, 'duel-end-confirm-phone');
    await noSeriousA11yViolations(page, 'the Duel end confirmation');
    await page.click('#end-confirm-no');
    assert.ok(await page.isHidden('#end-confirm'));
    assert.equal(await page.getAttribute('body', 'data-stage'), 'play');
    // Escape closes the box too, and the game goes on, the focus back on the end button.
    await page.click('#end-play');
    await page.waitForSelector('#end-confirm:not([hidden])');
    await page.keyboard.press('Escape');
    assert.ok(await page.isHidden('#end-confirm'));
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'end-play');
    assert.equal(await page.getAttribute('body', 'data-stage'), 'play');
    // And "End the game" ends it.
    await page.click('#end-play');
    const n = await answered(page);
    await page.click('#end-confirm-yes');
    await settle(page, n + 1);
    assert.equal(await page.getAttribute('body', 'data-stage'), 'end');
    await page.close();
  });

  test('keys typed while a move is on its way are queued, not lost; an error does not move the grid', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await duelAtLastSetupRound(page);
    let n = await answered(page);
    await page.click('#next-round');
    await settle(page, n + 1);
    const gridBefore = await page.locator('#board').boundingBox();
    // The server answers each move 300 ms late: a person types faster than that.
    await page.route(/\/api\/duel\/[^/]+\/move$/, async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });

    // Three presses of s, each while the one before is on its way: the piece moves three times.
    await cell(page, 'a1').click();
    n = await answered(page);
    await page.keyboard.press('s');
    await page.keyboard.press('s');
    await page.keyboard.press('s');
    await settle(page, n + 3);
    assert.equal(await errorText(page), '');
    assert.match(await cell(page, 'a4').getAttribute('aria-label'), /^a4, red 6/);
    assert.match(await page.textContent('#status'), /^Round 4 /);
    // The selection followed the piece: one more key moves it on (right).
    assert.match(await cell(page, 'a4').getAttribute('aria-label'), /selected/);
    n = await answered(page);
    await page.keyboard.press('d');
    await settle(page, n + 1);
    assert.match(await cell(page, 'b4').getAttribute('aria-label'), /^b4, red 6/);

    // A refused key shows its error without pushing the grid down under the pointer.
    n = await answered(page);
    await page.keyboard.press('s');
    await settle(page, n + 1);
    assert.match(await errorText(page), /cannot move down/);
    const gridAfter = await page.locator('#board').boundingBox();
    assert.equal(gridAfter.y, gridBefore.y);
    await noSeriousA11yViolations(page, 'the Duel page with an error');
    await page.close();
  });

  test("on a phone a refused move's error covers no key and no control, sits in the flow, and can be dismissed", async () => {
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await duelAtLastSetupRound(page);
    let n = await answered(page);
    await page.click('#next-round');
    await settle(page, n + 1);
    await cell(page, 'a1').click();
    // The player scrolled so the keys and "End the play stage" are at the bottom of the screen,
    // where a thumb reaches them, and taps a refused move (a: off the grid).
    await page.evaluate(() => document.getElementById('end-play').scrollIntoView({ block: 'end' }));
    const controls = ['#keypad button[data-key="w"]', '#keypad button[data-key="a"]', '#keypad button[data-key="s"]', '#keypad button[data-key="d"]', '#end-play'];
    for (let i = 0; i < 2; i += 1) {
      n = await answered(page);
      await page.locator('#keypad button[data-key="a"]').tap();
      await settle(page, n + 1);
      assert.match(await errorText(page), /cannot move left/);
      const err = await page.locator('#error').boundingBox();
      for (const c of controls) {
        const b = await page.locator(c).boundingBox();
        const covered = err.x < b.x + b.width && b.x < err.x + err.width && err.y < b.y + b.height && b.y < err.y + err.height;
        assert.ok(!covered, `the error (${Math.round(err.y)}–${Math.round(err.y + err.height)} px) covers ${c} (${Math.round(b.y)}–${Math.round(b.y + b.height)} px)`);
      }
      // In the flow: not fixed over the page, and nothing else drawn over anything.
      assert.equal(await page.$eval('#error-box', (e) => getComputedStyle(e).position), 'static');
      if (i === 0) {
        await shot(page, 'duel-error-phone');
        // Dismissed by its button…
        await page.locator('#error-dismiss').tap();
        assert.equal(await errorText(page), '');
      } else {
        // …or by Escape.
        await page.keyboard.press('Escape');
        assert.equal(await errorText(page), '');
      }
    }
    await page.close();
  });
});

// ---------------------------------------------------------------- UNO

async function createTable(body) {
  const r = await fetch(`${env.server.base}/api/tables`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const created = await r.json();
  assert.equal(r.status, 201, JSON.stringify(created));
  return created;
}

/** Opens a table in the lobby: the person and one random bot at the given pace. */
async function openTable(page, { pace = '150', oneRound = false, seed } = {}) {
  await page.goto(`${env.server.base}/uno.html${seed ? `?seed=${seed}` : ''}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.fill('#your-name', 'Pia');
  await page.click('#seat-list li:nth-child(3) .remove-seat');
  await page.selectOption('#bot-level-1', 'random');
  if (oneRound) await page.check('#hr-one-round');
  await page.selectOption('#bot-pace', pace);
  await page.click('#create');
  await page.waitForSelector('#play:not([hidden])');
  await page.waitForFunction(() => !!document.querySelector('#hand button[data-card]'));
}

const version = async (page) => Number((await page.getAttribute('body', 'data-version')) || '-1');
const handSize = (page) => page.locator('#hand button[data-card]').count();

/** The page's seat moves once (a playable card, else draw or pass); false when not its move. */
async function moveOnce(page) {
  const v = await version(page);
  if (!(await page.isHidden('#color-picker'))) {
    await page.click('#color-buttons button[data-color="red"]');
  } else {
    const card = page.locator('#hand button.playable').first();
    if (await card.count()) {
      const wild = /^W/.test(await card.getAttribute('data-card'));
      await card.click();
      if (wild) {
        await page.waitForSelector('#color-picker:not([hidden])');
        await page.click('#color-buttons button[data-color="red"]');
      }
    } else if (await page.locator('#act-pass').count()) await page.click('#act-pass');
    else if (await page.locator('#act-accept').count()) await page.click('#act-accept');
    else if (await page.locator('#act-draw').count()) await page.click('#act-draw');
    else return false;
  }
  await page.waitForFunction((k) => Number(document.body.dataset.version || '-1') > k, v, { timeout: 10000 });
  return true;
}

/** Checks what the page offers about UNO against the view it holds; presses the button once
 * with a double click when it shows. Returns whether it showed. */
async function checkUnoButton(page) {
  // One read of the page, so a turn that moves on between two reads cannot mislead.
  const { shown, mine, cards } = await page.evaluate(() => ({
    shown: !!document.getElementById('act-uno'),
    mine: document.body.dataset.myTurn === 'true',
    cards: document.querySelectorAll('#hand button[data-card]').length,
  }));
  if (!shown) return false;
  // Before playing the second-to-last card, or at one card not yet called (until someone acts).
  assert.ok((mine && cards <= 2) || cards === 1, 'the own UNO call shows only at two cards on the own turn, or at one card');
  const calls = async () => ((await page.textContent('#uno-log')).match(/You called UNO!/g) || []).length;
  const before = await calls();
  const v = await version(page);
  const sent = Number((await page.getAttribute('body', 'data-sent')) || '0');
  await page.dblclick('#act-uno');
  // The page sends a call once, whatever the second click does (it counts what leaves it).
  assert.equal(Number((await page.getAttribute('body', 'data-sent')) || '0'), sent + 1, 'the double click sent two calls');
  await page.waitForFunction((k) => Number(document.body.dataset.version || '-1') > k, v, { timeout: 10000 });
  await page.waitForFunction((n) => (document.getElementById('uno-log').textContent.match(/You called UNO!/g) || []).length > n, before);
  const log = await page.textContent('#uno-log');
  assert.equal(await calls(), before + 1, log);
  assert.doesNotMatch(log, /wrongly|false UNO call/);
  assert.equal(await page.locator('#act-uno').count(), 0, 'no second call is offered');
  return true;
}

describe('UNO traps', () => {
  test('"Call UNO!" appears only when it means something, and a double click calls once', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    const frames = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(f.payload)));
    // A chosen deal, the same every run: with seed 1 the person (seat 0 of two, who always plays
    // the first playable card) wins the round against the random bot, whose choices follow the
    // seed too, so the call at two cards is always met and checked (if the engine ever plays it
    // otherwise, choose another seed where the person wins: 4 and 5 did too).
    await openTable(page, { oneRound: true, seed: 1 });
    // Seven cards or more (a first-card Draw Two adds two): no call means anything, none is offered.
    await page.waitForFunction(() => document.body.dataset.version !== undefined);
    assert.ok((await handSize(page)) >= 7);
    assert.equal(await page.locator('#act-uno, #act-catch').count(), 0);
    let seen = false;
    for (let step = 0; step < 600; step += 1) {
      if (await page.evaluate(() => /over/.test(document.getElementById('turn').textContent))) break;
      if (await checkUnoButton(page)) seen = true;
      if ((await page.getAttribute('body', 'data-my-turn')) === 'true') await moveOnce(page);
      else {
        // On another's turn only a late call at one card (before anyone acts) means something.
        // One read of the page, so a turn that moves on between two reads cannot mislead.
        const now = await page.evaluate(() => ({
          mine: document.body.dataset.myTurn === 'true',
          uno: !!document.getElementById('act-uno'),
          cards: document.querySelectorAll('#hand button[data-card]').length,
        }));
        if (now.uno && !now.mine) assert.equal(now.cards, 1, 'no own call on the other seat\'s turn');
        await page.waitForTimeout(40);
      }
    }
    const log = await page.textContent('#uno-log');
    assert.doesNotMatch(log, /You called UNO wrongly/);
    // The person who won went through two cards on their turn: the call was offered then.
    assert.match(log, /You won the round/, 'the chosen deal is won by the person');
    assert.ok(seen, 'the call was offered before the last card');
    await page.close();
  });

  test('a round won stays on screen with every hand and its points until a person deals', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await openTable(page, { pace: '150' });
    for (let step = 0; step < 800; step += 1) {
      if (!(await page.isHidden('#round-end'))) break;
      if ((await page.getAttribute('body', 'data-my-turn')) === 'true') await moveOnce(page);
      else await page.waitForTimeout(40);
    }
    await page.waitForSelector('#round-end:not([hidden])');
    assert.match(await page.textContent('#round-end-title'), /(You win|wins) round 1 and \d+ points/);
    // Every hand is shown: the loser's cards are drawn, with their points.
    assert.ok((await page.locator('#round-end-hands svg.card-svg').count()) > 0);
    const v = await version(page);
    await settled(page); // the banner's entrance is over
    await shot(page, 'uno-round-end');
    await noSeriousA11yViolations(page, 'the UNO round end');
    // The bot (150 ms pace) does not deal: the server says nobody deals on a timer (no pause
    // before a next deal, as a table of bots only has), and a person is offered the deal.
    const id = new URL(page.url()).searchParams.get('table');
    const seen = await page.evaluate(async (t) => (await fetch(`/api/tables/${t}`)).json(), id);
    assert.equal(seen.round_pause_ms, undefined, JSON.stringify(seen.round_pause_ms));
    assert.ok(await page.isHidden('#round-countdown'));
    assert.equal(await version(page), v);
    assert.ok(await page.isVisible('#round-end'));
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'round-next');
    await page.click('#round-next');
    await page.waitForSelector('#round-end', { state: 'hidden' });
    await page.waitForFunction(() => /Round 2 begins/.test(document.getElementById('uno-log').textContent));
    // The banner's button is gone: the focus is near the hand, not on the page body.
    assert.ok(await page.evaluate(() => document.activeElement !== document.body));
    await page.close();
  });

  test('at a table of bots only, the next round follows a visible countdown', async () => {
    const created = await createTable({
      preset: 'official',
      seats: [
        { kind: 'bot', bot: 'random' },
        { kind: 'bot', bot: 'random' },
      ],
      // A long match, so the round shown is never the last (a finished game keeps its banner).
      house_rules: { match_target: 10000 },
      // Bots slow enough that the next round stays on screen a while (at 0 ms a two-bot round can be
      // over before the page draws it, and the banner would seem never to go).
      bot_delay_ms: 150,
      seed: 5,
    });
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/uno.html?table=${created.id}`);
    await page.waitForSelector('#join:not([hidden])');
    await page.click('#watch-button');
    await page.waitForSelector('#round-end:not([hidden])', { timeout: 60000 });
    assert.match(await page.textContent('#round-countdown'), /The next round starts in [1-5] s\./);
    assert.ok(await page.isHidden('#round-next'));
    await noSeriousA11yViolations(page, 'the round end of a bots-only table');
    await page.waitForSelector('#round-end', { state: 'hidden', timeout: 20000 });
    await page.close();
  });

  test('hints and refusals say what is true: not your turn, errors gone when the turn moves on', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await openTable(page, { pace: '1200' });
    // Wait for the bot's turn (after one move of ours if we begin).
    for (let i = 0; i < 20 && (await page.getAttribute('body', 'data-my-turn')) === 'true'; i += 1) await moveOnce(page);
    assert.equal(await page.getAttribute('body', 'data-my-turn'), 'false');
    // (force: Playwright waits for aria-disabled elements to become enabled; a person just clicks.)
  await page.click('#hand button[data-card] >> nth=0', { force: true });
    assert.match(await page.textContent('#error'), /^It is not your turn: Bot 2 \(random\) is playing\.$/);
    // The bot moves: the error is about a moment that has passed and goes away.
    await page.waitForSelector('#error', { state: 'hidden', timeout: 10000 });
    await page.close();
  });

  test('the lobby refuses a one-seat table in words; Escape closes the colour picker', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Cy');
    await page.click('#seat-list li:nth-child(3) .remove-seat');
    await page.click('#seat-list li:nth-child(2) .remove-seat');
    await page.click('#create');
    await page.waitForSelector('#create-error:not([hidden])');
    assert.equal(await page.textContent('#create-error'), 'A table needs at least two seats: add a bot or a seat for a person.');

    // A seat with a wild: play it, press Escape, and the picker closes with the focus on the hand.
    // A chosen deal, the same every run: seed 4 gives the person (seat 0 of two) the first move
    // with a Wild Draw Four in hand (if the engine ever deals it otherwise, choose another seed
    // that does).
    await openTable(page, { pace: '1200', seed: 4 });
    await page.waitForFunction(() => document.body.dataset.myTurn === 'true', null, { timeout: 15000 });
    const wild = page.locator('#hand button.playable[data-card^="W"]');
    assert.ok((await wild.count()) > 0, 'seed 4 deals the person a playable wild on the first move');
    const v = await version(page);
    await wild.first().click();
    await page.waitForSelector('#color-picker:not([hidden])');
    await page.keyboard.press('Escape');
    assert.ok(await page.isHidden('#color-picker'));
    assert.ok(await page.evaluate(() => document.activeElement !== document.body && !!document.activeElement.closest('#play')));
    // Nothing was played: the wild is still in the hand and it is still the person's move.
    assert.equal(await version(page), v);
    assert.ok((await wild.count()) > 0);
    assert.equal(await page.getAttribute('body', 'data-my-turn'), 'true');
    await page.close();
  });
});

describe('UNO on a phone', () => {
  test('at 390×844 the pile, the hand and the actions are on screen together without scrolling', async () => {
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // A chosen deal, so every run sees the same screen: seed 6 gives Pia (seat 0 of three) seven
    // cards and the first move, with two playable cards (B2 and B8 on a B1).
    await page.goto(`${env.server.base}/uno.html?seed=6`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Pia');
    await page.selectOption('#bot-pace', '1200');
    await page.click('#create'); // Pia and two bots
    await page.waitForSelector('#play:not([hidden])');
    await page.waitForFunction(() => !!document.querySelector('#hand button[data-card]'));
    await page.evaluate(() => window.scrollTo(0, 0));
    const inView = async (sel) => {
      const loc = page.locator(sel).first();
      // Absent is not on screen (and boundingBox would wait for it).
      if (!(await loc.count())) return false;
      const b = await loc.boundingBox();
      return !!b && b.y >= 0 && b.y + b.height <= 844;
    };
    assert.ok(await inView('#top-card'), 'the pile');
    await shot(page, 'uno-table-phone');
    assert.ok(await inView('#hand li:first-child button'), 'the hand');
    assert.ok(await inView('#turn'), 'whose turn');
    // The seat's own move: its actions (the playable cards and Draw) show on screen too.
    await page.waitForFunction(() => document.body.dataset.myTurn === 'true', null, { timeout: 15000 });
    // The chosen deal (if the engine ever deals seed 6 otherwise, choose another seed that gives
    // the person the first move with a playable card).
    assert.equal(await handSize(page), 7);
    assert.deepEqual(await page.$$eval('#hand button.playable', (cards) => cards.map((c) => c.dataset.card).sort()), ['B2', 'B8']);
    assert.ok(await inView('#hand li:first-child button'), 'the hand, with the hint above it');
    assert.ok(await inView('#hand button.playable'), 'a playable card, the move to make');
    assert.ok(await inView('#act-draw'), 'Draw, the other move');
    await shot(page, 'uno-table-phone');
    await noSeriousA11yViolations(page, 'the UNO table on a phone');
    // Never colour alone: every card drawn carries its colour's letter (W for a wild) in a corner,
    // and the same screen as a person with deuteranopia sees it is saved beside the others.
    const letters = await page.$$eval('#hand button[data-card], #top-card [role=img]', (cards) =>
      cards.map((c) => [c.dataset.card || 'top', [...c.querySelectorAll('svg text')].map((t) => t.textContent)]),
    );
    for (const [card, texts] of letters) {
      const want = card === 'top' ? null : card.startsWith('W') ? 'W' : card[0];
      assert.ok(want === null ? texts.some((t) => /^[RYGBW]$/.test(t)) : texts.includes(want), `${card}: ${texts}`);
    }
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'deuteranopia' });
    await shot(page, 'uno-table-phone-deuteranopia');
    await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'none' });
    await page.close();
  });
});

describe('UNO motion', () => {
  /** Opens a table in a context with the given motion preference; records every animation the
   * page starts (its target and duration). */
  async function tableWithMotion(reducedMotion) {
    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion });
    await ctx.addInitScript(() => {
      window.__motion = [];
      const original = Element.prototype.animate;
      Element.prototype.animate = function animate(frames, options) {
        window.__motion.push({ id: this.id || this.parentElement?.id || this.tagName, duration: typeof options === 'number' ? options : options?.duration });
        return original.call(this, frames, options);
      };
    });
    const page = await ctx.newPage();
    // A chosen deal, so every run plays the same game (the bot's choices follow the table's
    // seed): seed 2 gives the person the first move and a playable card.
    await openTable(page, { pace: '150', seed: 2 });
    // Play until a card has gone to the pile from each side.
    let played = false;
    for (let i = 0; i < 60 && !played; i += 1) {
      const log = await page.textContent('#uno-log');
      played = /You played/.test(log) && /Bot 2 \(random\) played/.test(log);
      if (played) break;
      if ((await page.getAttribute('body', 'data-my-turn')) === 'true') await moveOnce(page);
      else await page.waitForTimeout(50);
    }
    assert.ok(played, 'a card went to the pile from each side');
    await settled(page);
    const motion = await page.evaluate(() => window.__motion);
    // One read in the page: a hand redrawn between finding a card and reading its style would
    // read a detached button ('').
    const cssTransition = await page.evaluate(() => {
      const b = document.querySelector('#hand button[data-card]');
      return b ? getComputedStyle(b).transitionDuration : 'no card in the hand';
    });
    await ctx.close();
    return { motion, cssTransition };
  }

  test('played cards travel to the pile in at most 300 ms, and nothing moves under prefers-reduced-motion', async () => {
    const moving = await tableWithMotion('no-preference');
    assert.ok(moving.motion.some((m) => m.id === 'top-card'), JSON.stringify(moving.motion));
    for (const m of moving.motion) assert.ok(m.duration > 0 && m.duration <= 300, JSON.stringify(m));
    const still = await tableWithMotion('reduce');
    assert.deepEqual(still.motion, []);
    assert.equal(still.cssTransition, '0s');
  });
});
