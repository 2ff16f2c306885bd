// Round and game results in a real Chromium against the real server: every round end the pages
// show (the winner, the points, each hand with its points, the totals) is the server's record of
// the game, whoever ended the round (a bot, another person, the page's own player), under the
// `official` and the `two-color` scoring; and 64-bit seeds survive the pages: a record with a
// seed above 2^53 opens and replays, and the position saved as JSON plays on as the game did.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { apiCall, ARTIFACTS, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A card's points under a record's rules (its `scoring` table): the test's own count, to hold
 * the page's figures against. */
function cardPoints(scoring, card) {
  const face = card.startsWith('W') ? (card === 'W4' ? 'wild_draw_four' : 'wild') : card.slice(1);
  const named = { S: 'skip', R: 'reverse', D2: 'draw_two' }[face] || face;
  if (/^\d$/.test(named)) {
    if (scoring.digits === 'face_value' || scoring.digits === undefined) return Number(named);
    return typeof scoring.digits === 'number' ? scoring.digits : Number(named);
  }
  assert.equal(typeof scoring[named], 'number', `no points for ${card} in ${JSON.stringify(scoring)}`);
  return scoring[named];
}

/** What the server's record says of every round: from the finished game's record, its
 * timeline, and the whole-table frame at each round's last action. */
async function roundsOfRecord(id) {
  const rec = await api(`/api/games/${id}/record`);
  assert.equal(rec.status, 200, JSON.stringify(rec.body));
  const first = await api(`/api/games/${id}/replay?view=all&ply=0&timeline=true`);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const steps = first.body.timeline;
  const ends = steps.filter((s) => s.action.type === 'next_round').map((s) => s.ply - 1);
  ends.push(first.body.plies);
  const rounds = [];
  for (const ply of ends) {
    const f = (await api(`/api/games/${id}/replay?view=all&ply=${ply}`)).body;
    const scored = f.events.find((e) => e.type === 'round_scored');
    rounds.push({
      round: f.view.round,
      winner: scored ? scored.winner : null,
      points: scored ? scored.points : 0,
      totals: scored ? scored.totals : f.view.scores,
      hands: f.all_hands.map((cards) => ({ cards, points: cards.reduce((s, c) => s + cardPoints(rec.body.rules.scoring, c), 0) })),
    });
  }
  return { rounds, outcome: rec.body.result, seats: rec.body.seats };
}

/** The round-end banner as the page shows it. */
const readBanner = (page) =>
  page.evaluate(() => ({
    title: document.getElementById('round-end-title').textContent,
    rows: [...document.querySelectorAll('#round-end-hands tr')].map((tr) => ({
      winner: tr.classList.contains('winner'),
      cards: [...tr.querySelectorAll('li')].map((li) => li.dataset.card),
      points: Number(tr.children[2].textContent),
      total: Number(tr.children[3].textContent),
    })),
  }));

/**
 * Plays one table to its end: `humans` people (each in a browser page of their own, moved
 * through the API as another device of theirs would), the rest heuristic bots that move at
 * once. At every round end each person's page must show the banner for that round; the banners
 * are returned for the comparison with the record, with the game-over lines.
 */
