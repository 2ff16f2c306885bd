// How the pages feel beyond the traps (issue 16): Duel keeps its history across a reload, names
// the moving piece, states the fight rule, points out a standoff, slides its pieces (not under
// reduced motion), shows both numbers of a fight, refuses a grid too small to play and fits a
// phone; the UNO lobby describes its presets and bots, and the turn sound is optional.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

async function shot(page, name) {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: false, animations: 'disabled' });
}

/** Each Duel game's token (its creator's: red), by game id, as the create answered it. */
const TOKENS = new Map();

/** A request to the server; a Duel game's routes carry the game's token, as its page sends it. */
async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
  const game = /^\/api\/duel\/([^/]+)\//.exec(path)?.[1];
  if (game && TOKENS.has(game)) headers.Authorization = `Bearer ${TOKENS.get(game)}`;
  const r = await fetch(`${env.server.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = { status: r.status, body: await r.json() };
  if (path === '/api/duel' && answer.body.token) TOKENS.set(answer.body.id, answer.body.token);
  return answer;
}

async function ok(path, body) {
  const r = await api('POST', path, body);
  assert.equal(r.status, path === '/api/duel' ? 201 : 200, JSON.stringify(r.body));
  return r.body;
}

/** A Duel game set up through the API and started: `blocks` are cells, `red` and `black` are
 * [cell, rank] pairs. */
async function duelInPlay({ width, height, blocks = [], red, black }) {
  const { id } = await ok('/api/duel', { width, height, difficulty: 'easy' });
  for (const c of blocks) await ok(`/api/duel/${id}/place`, { cell: c, key: 'b' });
  await ok(`/api/duel/${id}/next-round`);
  for (const [c, r] of red) await ok(`/api/duel/${id}/place`, { cell: c, key: String(r) });
  await ok(`/api/duel/${id}/next-round`);
  for (const [c, r] of black) await ok(`/api/duel/${id}/place`, { cell: c, key: String(r) });
  const started = await ok(`/api/duel/${id}/next-round`);
  assert.equal(started.status.stage.stage, 'play');
  return id;
}

/** Two armies that can never meet: a wall of blocks across the middle row of a 3×3 grid. */
const WALLED = { width: 3, height: 3, blocks: ['a2', 'b2', 'c2'], red: [['a1', 6]], black: [['a3', 6]] };

const cell = (page, name) => page.locator(`#board button[data-cell="${name}"]`);
async function settle(page, n) {
  await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') >= k, n);
}
const answered = async (page) => Number((await page.getAttribute('body', 'data-answered')) || '0');

/** The page of Duel game `id`, holding the game's token as the page that created it would. */
async function openDuel(page, id) {
  const held = JSON.stringify({ seat: 0, token: TOKENS.get(id) });
  await page.addInitScript(([k, v]) => localStorage.setItem(k, v), [`tabletop.duel.${id}`, held]);
  await page.goto(`${env.server.base}/duel.html?game=${id}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#board button[data-cell="a1"]');
}

/** The user moves the piece on `from` with `key`, on the page; the computer answers. */
async function moveOnPage(page, from, key) {
  await cell(page, from).click();
  const n = await answered(page);
  await page.keyboard.press(key);
  await settle(page, n + 1);
}

describe('Duel', () => {
  test('a reload keeps "What happened" and names the moving piece in the last-move line', async () => {
    const id = await duelInPlay(WALLED);
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await openDuel(page, id);
    await moveOnPage(page, 'a1', 'd');
    const live = await page.locator('#log li').allTextContents();
    assert.ok(live.some((l) => l === 'You moved red 6 from a1 to b1 (right).'), live.join('\n'));

    await page.reload();
    await page.waitForSelector('#board button[data-cell="a1"]');
    const log = await page.locator('#log li').allTextContents();
    // Newest first, as the live page showed it: the next round, the computer's answer, the
    // user's move, then the setup.
    assert.deepEqual(log.slice(0, 3), [
      'Round 2 begins.',
      'The computer moved black 6 from a3 to b3 (right).',
      'You moved red 6 from a1 to b1 (right).',
    ]);
    assert.ok(log.includes('Placed red 6 on a1.'), log.join('\n'));
    assert.ok(log.includes('Placed a block on b2.'), log.join('\n'));
    assert.equal(log.at(-1), 'Placed a block on a2.');
    assert.equal(await page.textContent('#last-move'), "The computer's last move: black 6 from a3 to b3.");
    await page.close();
  });

  test('the fight rule shows during play, and a long spell without a fight points to the way out', async () => {
    const id = await duelInPlay(WALLED);
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await openDuel(page, id);
    assert.ok(await page.isVisible('#fight-rule'));
    assert.match(await page.textContent('#fight-rule'), /wins if its number is higher, or if it is a 1 attacking a 6/);
    assert.ok(await page.isHidden('#standoff'));

    // Ten rounds of red shuffling behind the wall, and black answering.
    let last = null;
    for (let i = 0; i < 10; i += 1) {
      const at = i % 2 === 0 ? 'a1' : 'b1';
      last = await ok(`/api/duel/${id}/move`, { cell: at, key: i % 2 === 0 ? 'd' : 'a' });
    }
    assert.equal(last.rounds_without_fight, 11);
    await page.reload();
    await page.waitForSelector('#standoff:not([hidden])');
    assert.match(await page.textContent('#standoff'), /^No fight for 11 rounds\. .*End the play stage… ends it/);
    await noSeriousA11yViolations(page, 'the Duel standoff hint');
    await shot(page, 'duel-standoff');
    await page.close();
  });

  test('a fight shows both numbers on its cell, and the last move names the attacker after a reload', async () => {
    // One column: red 6 steps next to black 1, which must attack, and a 1 beats a 6.
    const id = await duelInPlay({ width: 1, height: 3, red: [['a1', 6]], black: [['a3', 1]] });
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await openDuel(page, id);
    await moveOnPage(page, 'a1', 's');
    assert.equal(await page.getAttribute('body', 'data-stage'), 'end');
    assert.equal(await cell(page, 'a2').locator('.piece').getAttribute('data-fight'), 'B1 vs R6');
    assert.equal(
      await page.$eval('#board button[data-cell="a2"] .piece', (p) => getComputedStyle(p, '::after').content),
      '"B1 vs R6"',
    );
    assert.match(await cell(page, 'a2').getAttribute('aria-label'), /fight B1 vs R6: the red piece was eliminated$/);
    await noSeriousA11yViolations(page, 'a Duel fight');
    assert.match(await page.textContent('#last-move'), /black 1 from a3 to a2 \(up\)\. Black 1 attacked red 6 on a2: the red piece is eliminated\./);
    await page.reload();
    await page.waitForSelector('#outcome:not([hidden])');
    assert.equal(await page.textContent('#last-move'), "The computer's last move: black 1 from a3 to a2; the red piece was eliminated.");
    const log = await page.locator('#log li').allTextContents();
    assert.ok(log.includes('Black 1 attacked red 6 on a2: the red piece is eliminated.'), log.join('\n'));
    assert.ok(log.includes('The computer moved black 1 from a3 to a2 (up).'), log.join('\n'));
    await page.close();
  });

  test('pieces slide within 300 ms, and not at all under prefers-reduced-motion', async () => {
    async function movesWith(reducedMotion) {
      const id = await duelInPlay(WALLED);
      const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion });
      await ctx.addInitScript(() => {
        window.__motion = [];
        const original = Element.prototype.animate;
        Element.prototype.animate = function animate(frames, options) {
          const cellName = this.closest('button[data-cell]')?.dataset.cell;
          window.__motion.push({ cell: cellName, duration: options?.duration, delay: options?.delay || 0 });
          return original.call(this, frames, options);
        };
      });
      const page = await ctx.newPage();
      await openDuel(page, id);
      await moveOnPage(page, 'a1', 'd');
      const motion = await page.evaluate(() => window.__motion);
      await ctx.close();
      return motion;
    }
    const moving = await movesWith('no-preference');
    // The red piece lands on b1; the computer's black piece slides along row 3.
    assert.ok(moving.some((m) => m.cell === 'b1'), JSON.stringify(moving));
    assert.ok(moving.some((m) => /3$/.test(m.cell)), JSON.stringify(moving));
    for (const m of moving) assert.ok(m.duration > 0 && m.duration + m.delay <= 300, JSON.stringify(m));
    assert.deepEqual(await movesWith('reduce'), []);
  });

  test('a grid with room for fewer than two pieces is refused before the game starts', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/duel.html?width=1&height=1`);
    await page.waitForSelector('#new-game:not([hidden])');
    await page.click('#start');
    await page.waitForSelector('#new-game-error:not([hidden])');
    assert.equal(
      await page.textContent('#new-game-error'),
      'A 1x1 grid has no room for a red and a black piece: make it at least 2 cells (for example 1x2).',
    );
    assert.ok(await page.isHidden('#game'));
    const refused = await api('POST', '/api/duel', { width: 1, height: 1 });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'too_small');
    // The smallest playable grid plays to its end.
    const id = await duelInPlay({ width: 1, height: 2, red: [['a1', 2]], black: [['a2', 1]] });
    const end = await ok(`/api/duel/${id}/move`, { cell: 'a1', key: 's' });
    assert.equal(end.status.stage.stage, 'end');
    await page.close();
  });

  test('on a phone (390×844) the computer\'s move and the end button show without scrolling', async () => {
    const id = await duelInPlay({ width: 6, height: 6, red: [['a6', 3], ['b6', 4]], black: [['a1', 3], ['f1', 2]] });
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await openDuel(page, id);
    await cell(page, 'a6').tap();
    const n = await answered(page);
    await page.tap('#keypad button[data-key="w"]');
    await settle(page, n + 1);
    await page.evaluate(() => window.scrollTo(0, 0));
    const inView = async (sel) => {
      const b = await page.locator(sel).boundingBox();
      return !!b && b.y >= 0 && b.y + b.height <= 844 && b.x >= 0 && b.x + b.width <= 390;
    };
    assert.match(await page.textContent('#last-move'), /^Computer's move: /);
    await shot(page, 'duel-play-phone');
    assert.ok(await inView('#last-move'), 'the computer\'s move');
    assert.ok(await inView('#end-play'), 'the end button');
    assert.ok(await inView('#board button[data-cell="f6"]'), 'the whole grid');
    assert.ok(await inView('#keypad button[data-key="d"]'), 'the keys');
    await noSeriousA11yViolations(page, 'Duel on a phone');
    await page.close();
  });
});

