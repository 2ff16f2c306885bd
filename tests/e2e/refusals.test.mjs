// The replay and Duel pages in a real Chromium against the real server: when the server refuses
// something, the page says it in a sentence for people (refusals.js), never in the server's words
// for programs (a JSON reader's text, a refusal code). The Duel engine's own refusals, which seed
// 001 words for the player, still show word for word.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, serverAndBrowser, startServer } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);

/** Words a person must never read: the server's words for programs. */
function assertPeopleWords(text, where) {
  assert.ok(text.trim().length > 10, `${where}: a sentence is shown ("${text}")`);
  for (const bad of [
    /request body/i,
    /unknown variant/i,
    /missing field/i,
    /invalid type/i,
    /expected/i,
    /line \d+ column \d+/i,
    /json/i,
    /`/,
    /\b[a-z]+_[a-z_]+\b/,
  ]) {
    assert.doesNotMatch(text, bad, `${where}: "${text}"`);
  }
}

describe('refusals in words for people', () => {
  test('the replay page words a file that is not a record, and a game not kept', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/replay.html`);
    await page.waitForSelector('#replay-error:not([hidden])');
    // Valid JSON, not a record: the server refuses it with its reader's words.
    await page.setInputFiles('#import-file', {
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"players": 2, "actions": "none"}'),
    });
    await page.waitForFunction(() => document.getElementById('replay-error').textContent.startsWith('notes.json: '));
    const shown = (await page.textContent('#replay-error')).slice('notes.json: '.length);
    assertPeopleWords(shown, 'a file that is not a record');

    await page.goto(`${env.server.base}/replay.html?game=nope&view=all&ply=0`);
    await page.waitForSelector('#replay-error:not([hidden])');
    const missing = await page.textContent('#replay-error');
    assertPeopleWords(missing, 'a game not kept');
    assert.doesNotMatch(missing, /"nope"|no game record is kept/, missing);
    await page.close();
  });

  test('the Duel page words a request it could not read, and shows the engine refusal as seed 001 words it', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${env.server.base}/duel.html?width=6&height=6&difficulty=easy`);
    await page.waitForSelector('#new-game:not([hidden])');
    await page.click('#start');
    await page.waitForSelector('#board button[data-cell="a1"]');
    const answered = async () => Number((await page.getAttribute('body', 'data-answered')) || '0');

    // The engine's refusal: the player's words, as the seed gives them.
    await page.click('#board button[data-cell="a1"]');
    let n = await answered();
    await page.keyboard.press('x');
    await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') > k, n);
    assert.equal(
      (await page.textContent('#error')).trim(),
      'In round 1 of the setup only blocks can be placed: type the letter "b" (you typed "x"). Nothing was placed.',
    );

    // A body the server cannot read (the page's request rewritten): refused with serde's words.
    await page.route(
      '**/api/duel/*/place',
      (route) => route.continue({ postData: JSON.stringify({ cell: 5, key: 'b' }) }),
      { times: 1 },
    );
    n = await answered();
    await page.keyboard.press('b');
    await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') > k, n);
    assert.equal(await page.isVisible('#error'), true);
    assertPeopleWords(await page.textContent('#error'), 'a Duel request the server could not read');
    // Nothing was placed.
    assert.doesNotMatch(await page.getAttribute('#board button[data-cell="a1"]', 'aria-label'), /block/);
    await page.close();
  });

  test('a connection limit reached is said in words, not as the generic refusal', async () => {
    // A server that lets one address hold eight connections (room for a page's loading): eight
    // live sockets (other tabs of the same person, say) fill it, and the lobby's next request is refused with
    // `too_many_connections`, a code of the server's own (ServerCode) that has its sentence.
    const CAP = 8;
    const server = await startServer(['--bot-delay-ms', '0', '--max-connections-per-address', String(CAP)]);
    try {
      const bot = { kind: 'bot', bot: 'random', delay_ms: 10000 };
      const made = await apiCall(server.base, '/api/tables', { method: 'POST', body: JSON.stringify({ seats: [{ kind: 'human' }, bot] }) });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const lobby = await env.browser.newContext();
      const page = await lobby.newPage();
      await page.goto(`${server.base}/uno.html`);
      await page.waitForSelector('body[data-ready="true"]');
      // Other tabs: spectators' sockets, which the server never sheds as it sheds idle ones.
      const tabs = await env.browser.newContext();
      const other = await tabs.newPage();
      await other.goto(`${server.base}/`);
      const open = await other.evaluate(async ([id, cap]) => {
        const sockets = [];
        for (let i = 0; i < cap; i += 1) {
          const ws = new WebSocket(`ws://${location.host}/api/tables/${id}/ws`);
          const opened = await new Promise((resolve) => {
            ws.onopen = () => resolve(true);
            ws.onerror = () => resolve(false);
          });
          if (opened) sockets.push(ws);
        }
        window.sockets = sockets;
        return sockets.length;
      }, [made.body.id, CAP]);
      assert.equal(open, CAP, 'the sockets open');
      await page.fill('#your-name', 'Ann');
      await page.click('#create');
      await page.waitForSelector('#create-error', { state: 'visible' });
      const text = (await page.textContent('#create-error')).trim();
      assertPeopleWords(text, 'too many connections');
      assert.equal(text, 'Too many pages of this site are open from your connection (other tabs or devices): close one and try again.');
      await tabs.close();
      await lobby.close();
    } finally {
      await server.stop();
    }
  });
});