async function playTable({ preset, humans, bots, seed, target }) {
  const body = {
    preset,
    name: 'Ann',
    seed: String(seed),
    bot_delay_ms: 0,
    seats: [...Array(humans).fill({ kind: 'human' }), ...Array(bots).fill({ kind: 'bot', bot: 'heuristic' })],
  };
  if (target !== undefined) body.house_rules = { match_target: target };
  const created = await api('/api/tables', { method: 'POST', body: JSON.stringify(body) });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { id } = created.body;
  const seats = [{ seat: created.body.seat, token: created.body.token }];
  for (let h = 1; h < humans; h += 1) {
    const j = await api(`/api/tables/${id}/join`, { method: 'POST', body: JSON.stringify({ name: ['Bob', 'Cy', 'Di'][h - 1] }) });
    assert.equal(j.status, 200, JSON.stringify(j.body));
    seats.push({ seat: j.body.seat, token: j.body.token });
  }
  const pages = [];
  for (const s of seats) {
    const context = await env.browser.newContext();
    await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [`tabletop.uno.${id}`, JSON.stringify(s)]);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${env.server.base}/uno.html?table=${id}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#play:not([hidden])');
    pages.push({ page, context, errors, seat: s.seat });
  }
  const byToken = new Map(seats.map((s) => [s.seat, s.token]));
  const auth = (seat) => ({ Authorization: `Bearer ${byToken.get(seat)}` });
  const banners = [];
  let checkedRound = 0;
  for (let step = 0; step < 20000; step += 1) {
    const v = (await api(`/api/tables/${id}`, { headers: auth(seats[0].seat) })).body;
    const phase = v.view.phase.phase;
    if ((phase === 'round_over' || phase === 'game_over') && checkedRound < v.view.round) {
      const round = v.view.round;
      for (const p of pages) {
        await p.page.waitForFunction(
          (r) => !document.getElementById('round-end').hidden && new RegExp(`\\bround ${r}\\b`, 'i').test(document.getElementById('round-end-title').textContent),
          round,
          { timeout: 10000 },
        );
        banners.push({ round, you: p.seat, ...(await readBanner(p.page)) });
      }
      checkedRound = round;
      if (phase === 'game_over') {
        for (const p of pages) {
          await p.page.waitForSelector('#scores:not([hidden])');
          banners.at(-1).result = await p.page.textContent('#result');
        }
        break;
      }
      // A person deals the next round on their page.
      await pages[0].page.click('#round-next');
      continue;
    }
    if (v.status !== 'playing' || phase === 'round_over') {
      await sleep(20);
      continue;
    }
    const seat = v.view.current;
    if (!byToken.has(seat)) {
      await sleep(10);
      continue;
    }
    const mine = (await api(`/api/tables/${id}`, { headers: auth(seat) })).body;
    const legal = mine.legal_actions;
    if (!legal.length || mine.view.current !== seat) continue;
    // A person who plays as people do: calls UNO when it is theirs to call (else the bots catch
    // them, and people would win no round), then plays the first card they may.
    const action =
      legal.find((a) => a.type === 'call_uno') || legal.find((a) => a.type === 'play') || legal.find((a) => a.type !== 'catch_uno') || legal[0];
    const r = await api(`/api/tables/${id}/actions`, { method: 'POST', headers: auth(seat), body: JSON.stringify({ action, version: mine.version }) });
    // A bot may have moved in between: the stale version is refused and the loop reads again.
    assert.ok(r.status === 200 || r.status === 409, JSON.stringify(r.body));
  }
  for (const p of pages) {
    assert.deepEqual(p.errors, [], 'no JS exception on the page');
    await p.context.close();
  }
  return { id, banners };
}

/** The name the page gives a seat (as its viewer `you` sees it). */
function nameOf(seats, i, you) {
  const s = seats[i];
  const base = s.kind === 'bot' ? `Bot ${i + 1} (${s.bot})` : s.name;
  return i === you ? `${base} (you)` : base;
}

/** Holds every banner of a table against the record's rounds. Returns how many round ends, and
 * how many were won by a bot and by a person (the page learns of a bot's winning move, and of
 * another person's, only over the WebSocket: the case the pages once got wrong). */
async function checkAgainstRecord({ id, banners }) {
  const { rounds, outcome, seats } = await roundsOfRecord(id);
  assert.deepEqual([...new Set(banners.map((b) => b.round))], rounds.map((r) => r.round), 'a banner for every round');
  for (const b of banners) {
    const r = rounds.find((x) => x.round === b.round);
    const where = `table ${id}, round ${b.round}, seen by seat ${b.you}`;
    const title =
      r.winner === null
        ? `Round ${r.round} ended without a winner`
        : `${r.winner === b.you ? 'You' : nameOf(seats, r.winner, b.you)} ${r.winner === b.you ? 'win' : 'wins'} round ${r.round} and ${r.points} point${r.points === 1 ? '' : 's'}`;
    assert.equal(b.title, title, where);
    assert.deepEqual(
      b.rows,
      r.hands.map((h, i) => ({ winner: i === r.winner, cards: h.cards, points: h.points, total: r.totals[i] })),
      where,
    );
    // The round's points are the cards left in the other hands, as the engine counted them.
    assert.equal(r.hands.reduce((s, h) => s + h.points, 0), r.winner === null ? r.hands.reduce((s, h) => s + h.points, 0) : r.points, where);
    if (b.result !== undefined) {
      const w = outcome.winner;
      const expected = w === null || w === undefined ? 'The game ended without a winner.' : `${w === b.you ? 'You' : nameOf(seats, w, b.you)} won the game.`;
      assert.equal(b.result, expected, `${where}: the game's result`);
    }
  }
  const won = (kind) => rounds.filter((r) => r.winner !== null && seats[r.winner].kind === kind).length;
  return { ends: rounds.length, byBot: won('bot'), byPerson: won('human') };
}