// ---------------------------------------------------------------- UNO

describe('UNO', () => {
  test('the lobby describes the chosen rules and each bot in a line', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    assert.match(await page.textContent('#preset-about'), /^The rules in the box: 7 cards each/);
    await page.selectOption('#preset', 'two-color');
    assert.match(await page.textContent('#preset-about'), /^A short game for 2 to 4 players: only red and blue cards/);
    // The default seats: two bots at medium, each with its line, tied to its list.
    assert.match(await page.textContent('#bot-level-1-about'), /good casual player/);
    await page.selectOption('#bot-level-1', 'random');
    assert.match(await page.textContent('#bot-level-1-about'), /^Plays a random card/);
    assert.equal(await page.getAttribute('#bot-level-1', 'aria-describedby'), 'bot-level-1-about');
    await page.selectOption('#bot-level-2', 'ismcts');
    assert.match(await page.textContent('#bot-level-2-about'), /^Thinks ahead: .* wins most often\.$/);
    await page.selectOption('#bot-level-2', 'flat');
    assert.match(await page.textContent('#bot-level-2-about'), /The best measured against Medium bots\.$/);
    await shot(page, 'uno-lobby');
    await noSeriousA11yViolations(page, 'the UNO lobby with descriptions');
    await page.close();
  });

  test('the turn sound is off until switched on, then chimes when the turn comes', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Pia');
    await page.click('#seat-list li:nth-child(3) .remove-seat');
    await page.selectOption('#bot-level-1', 'random');
    await page.selectOption('#bot-pace', '150');
    await page.click('#create');
    await page.waitForSelector('#play:not([hidden])');
    await page.waitForFunction(() => !!document.querySelector('#hand button[data-card]'));
    assert.equal(await page.getAttribute('#turn-sound', 'aria-pressed'), 'false');
    const chimes = async () => Number((await page.getAttribute('body', 'data-turn-sounds')) || '0');

    /** Plays until the turn has come to the page's seat `times` more times. */
    async function turnsCome(times) {
      let came = 0;
      let mine = (await page.getAttribute('body', 'data-my-turn')) === 'true';
      for (let i = 0; i < 400 && came < times; i += 1) {
        if (/over/.test(await page.textContent('#turn'))) break;
        const now = (await page.getAttribute('body', 'data-my-turn')) === 'true';
        if (now && !mine) came += 1;
        mine = now;
        if (now) {
          const v = Number((await page.getAttribute('body', 'data-version')) || '-1');
          const card = page.locator('#hand button.playable').first();
          if (!(await page.isHidden('#color-picker'))) await page.click('#color-buttons button[data-color="red"]');
          else if (await card.count()) {
            const wild = /^W/.test(await card.getAttribute('data-card'));
            await card.click();
            if (wild) await page.click('#color-buttons button[data-color="red"]');
          } else if (await page.locator('#act-pass').count()) await page.click('#act-pass');
          else if (await page.locator('#act-accept').count()) await page.click('#act-accept');
          else if (await page.locator('#act-draw').count()) await page.click('#act-draw');
          else {
            await page.waitForTimeout(30);
            continue;
          }
          await page.waitForFunction((k) => Number(document.body.dataset.version || '-1') > k, v, { timeout: 10000 });
        } else await page.waitForTimeout(30);
      }
      return came;
    }

    assert.ok((await turnsCome(2)) >= 1);
    assert.equal(await chimes(), 0, 'no sound unless asked for');
    await page.click('#turn-sound');
    assert.equal(await page.getAttribute('#turn-sound', 'aria-pressed'), 'true');
    const came = await turnsCome(2);
    assert.ok(came >= 1);
    assert.ok((await chimes()) >= 1, 'a chime when the turn came');
    // The choice is remembered in this browser.
    await page.reload();
    await page.waitForSelector('#play:not([hidden])');
    assert.equal(await page.getAttribute('#turn-sound', 'aria-pressed'), 'true');
    await page.click('#turn-sound');
    await page.close();
  });
});

