// Record files on the replay page in a real Chromium against the real server: a finished game's
// record, downloaded from the API, is opened on the page (sent to the server, which replays it
// to check it) and replays as the same game; the position shown is saved as JSON and as text,
// each the server's position of that ply; a game of seed 000's rules also as its `.uno` files.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiCall, finishedBotGame, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
const finishedGame = (seed, preset) => finishedBotGame(env.server.base, seed, preset);

async function downloaded(page, click) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(click)]);
  const chunks = [];
  for await (const c of await d.createReadStream()) chunks.push(c);
  return { name: d.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}

describe('record files on the replay page', () => {
  test('opens a record file and saves the position shown', async () => {
    const id = await finishedGame(5);
    const record = await api(`/api/games/${id}/record`);
    assert.equal(record.status, 200);
    const ctx = await env.browser.newContext({ acceptDownloads: true });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/replay.html`);
    await page.waitForSelector('#replay-error:not([hidden])');
    // A file that is not a record: refused in words, nothing opened.
    await page.setInputFiles('#import-file', { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"players": 2}') });
    await page.waitForFunction(() => document.getElementById('replay-error').textContent.startsWith('notes.json:'));
    await page.setInputFiles('#import-file', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record.body)) });
    await page.waitForURL((u) => u.searchParams.get('game') && u.searchParams.get('game') !== id);
    await page.waitForSelector('#replay:not([hidden])');
    const copy = new URL(page.url()).searchParams.get('game');
    const plies = record.body.actions.length;
    assert.match(await page.textContent('#ply-label'), new RegExp(`^Action 0 of ${plies}`));
    const kept = await api(`/api/games/${copy}/record`);
    assert.deepEqual(kept.body.actions, record.body.actions);
    assert.deepEqual(kept.body.result, record.body.result);

    // The position at a ply, saved in both forms: the server's position of that ply.
    await page.click('#timeline a[data-ply="6"]');
    await page.waitForFunction(() => document.body.dataset.ply === '6');
    const want = await api(`/api/games/${id}/position?ply=6`);
    assert.equal(want.status, 200);
    const json = await downloaded(page, '#export-position-json');
    assert.equal(json.name, `uno-${copy}-ply6.position.json`);
    assert.deepEqual(JSON.parse(json.text), want.body.position);
    const text = await downloaded(page, '#export-position-text');
    assert.equal(text.text, want.body.text);
    assert.match(text.text, /^uno-position 1\n/);
    // Not seed 000's rules: no `.uno` button.
    assert.equal(await page.isHidden('#export-position-uno'), true);
    await ctx.close();
  });

  test('a record sent in as a file is marked imported, its names as the file gives them', async () => {
    const id = await finishedGame(8);
    const record = (await api(`/api/games/${id}/record`)).body;
    assert.equal(record.imported, undefined, 'a game played here is not imported');
    // A forged game under a real player's name: the file names whom it likes.
    const forged = { ...record, seats: [{ name: 'Ann' }, { bot: 'heuristic' }, { bot: 'heuristic' }] };
    const ctx = await env.browser.newContext();
    const page = await ctx.newPage();
    // The game played here: no mark.
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=all&ply=0`);
    await page.waitForSelector('#replay:not([hidden])');
    assert.ok(await page.isHidden('#imported-mark'), 'a game played here is marked imported');
    await page.setInputFiles('#import-file', { name: 'forged.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forged)) });
    await page.waitForURL((u) => u.searchParams.get('game') && u.searchParams.get('game') !== id);
    await page.waitForSelector('#replay:not([hidden])');
    const copy = new URL(page.url()).searchParams.get('game');
    // The server says so in the frames and the export; the page shows it where the names are.
    assert.equal((await api(`/api/games/${copy}/replay?view=all&ply=0`)).body.imported, true);
    assert.equal((await api(`/api/games/${copy}/record`)).body.imported, true);
    assert.ok(await page.isVisible('#imported-mark'), 'the imported record is not marked');
    assert.match(await page.textContent('#imported-mark'), /Imported[\s\S]*sent in as a record file, not played on this site/);
    assert.match(await page.textContent('#page-title'), /imported record/);
    assert.match(await page.title(), /^Imported record/);
    // Above the fold, next to the title.
    const box = await page.locator('#imported-mark').boundingBox();
    assert.ok(box && box.y < 300, `the mark at ${box && box.y} px`);
    const ann = page.locator('#players li', { hasText: 'Ann' });
    assert.match(await ann.textContent(), /name from the file/);
    assert.doesNotMatch(await page.locator('#players li').nth(1).textContent(), /name from the file/);
    await ctx.close();
  });

  test('saves a seed 000 position as its three .uno files', async () => {
    const id = await finishedGame(5, 'csce322');
    const ctx = await env.browser.newContext({ acceptDownloads: true });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/replay.html?game=${id}&ply=4`);
    await page.waitForFunction(() => document.body.dataset.ply === '4');
    const want = await api(`/api/games/${id}/position?ply=4`);
    assert.equal(want.status, 200);
    assert.ok(want.body.uno, JSON.stringify(want.body));
    const files = [];
    page.on('download', (d) => files.push(d));
    await page.click('#export-position-uno');
    for (let i = 0; i < 50 && files.length < 3; i += 1) await new Promise((r) => setTimeout(r, 100));
    assert.equal(files.length, 3);
    for (const [d, file] of files.map((d, i) => [d, ['deck', 'discard', 'hands'][i]])) {
      assert.equal(d.suggestedFilename(), `uno-${id}-ply4.${file}.uno`);
      const chunks = [];
      for await (const c of await d.createReadStream()) chunks.push(c);
      assert.equal(Buffer.concat(chunks).toString('utf8'), want.body.uno[file]);
    }
    await ctx.close();
  });
});