/** Adds up the round ends of several tables. */
function tally(results) {
  return results.reduce((t, r) => ({ ends: t.ends + r.ends, byBot: t.byBot + r.byBot, byPerson: t.byPerson + r.byPerson }), { ends: 0, byBot: 0, byPerson: 0 });
}

describe('round results', () => {
  test('every round end under official scoring, a person and two bots, is the record', { timeout: 600000 }, async (t) => {
    const results = [];
    for (const seed of [11, 12, 13]) {
      results.push(await checkAgainstRecord(await playTable({ preset: 'official', humans: 1, bots: 2, seed, target: 200 })));
    }
    const { ends, byBot, byPerson } = tally(results);
    t.diagnostic(`${ends} round ends: ${byBot} won by a bot, ${byPerson} by the person`);
    assert.ok(ends >= 8, `${ends} round ends`);
    assert.ok(byBot > 0 && byPerson > 0, `rounds won by bots (${byBot}) and by the person (${byPerson})`);
  });

  test('every round end with two people and a bot is the record, on both pages', { timeout: 600000 }, async (t) => {
    const results = [];
    for (const seed of [21, 22]) {
      results.push(await checkAgainstRecord(await playTable({ preset: 'official', humans: 2, bots: 1, seed, target: 400 })));
    }
    const { ends, byBot, byPerson } = tally(results);
    t.diagnostic(`${ends} round ends (each on both people's pages): ${byBot} won by the bot, ${byPerson} by a person`);
    assert.ok(ends >= 4, `${ends} round ends`);
    assert.ok(byBot > 0 && byPerson > 0, `rounds won by the bot (${byBot}) and by people (${byPerson})`);
  });

  test('every round end under two-color scoring (Reverse 30, Draw Two 40) is the record', { timeout: 600000 }, async (t) => {
    const results = [];
    for (const [seed, humans, bots] of [[31, 1, 2], [32, 1, 3], [33, 2, 1], [34, 1, 1], [35, 1, 2], [36, 2, 2], [37, 1, 2], [38, 1, 3]]) {
      results.push(await checkAgainstRecord(await playTable({ preset: 'two-color', humans, bots, seed })));
    }
    const { ends, byBot, byPerson } = tally(results);
    t.diagnostic(`${ends} round ends: ${byBot} won by a bot, ${byPerson} by a person`);
    assert.equal(ends, 8);
    assert.ok(byBot > 0 && byPerson > 0, `rounds won by bots (${byBot}) and by people (${byPerson})`);
  });
});

// A seed above 2^53: a JavaScript number cannot hold it (it would round to an even number).
const BIG_SEED = '18446744073709551557';

