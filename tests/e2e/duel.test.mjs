// The Duel page in a real Chromium against the real server: every setup error of seed 001,
// a whole game played as the user to the end stage, play errors, the computer's answer,
// keyboard operation, reload, accessibility, and screenshots of each state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser, settled } from './harness.mjs';

const env = serverAndBrowser();

const cell = (page, name) => page.locator(`#board button[data-cell="${name}"]`);

async function answered(page) {
  return Number((await page.getAttribute('body', 'data-answered')) || '0');
}

/** Runs `fn` (which sends one action) and waits until the page has shown the server's answer. */
async function act(page, fn) {
  const n = await answered(page);
  await fn();
  await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') > k, n);
}

/** Clicks a cell and types a key, as the user does; returns the error shown ('' if none). */
async function typeOn(page, name, key) {
  await cell(page, name).click();
  await act(page, () => page.keyboard.press(key));
  return errorText(page);
}

async function errorText(page) {
  const box = page.locator('#error');
  return (await box.isVisible()) ? (await box.textContent()).trim() : '';
}

async function nextRound(page) {
  await act(page, () => page.click('#next-round'));
  return errorText(page);
}

async function cellLabel(page, name) {
  return cell(page, name).getAttribute('aria-label');
}

async function newGame(page, { width = 6, height = 6, difficulty = 'easy' } = {}) {
  await page.goto(`${env.server.base}/duel.html?width=${width}&height=${height}&difficulty=${difficulty}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#new-game:not([hidden])');
  assert.equal(await page.inputValue('#width'), String(width));
  assert.equal(await page.inputValue('#height'), String(height));
  assert.equal(await page.inputValue('#difficulty'), difficulty);
  await page.click('#start');
  await page.waitForSelector('#game:not([hidden])');
  await page.waitForSelector('#board button[data-cell="a1"]');
}

async function shot(page, name) {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true, animations: 'disabled' }); // the state, not a piece mid-slide
}

describe('Duel page', () => {
  test('every setup error message appears for its input and changes nothing', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/duel.html`);
    await page.waitForSelector('#new-game:not([hidden])');
    assert.equal(await page.inputValue('#width'), '6', 'the default size comes from the server');
    await shot(page, 'duel-new-game');
    await noSeriousA11yViolations(page, 'the Duel new-game form');

    await newGame(page);
    assert.match(await page.textContent('#stage-title'), /Setup, round 1 of 3: blocks/);

    // Round 1: only "b".
    assert.equal(
      await typeOn(page, 'a1', 'x'),
      'In round 1 of the setup only blocks can be placed: type the letter "b" (you typed "x"). Nothing was placed.',
    );
    assert.equal(await cellLabel(page, 'a1'), 'a1, empty, selected');
    assert.equal(await typeOn(page, 'a1', '3'), 'In round 1 of the setup only blocks can be placed: type the letter "b" (you typed "3"). Nothing was placed.');
    assert.equal(await typeOn(page, 'c3', 'b'), '');
    assert.match(await cellLabel(page, 'c3'), /^c3, block/);
    assert.equal(
      await typeOn(page, 'c3', 'b'),
      'Cell c3 already holds a block; an object on the grid cannot be changed. Nothing changed.',
    );
    // Keyboard only: arrows move the focus over the grid, Enter selects, a key places.
    await cell(page, 'a1').focus();
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(k);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'd2');
    await page.keyboard.press('Enter');
    await act(page, () => page.keyboard.press('b'));
    assert.equal(await errorText(page), '');
    assert.match(await cellLabel(page, 'd2'), /^d2, block/);
    await shot(page, 'duel-setup-round1');

    assert.equal(await nextRound(page), '');
    assert.match(await page.textContent('#stage-title'), /Setup, round 2 of 3: red pieces/);

    // Round 2: red pieces, numbers 1 to 6, the limits per number and in total.
    assert.equal(await nextRound(page), 'Place at least one red piece before proceeding to the next round.');
    assert.match(await page.textContent('#stage-title'), /round 2 of 3/);
    assert.equal(
      await typeOn(page, 'a1', 'b'),
      'In this round of the setup only red pieces can be placed: type a number from 1 to 6 (you typed "b"). Nothing was placed.',
    );
    assert.equal(
      await typeOn(page, 'a1', '7'),
      'In this round of the setup only red pieces can be placed: type a number from 1 to 6 (you typed "7"). Nothing was placed.',
    );
    assert.equal(await cellLabel(page, 'a1'), 'a1, empty, selected');
    assert.equal(
      await typeOn(page, 'c3', '4'),
      'Cell c3 already holds a block; an object on the grid cannot be changed. Nothing changed.',
    );
    assert.equal(await typeOn(page, 'a1', '5'), '');
    assert.equal(await typeOn(page, 'b1', '5'), '');
    assert.equal(await typeOn(page, 'c1', '5'), 'At most 2 red pieces may have the number 5. Nothing was placed.');
    assert.equal(await cellLabel(page, 'c1'), 'c1, empty, selected');
    assert.equal(await typeOn(page, 'c1', '6'), '');
    assert.equal(await typeOn(page, 'd1', '6'), 'At most 1 red piece may have the number 6. Nothing was placed.');
    assert.equal(
      await typeOn(page, 'a1', '1'),
      'Cell a1 already holds a red 5; an object on the grid cannot be changed. Nothing changed.',
    );
    await shot(page, 'duel-setup-error');
    // Fill up to the limit of 12 (three 1s, two each of 2 to 5, one 6), then one more.
    const more = [
      ['d1', '1'], ['e1', '1'], ['f1', '1'], ['a2', '2'], ['b2', '2'],
      ['c2', '3'], ['e2', '3'], ['f2', '4'], ['a3', '4'],
    ];
    for (const [c, k] of more) assert.equal(await typeOn(page, c, k), '', `placing red ${k} on ${c}`);
    assert.match(await page.textContent('#status'), /Red pieces: 12/);
    assert.equal(await typeOn(page, 'b3', '2'), 'At most 12 red pieces may be placed. Nothing was placed.');
    assert.equal(await cellLabel(page, 'b3'), 'b3, empty, selected');

    assert.equal(await nextRound(page), '');
    assert.match(await page.textContent('#stage-title'), /Setup, round 3 of 3: black pieces/);

    // Round 3: the same errors with black.
    assert.equal(await nextRound(page), 'Place at least one black piece before proceeding to the play stage.');
    assert.equal(
      await typeOn(page, 'a6', 'x'),
      'In this round of the setup only black pieces can be placed: type a number from 1 to 6 (you typed "x"). Nothing was placed.',
    );
    assert.equal(
      await typeOn(page, 'a1', '3'),
      'Cell a1 already holds a red 5; an object on the grid cannot be changed. Nothing changed.',
    );
    assert.equal(await typeOn(page, 'a6', '6'), '');
    assert.equal(await typeOn(page, 'b6', '6'), 'At most 1 black piece may have the number 6. Nothing was placed.');
    const black = [
      ['b6', '1'], ['c6', '1'], ['d6', '1'], ['e6', '2'], ['f6', '2'],
      ['a5', '3'], ['b5', '3'], ['c5', '4'], ['d5', '4'], ['e5', '5'], ['f5', '5'],
    ];
    for (const [c, k] of black) assert.equal(await typeOn(page, c, k), '', `placing black ${k} on ${c}`);
    assert.equal(await typeOn(page, 'a4', '1'), 'At most 12 black pieces may be placed. Nothing was placed.');
    assert.match(await page.textContent('#status'), /Red pieces: 12 · Black pieces: 12/);
    await shot(page, 'duel-setup-round3');
    await noSeriousA11yViolations(page, 'the Duel setup stage');

    // A reload resumes the game where it was.
    await page.reload();
    await page.waitForSelector('#board button[data-cell="a1"]');
    assert.match(await page.textContent('#stage-title'), /Setup, round 3 of 3/);
    assert.equal(await cellLabel(page, 'a6'), 'a6, black 6, B6');

    assert.equal(await nextRound(page), '');
    assert.match(await page.textContent('#stage-title'), /Play, round 1/);
    assert.match(await page.textContent('#status'), /Round 1 · Red pieces left: 12 · Black pieces left: 12/);
    await page.close();
  });

  test('a whole game played as the user: play errors, a win, and an end stage that ignores input', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await newGame(page);
    // Round 1: a block on b1. Round 2: red 6 on a1, red 3 on f5, red 2 on f6.
    // Round 3: black 5 on a2, the only black piece.
    assert.equal(await typeOn(page, 'b1', 'b'), '');
    assert.equal(await nextRound(page), '');
    for (const [c, k] of [['a1', '6'], ['f5', '3'], ['f6', '2']]) assert.equal(await typeOn(page, c, k), '');
    assert.equal(await nextRound(page), '');
    assert.equal(await typeOn(page, 'a2', '5'), '');
    assert.equal(await nextRound(page), '');
    assert.match(await page.textContent('#status'), /Round 1 · Red pieces left: 3 · Black pieces left: 1/);

    // Another key: the error, and the user types again.
    assert.equal(
      await typeOn(page, 'a1', 'x'),
      'Type "w" (up), "a" (left), "s" (down) or "d" (right) to move the selected piece (you typed "x").',
    );
    assert.match(await cellLabel(page, 'a1'), /selected/);
    await act(page, () => page.keyboard.press('a'));
    assert.equal(
      await errorText(page),
      'The piece on a1 cannot move left: it would leave the grid. It did not move; move it another way or pick another piece.',
    );
    await act(page, () => page.keyboard.press('d'));
    assert.equal(
      await errorText(page),
      'The piece on a1 cannot move right: that cell holds a block. It did not move; move it another way or pick another piece.',
    );
    assert.equal(
      await typeOn(page, 'f5', 's'),
      'The piece on f5 cannot move down: that cell holds another red piece. It did not move; move it another way or pick another piece.',
    );
    assert.equal(
      await typeOn(page, 'a2', 'w'),
      'Select one of the red pieces: cell a2 holds a black 5.',
    );
    assert.match(await cellLabel(page, 'a1'), /^a1, red 6/);
    await shot(page, 'duel-play-error');
    await noSeriousA11yViolations(page, 'the Duel play stage');

    // The red 6 attacks the black 5 (6 > 5): black has no piece left, the user wins.
    assert.equal(await typeOn(page, 'a1', 's'), '');
    assert.equal(await cellLabel(page, 'a2'), 'a2, red 6, R6, last move ended here, fight R6 vs B5: the black piece was eliminated');
    assert.match(await cellLabel(page, 'a1'), /a1, empty, last move started here/);
    assert.equal(await page.textContent('#outcome-message'), 'You win: no black piece is left.');
    assert.match(await page.textContent('#status'), /Black pieces left: 0/);
    assert.match(await page.textContent('#log'), /Red 6 attacked black 5 on a2: the black piece is eliminated\./);
    assert.ok(await page.isHidden('#next-round'));
    assert.ok(await page.isHidden('#end-play'));
    assert.ok(await page.isHidden('#keypad'));
    await shot(page, 'duel-end-win');
    await noSeriousA11yViolations(page, 'the Duel end stage');

    // The end stage reacts to nothing: no request leaves the page and the grid stays as it is.
    const sent = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/') && !r.url().endsWith('/api/health')) sent.push(r.url());
    });
    const boardBefore = await page.innerHTML('#board');
    const n = await answered(page);
    // (force: Playwright waits for aria-disabled elements to become enabled; a person just clicks.)
    await cell(page, 'a2').click({ force: true });
    for (const k of ['s', 'w', 'b', '1', 'x', 'Enter']) await page.keyboard.press(k);
    await cell(page, 'c4').click({ force: true });
    await page.keyboard.press('d');
    await settled(page);
    assert.deepEqual(sent, []);
    assert.equal(await answered(page), n);
    assert.equal(await page.innerHTML('#board'), boardBefore);
    assert.equal(await page.locator('#board .selected').count(), 0);

    // "New game" starts over, with the same size and difficulty offered.
    await page.click('#new-game-link');
    await page.waitForSelector('#new-game:not([hidden])');
    assert.equal(await page.inputValue('#difficulty'), 'easy');
    await page.close();
  });

  test('the computer answers in the same response; the user ends the play stage (a draw)', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await newGame(page, { width: 5, height: 4, difficulty: 'medium' });
    assert.equal(await page.locator('#board button[data-cell]').count(), 20);
    assert.equal(await nextRound(page), '');
    assert.equal(await typeOn(page, 'a1', '6'), '');
    assert.equal(await nextRound(page), '');
    assert.equal(await typeOn(page, 'e4', '1'), '');
    assert.equal(await nextRound(page), '');

    // Round 1: red moves down; the computer's black 1 answers (from e4 to d4 or e3).
    assert.equal(await typeOn(page, 'a1', 's'), '');
    const last = await page.textContent('#last-move');
    assert.match(last, /^Computer's move: black 1 from e4 to (d4|e3) \((left|up)\)\.$/);
    assert.equal(await page.locator('#board .last-from').getAttribute('data-cell'), 'e4');
    assert.match(await page.locator('#board .last-to').getAttribute('data-cell'), /^(d4|e3)$/);
    assert.match(await page.textContent('#status'), /^Round 2 · Red pieces left: 1 · Black pieces left: 1$/);
    assert.match(await page.textContent('#log'), /You moved red 6 from a1 to a2 \(down\)\./);
    await shot(page, 'duel-play');

    // Round 2: one more move, then the user ends the play stage: both sides have pieces, a draw.
    assert.equal(await typeOn(page, 'a2', 'd'), '');
    assert.match(await page.textContent('#status'), /^Round 3 /);
    await page.click('#end-play');
    await act(page, () => page.click('#end-confirm-yes'));
    assert.equal(await page.textContent('#outcome-message'), 'Draw: both sides still have pieces on the grid.');
    assert.equal(await page.textContent('#outcome-reason'), 'The play stage was ended by the user.');
    await shot(page, 'duel-end-draw');
    await page.close();
  });

  test('the API answers errors as {code, message, fields} and the page shows a missing game inline', async () => {
    const r = await fetch(`${env.server.base}/api/duel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ width: 30, height: 6 }),
    });
    assert.equal(r.status, 422);
    assert.deepEqual(await r.json(), {
      code: 'bad_size',
      message: 'The grid must be 1 to 26 cells in each direction (asked for 30x6).',
      fields: { error: 'bad_size', width: 30, height: 6 },
    });
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/duel.html?game=nope`);
    await page.waitForSelector('#new-game-error:not([hidden])');
    assert.match(await page.textContent('#new-game-error'), /There is no Duel game "nope"/);
    await page.close();
  });
});
