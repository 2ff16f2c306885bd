// People in a real Chromium against the real server: a guest plays, signs up in place and finds
// that game on their new profile; two signed-in people (one signed up with a passkey, the other
// with a password, each signed out and in again) open a rated table in the lobby, see each other's rating marks at the table, play it
// out, and see their ratings move on their profiles, on the leaderboard and in the statistics. (The server lists players after one rated game here:
// `--leaderboard-min-games 1`.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--leaderboard-min-games', '1', '--bot-delay-ms', '0']);

/** Signs up on the account page with a password; answers the status line. */
async function signUp(page, base, name) {
  await page.goto(`${base}/account.html`);
  await page.waitForSelector('#signed-out:not([hidden])');
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', 'pass word 1');
  await page.click('#sign-up');
  await page.waitForSelector('#signed-in:not([hidden])');
  await page.waitForFunction(() => (document.getElementById('account-status')?.textContent || '') !== '');
  return page.textContent('#account-status');
}

/**
 * Signs up on the account page with a passkey made by a virtual authenticator of the page's
 * own (Chromium's DevTools `WebAuthn` domain), signs out, and signs in again with it.
 */
async function passkeyUpSignOutAndIn(page, base, name) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.goto(`${base}/account.html`);
  await page.waitForSelector('#signed-out:not([hidden])');
  await page.fill('#passkey-sign-up-name', name);
  await page.click('#passkey-sign-up');
  await page.waitForSelector('#signed-in:not([hidden])');
  await page.click('#sign-out');
  await page.waitForSelector('#signed-out:not([hidden])');
  await page.click('#passkey-sign-in');
  await page.waitForSelector('#signed-in:not([hidden])');
  assert.equal(await page.textContent('#account-name'), name);
  const me = await page.evaluate(() => fetch('/api/account').then((r) => r.json()));
  assert.equal(me.account.passkeys, 1);
  assert.equal(me.account.password, false);
}

/** The seat token this page's browser keeps for table `id`. */
const tokenOf = (page, id) => page.evaluate((id) => JSON.parse(localStorage.getItem(`tabletop.uno.${id}`) || 'null')?.token, id);

/**
 * Plays the game at table `id` to its end from `page`, each seat by its own token (first legal
 * action, a UNO call only when nothing else is legal), as fast as the server answers.
 */
async function playOut(page, id, tokens) {
  return page.evaluate(
    async ({ id, tokens }) => {
      for (let i = 0; i < 5000; i++) {
        let acted = false;
        for (const token of tokens) {
          const auth = { Authorization: `Bearer ${token}` };
          const v = await (await fetch(`/api/tables/${id}`, { headers: auth })).json();
          if (v.status === 'finished') {
            const r = v.round_result || {};
            return { status: v.status, winner: r.match_winner ?? r.winner ?? null };
          }
          const legal = v.legal_actions || [];
          const action = legal.find((a) => a.type !== 'call_uno') || legal[0];
          if (!action) continue;
          const r = await fetch(`/api/tables/${id}/actions`, {
            method: 'POST',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ action, version: v.version }),
          });
          if (!r.ok) throw new Error(`refused: ${await r.text()}`);
          acted = true;
          break;
        }
        if (!acted) throw new Error('nobody could act');
      }
      return { status: 'unfinished', winner: null };
    },
    { id, tokens },
  );
}