describe('64-bit seeds', () => {
  test('a table dealt from a seed above 2^53 keeps its seed in the record, and its record file opens and replays', { timeout: 120000 }, async () => {
    const bot = { kind: 'bot', bot: 'heuristic' };
    const made = await fetch(`${env.server.base}/api/tables`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"preset":"official","house_rules":{"match_target":0},"seed":${BIG_SEED},"seats":[${JSON.stringify(bot)},${JSON.stringify(bot)},${JSON.stringify(bot)}]}`,
    });
    assert.equal(made.status, 201);
    const { id } = await made.json();
    let finished = false;
    for (let i = 0; i < 600 && !finished; i += 1) {
      finished = (await api(`/api/tables/${id}`)).body.status === 'finished';
      if (!finished) await sleep(50);
    }
    assert.ok(finished, 'the bots finished');
    // The record as the site saves it (the replay page's "Download the record"), read as text:
    // the seed is a string of every digit.
    const saving = await env.browser.newContext({ acceptDownloads: true });
    const at = await saving.newPage();
    await at.goto(`${env.server.base}/replay.html?game=${id}&view=all`);
    await at.waitForSelector('#replay:not([hidden])');
    const [saved] = await Promise.all([at.waitForEvent('download'), at.click('#export')]);
    const text = readFileSync(await saved.path(), 'utf8');
    await saving.close();
    assert.match(text, new RegExp(`"seed":"${BIG_SEED}"`));
    const file = join(tmpdir(), `record-${id}.json`);
    writeFileSync(file, text);
    // An older record wrote the seed as a number: the page must send those bytes untouched too.
    const numeric = join(tmpdir(), `record-${id}-numeric.json`);
    writeFileSync(numeric, text.replace(`"seed":"${BIG_SEED}"`, `"seed":${BIG_SEED}`));
    const original = (await api(`/api/games/${id}/replay?view=all`)).body;
    for (const path of [file, numeric]) {
      const page = await env.browser.newPage();
      await page.goto(`${env.server.base}/replay.html`);
      await page.setInputFiles('#import-file', path);
      await page.waitForURL(/game=/, { timeout: 15000 });
      await page.waitForSelector('#replay:not([hidden])');
      const imported = new URL(page.url()).searchParams.get('game');
      assert.notEqual(imported, id);
      const again = await (await fetch(`${env.server.base}/api/games/${imported}/record`)).text();
      assert.match(again, new RegExp(`"seed":"${BIG_SEED}"`), path);
      // The same deal and the same end: every hand at the last action as the original's.
      const replayed = (await api(`/api/games/${imported}/replay?view=all`)).body;
      assert.deepEqual(replayed.all_hands, original.all_hands, path);
      assert.deepEqual(replayed.view.scores, original.view.scores, path);
      assert.equal(replayed.plies, original.plies, path);
      await page.close();
    }
  });

  test('the position saved as JSON keeps its 64-bit seed and plays on as the game did', { timeout: 120000 }, async () => {
    const bot = { kind: 'bot', bot: 'heuristic' };
    const made = await fetch(`${env.server.base}/api/tables`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ preset: 'official', house_rules: { match_target: 0 }, seed: BIG_SEED, seats: [bot, bot, bot] }),
    });
    assert.equal(made.status, 201);
    const { id } = await made.json();
    for (let i = 0; i < 600; i += 1) {
      if ((await api(`/api/tables/${id}`)).body.status === 'finished') break;
      await sleep(50);
    }
    const record = JSON.parse(await (await fetch(`${env.server.base}/api/games/${id}/record`)).text());
    assert.equal(record.seed, BIG_SEED);
    const plies = record.actions.length;
    // A ply some way in: the draw pile has been drawn from, so the generator's state matters.
    const ply = Math.floor(plies / 2);
    const ctx = await env.browser.newContext({ acceptDownloads: true });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/replay.html?game=${id}&view=all&ply=${ply}`);
    await page.waitForFunction((n) => document.body.dataset.ply === String(n), ply);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-position-json')]);
    const saved = readFileSync(await download.path(), 'utf8');
    await ctx.close();
    writeFileSync(join(ARTIFACTS, '..', `position-${id}-ply${ply}.json`), saved);
    assert.match(saved, new RegExp(`"seed": "${BIG_SEED}"`));
    // Played on through the server: a record that starts from the saved position and takes the
    // game's remaining actions must end exactly as the game did.
    const start = JSON.parse(saved);
    const rest = { engine_version: record.engine_version, rules: record.rules, players: record.players, seed: start.seed, start, actions: record.actions.slice(ply), seats: record.seats };
    const sent = await fetch(`${env.server.base}/api/records`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rest) });
    const answer = await sent.json();
    assert.equal(sent.status, 201, JSON.stringify(answer));
    const onward = (await api(`/api/games/${answer.id}/replay?view=all`)).body;
    const original = (await api(`/api/games/${id}/replay?view=all`)).body;
    assert.equal(onward.plies, plies - ply);
    assert.deepEqual(onward.all_hands, original.all_hands);
    assert.deepEqual(onward.view.scores, original.view.scores);
    assert.deepEqual(onward.view.outcome, original.view.outcome);
  });
});