describe('UNO hints', () => {
  test('after a first-card Wild the colour reads "not chosen yet", not a colour nobody chose', async () => {
    // Seed 19 turns up a Wild as the first card, and the seat of the lobby's creator chooses.
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/uno.html?seed=19`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Pia');
    await page.click('#seat-list li:nth-child(3) .remove-seat');
    await page.selectOption('#bot-level-1', 'random');
    await page.selectOption('#bot-pace', '1200');
    await page.click('#create');
    await page.waitForSelector('#play:not([hidden])');
    await page.waitForFunction(() => !!document.querySelector('#hand button[data-card]'));
    assert.equal(await page.getAttribute('#top-card [role=img]', 'aria-label'), 'Top card: Wild');
    assert.equal(await page.textContent('#color-in-play'), 'Colour in play: not chosen yet (you choose)');
    await page.close();
  });

  test('the hint says "draw" only while drawing is the move: never in a challenge or after a draw', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
    // Every hint the page shows, with the actions on screen when it showed.
    await ctx.addInitScript(() => {
      window.__hints = [];
      new MutationObserver(() => {
        const hint = document.getElementById('hand-hint');
        if (!hint) return;
        const last = window.__hints.at(-1);
        const now = {
          hint: hint.textContent,
          draw: !!document.getElementById('act-draw'),
          challenge: !!document.getElementById('act-challenge'),
          pass: !!document.getElementById('act-pass'),
        };
        if (!last || JSON.stringify(last) !== JSON.stringify(now)) window.__hints.push(now);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Pia');
    await page.click('#seat-list li:nth-child(3) .remove-seat');
    await page.selectOption('#bot-level-1', 'random');
    await page.selectOption('#bot-pace', '150');
    await page.click('#hr-one-round');
    await page.click('#create');
    await page.waitForSelector('#play:not([hidden])');
    await page.waitForFunction(() => !!document.querySelector('#hand button[data-card]'));
    // The seat draws whenever it may (a card it could play too), so "after a draw" comes often.
    let drew = 0;
    for (let i = 0; i < 300 && drew < 6; i += 1) {
      if (/over/.test(await page.textContent('#turn'))) break;
      if ((await page.getAttribute('body', 'data-my-turn')) !== 'true') {
        await page.waitForTimeout(30);
        continue;
      }
      const v = Number((await page.getAttribute('body', 'data-version')) || '-1');
      if (!(await page.isHidden('#color-picker'))) await page.click('#color-buttons button[data-color="red"]');
      else if (await page.locator('#act-accept').count()) await page.click('#act-accept');
      else if (await page.locator('#act-pass').count()) await page.click('#act-pass');
      else if (await page.locator('#act-draw').count()) {
        await page.click('#act-draw');
        drew += 1;
      } else {
        await page.waitForTimeout(30);
        continue;
      }
      await page.waitForFunction((k) => Number(document.body.dataset.version || '-1') > k, v, { timeout: 10000 });
    }
    const hints = await page.evaluate(() => window.__hints);
    assert.ok(drew > 0, 'the seat drew');
    assert.ok(hints.some((h) => /^No card can be played: draw/.test(h.hint)) || hints.some((h) => h.pass), JSON.stringify(hints));
    for (const h of hints) {
      if (/: draw/.test(h.hint)) {
        assert.ok(h.draw, `a hint to draw with no Draw button: ${JSON.stringify(h)}`);
        assert.ok(!h.challenge, `a hint to draw during a challenge: ${JSON.stringify(h)}`);
      }
    }
    await ctx.close();
  });
});

describe('Duel on a grid full of blocks', () => {
  test('a setup with no cell left for a piece says so and offers a new game instead of Next round', async () => {
    const { id } = await ok('/api/duel', { width: 1, height: 2, difficulty: 'easy' });
    await ok(`/api/duel/${id}/place`, { cell: 'a1', key: 'b' });
    await ok(`/api/duel/${id}/place`, { cell: 'a2', key: 'b' });
    await ok(`/api/duel/${id}/next-round`);
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await openDuel(page, id);
    assert.equal(
      await page.textContent('#instructions'),
      'No empty cell is left for a red piece, so this game cannot go on: start a new game with fewer blocks.',
    );
    assert.ok(await page.isHidden('#next-round'));
    await page.click('#setup-restart');
    await page.waitForSelector('#new-game:not([hidden])');
    assert.equal(await page.inputValue('#width'), '1');
    assert.equal(await page.inputValue('#height'), '2');
    await page.close();
  });
});

describe('logs', () => {
  test('a log of 100 entries and more has room for its numbers ("300. ")', async () => {
    for (const [path, id] of [['duel.html', 'log'], ['uno.html', 'uno-log']]) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const page = await env.browser.newPage({ viewport });
        await page.goto(`${env.server.base}/${path}`);
        const { pad, need } = await page.evaluate((logId) => {
          const ol = document.getElementById(logId);
          const cs = getComputedStyle(ol);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          // The longest number a log shows (Duel keeps 300 events) and the marker's space.
          return { pad: parseFloat(cs.paddingLeft), need: ctx.measureText('300. ').width };
        }, id);
        assert.ok(pad >= need, `${path} at ${viewport.width} px: ${pad} px of room for a ${need} px number`);
        await page.close();
      }
    }
  });
});

describe('cards', () => {
  test("every colour's corner letters are readable on the card (contrast 4.5:1 or more, yellow included)", async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    const cards = await page.evaluate(async () => {
      const { cardSvg } = await import('/unocards.js');
      return ['R5', 'Y5', 'G5', 'B5', 'YS', 'YD2'].map((c) => {
        const node = cardSvg(c);
        const card = node.querySelector('rect').getAttribute('fill');
        const corners = [...node.querySelectorAll('g text')].map((t) => t.getAttribute('fill'));
        return { c, card, corners };
      });
    });
    const lum = (ink) => {
      const hex = ink.length === 4 ? `#${[...ink.slice(1)].map((d) => d + d).join('')}` : ink;
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    for (const { c, card, corners } of cards) {
      assert.equal(corners.length, 4, c);
      for (const ink of corners) assert.ok(contrast(card, ink) >= 4.5, `${c}: ${ink} on ${card} is ${contrast(card, ink).toFixed(2)}:1`);
    }
    await page.close();
  });
});

describe('the invite link', () => {
  test("the invitee's page leads with the join form, the invite link below it", async () => {
    const made = await api('POST', '/api/tables', { preset: 'official', name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${env.server.base}/uno.html?table=${made.body.id}`);
    await page.waitForSelector('#join:not([hidden])');
    const join = await page.locator('#join').boundingBox();
    const invite = await page.locator('#invite').boundingBox();
    assert.ok(!invite || join.y < invite.y, `the join form at ${join.y} px, the invite at ${invite?.y} px`);
    // On a phone the name field and the button to take a seat are on the first screen.
    const button = await page.locator('#join-button').boundingBox();
    assert.ok(button.y + button.height <= 844, `Take a seat at ${button.y} px`);
    await page.close();
  });
});