describe('people', () => {
  test('a guest signs up in place and keeps the game their browser played', async () => {
    const base = `http://localhost:${env.server.port}`;
    const ctx = await env.browser.newContext();
    const page = await ctx.newPage();
    // As a guest: a table against one bot, opened in the lobby.
    await page.goto(`${base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#your-name', 'Gus');
    await page.click('#seat-list li:nth-child(3) .remove-seat');
    await page.click('#create');
    await page.waitForSelector('#play:not([hidden])');
    const id = new URL(page.url()).searchParams.get('table');
    assert.ok(id, page.url());

    // Signing up in this browser claims that seat: the game is on the new profile.
    const status = await signUp(page, base, 'Gus');
    assert.match(status, /Signed up as Gus: the game you played in this browser is on your profile/);
    await page.click('#account-profile');
    await page.waitForSelector('#player-recent li a');
    assert.equal(await page.textContent('#player-name'), 'Gus');
    const links = await page.$$eval('#player-recent li a', (as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, [`replay.html?game=${id}`]);
    await noSeriousA11yViolations(page, 'a profile with a claimed game');
    await ctx.close();
  });

  test('a rated game between signed-in people moves their ratings on the profile and the leaderboard', async () => {
    const base = `http://localhost:${env.server.port}`;
    const [ctxA, ctxB] = [await env.browser.newContext(), await env.browser.newContext()];
    const [a, b] = [await ctxA.newPage(), await ctxB.newPage()];
    // Ines signs up with a passkey, signs out and in again with it.
    await passkeyUpSignOutAndIn(a, base, 'Ines');
    await signUp(b, base, 'Jon');
    // Jon signs out, and in again with his password.
    await b.click('#sign-out');
    await b.waitForSelector('#signed-out:not([hidden])');
    await b.fill('#sign-in-name', 'jon');
    await b.fill('#sign-in-password', 'pass word 1');
    await b.click('#sign-in-form button[type="submit"]');
    await b.waitForSelector('#signed-in:not([hidden])');
    assert.equal(await b.textContent('#account-name'), 'Jon');

    // Ines opens a rated table for two people in the lobby (the seed-004 rules: a short game).
    await a.goto(`${base}/uno.html`);
    await a.waitForSelector('body[data-ready="true"]');
    await a.fill('#your-name', 'Ines');
    await a.selectOption('#preset', 'two-color');
    await a.click('#seat-list li:nth-child(3) .remove-seat');
    await a.click('#seat-list li:nth-child(2) .remove-seat');
    await a.click('#add-human');
    await a.check('#rated');
    await a.click('#create');
    await a.waitForSelector('#invite:not([hidden])');
    const invite = await a.inputValue('#invite-link');
    const id = new URL(invite).searchParams.get('table');

    // Jon joins by the invite: signed in, he sits under his account's name whatever he types.
    await b.goto(invite);
    await b.waitForSelector('#join:not([hidden])');
    await b.fill('#join-name', 'someone else');
    await b.click('#join-button');
    await b.waitForSelector('#play:not([hidden])');
    // Each seat shows its person's rating mark (newcomers: provisional) and links to a profile.
    await a.waitForFunction(() => /Jon/.test(document.getElementById('players')?.textContent || ''));
    for (const p of [a, b]) {
      const rows = await p.$$eval('#players li', (lis) => lis.map((li) => li.textContent || ''));
      assert.equal(rows.length, 2, rows.join(' | '));
      assert.ok(rows.every((r) => r.includes('1500?')), rows.join(' | '));
      assert.equal(await p.locator('#players li a.profile-link').count(), 2);
    }
    assert.match(await a.textContent('#players'), /Ines[\s\S]*Jon/);
    await a.screenshot({ path: `${ARTIFACTS}/people-rated-table.png`, fullPage: true });

    const end = await playOut(a, id, [await tokenOf(a, id), await tokenOf(b, id)]);
    assert.equal(end.status, 'finished');

    // Each profile has the rated game: a rating in the pool of the preset and table size, moved.
    const points = {};
    for (const [p, name] of [[a, 'Ines'], [b, 'Jon']]) {
      const me = await p.evaluate(() => fetch('/api/account').then((r) => r.json()));
      await p.goto(`${base}/player.html?id=${encodeURIComponent(me.account.id)}`);
      await p.waitForSelector('#player-ratings .pool');
      assert.equal(await p.textContent('#player-name'), name);
      assert.equal(await p.getAttribute('#player-ratings .pool', 'data-pool'), 'two-color/duel');
      const shown = await p.textContent('#player-ratings .pool .rating');
      points[name] = Number(shown.replace('?', ''));
      assert.equal(await p.locator('#player-ratings .pool svg circle').count(), 1, 'one point on the graph');
      assert.match(await p.textContent('#player-summary'), /1/);
    }
    // Ines sits at seat 0, Jon at seat 1: the winner moved up, the other down (a tie moves neither).
    if (end.winner === 0) assert.ok(points.Ines > 1500 && points.Jon < 1500, JSON.stringify(points));
    if (end.winner === 1) assert.ok(points.Jon > 1500 && points.Ines < 1500, JSON.stringify(points));

    // The leaderboard of that pool lists both, the higher first.
    await a.goto(`${base}/leaderboard.html?preset=two-color&size=duel`);
    await a.waitForSelector('#board-rows tr');
    const rows = await a.$$eval('#board-rows tr', (trs) => trs.map((tr) => tr.textContent || ''));
    assert.equal(rows.length, 2, rows.join(' | '));
    const top = points.Ines > points.Jon ? 'Ines' : 'Jon';
    assert.match(rows[0], new RegExp(top));
    await noSeriousA11yViolations(a, 'the leaderboard with two players');

    // The statistics count the accounts: each name links to its profile.
    await a.goto(`${base}/stats.html`);
    await a.waitForSelector('#stats:not([hidden])');
    for (const name of ['Ines', 'Jon']) {
      const href = await a.getAttribute(`#stats-rows th a:text-is("${name}")`, 'href');
      assert.match(href || '', /^player\.html\?id=[0-9a-f-]{36}$/, `${name}: ${href}`);
    }
    await ctxA.close();
    await ctxB.close();
  });
});
