// Shared set-up for the browser tests: a real `tabletop serve` on a free loopback port with a
// fresh database, and Debian's chromium driven by playwright-core.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const ARTIFACTS = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, ms) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch { /* not up yet */ }
    if (Date.now() > end) throw new Error(`server did not answer at ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the server; returns { base, dir, port, stop }. `opts.dir` and `opts.port` start it
 * again on the data and port of an earlier run (a restart); `stop({ keepData: true })` keeps the
 * data for that. */
export async function startServer(extraArgs = [], opts = {}) {
  const bin = process.env.TABLETOP_BIN;
  if (!bin) throw new Error('TABLETOP_BIN is not set (run tests/e2e/run.sh)');
  const dir = opts.dir || mkdtempSync(join(tmpdir(), 'tabletop-e2e-'));
  const port = opts.port || (await freePort());
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--db', join(dir, 'e2e.db'), ...extraArgs], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/`, 20000);
  return {
    base,
    dir,
    port,
    async stop({ keepData = false } = {}) {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      if (!keepData) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches headless chromium with the flags this machine needs. */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function axeViolations(page) {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const { readFileSync } = await import('node:fs');
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the debugging protocol, not added as a <script>: the pages' Content
  // Security Policy refuses inline scripts, and the tests keep it on.
  await page.evaluate(`${source}\n;void 0;`);
  const result = await page.evaluate(async () => await window.axe.run(document));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Asserts that axe finds no serious or critical violation on the page (`where` names the state). */
export async function noSeriousA11yViolations(page, where) {
  const { deepStrictEqual } = await import('node:assert/strict');
  const v = await axeViolations(page);
  deepStrictEqual(
    v.map((x) => `${x.id}: ${x.help} (${x.nodes.map((n) => n.target.join(' ')).join('; ')})`),
    [],
    `axe found serious violations on ${where}`,
  );
}

/**
 * Resolves once everything the page was asked to do before has been done, by events, never by
 * a time: its event handlers and their microtasks have run (two animation frames have passed),
 * a request any of them made has left (a request the page sends after them came back: requests
 * are seen in the order they are made), and no animation runs. A test that then checks that
 * nothing happened checks after it would have.
 * @param {import('playwright-core').Page} page
 */
export async function settled(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
  await page.evaluate(() => fetch('/api/health').then((r) => r.json()));
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/**
 * One server and one browser for a test file: started before its tests, stopped after them.
 * Returns `{ server, browser }`, filled in once the tests run.
 */
export function serverAndBrowser(extraArgs = []) {
  const env = { server: null, browser: null };
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    env.server = await startServer(extraArgs);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** A JSON request to the server at `base`: resolves with `{ status, body }`. */
export async function apiCall(base, path, init = {}) {
  const r = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...(init.headers || {}) },
  });
  return { status: r.status, body: await r.json() };
}

/** A finished one-round game of three heuristic bots on the server at `base` (started with
 * `--bot-delay-ms 0`, so it ends in moments): its table id. */
export async function finishedBotGame(base, seed, preset = 'official') {
  const bot = { kind: 'bot', bot: 'heuristic' };
  const { status, body } = await apiCall(base, '/api/tables', {
    method: 'POST',
    body: JSON.stringify({ preset, house_rules: { match_target: 0 }, seed, seats: [bot, bot, bot] }),
  });
  if (status !== 201) throw new Error(`the table was not created: ${JSON.stringify(body)}`);
  for (let i = 0; i < 600; i += 1) {
    if ((await apiCall(base, `/api/tables/${body.id}`)).body.status === 'finished') return body.id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the bots did not finish their game');
}

/** The phone the language tests lay pages out on. */
export const PHONE = { width: 390, height: 844 };

/** What runs past the right edge of the screen (outside a box that scrolls sideways on purpose). */
export async function overflowing(page, width = PHONE.width) {
  return page.evaluate((width) => {
    const out = [];
    for (const node of document.querySelectorAll('body *')) {
      const r = node.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const style = getComputedStyle(node);
      if (style.visibility === 'hidden' || style.position === 'fixed') continue;
      let scrolled = false;
      for (let p = node.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') scrolled = true;
      }
      if (scrolled) continue;
      // Wholly off the screen on purpose (the skip link until it has the focus) is not cut off.
      if (r.right <= 0) continue;
      if (r.right > width + 1 || r.left < -1) out.push(`${node.tagName.toLowerCase()}#${node.id}.${node.className}: ${Math.round(r.left)}..${Math.round(r.right)} "${(node.textContent || '').trim().slice(0, 40)}"`);
    }
    if (document.documentElement.scrollWidth > width) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    return out;
  }, width);
}
