// The pages in the players' languages (issue 43 item 8): the language comes from the browser,
// can be changed on every page and is remembered; the lobby and a table on a 390×844 phone in
// English, Spanish, French, German, Brazilian Portuguese and Japanese, each screenshot, with
// nothing running off the screen; plurals and refusals in the language; and every key of the
// English catalogue used by a page.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { apiCall, ARTIFACTS, overflowing, PHONE, serverAndBrowser, settled } from './harness.mjs';

const env = serverAndBrowser(['--bot-delay-ms', '0']);
const api = (path, init) => apiCall(env.server.base, path, init);
const WEB = new URL('../../crates/server/web/', import.meta.url).pathname;

/** Each language: the browser's locale that asks for it, and words its pages must show. */
const LANGUAGES = [
  { tag: 'en', locale: 'en-GB', playNow: 'Play now', draw: /^Draw a card$|^Draw \d+$/, cards: /^\d+ cards?$/, refusal: /cannot be played now/ },
  { tag: 'es', locale: 'es-MX', playNow: 'Jugar ya', draw: /^Robar/, cards: /^\d+ cartas?$/, refusal: /no se puede jugar/ },
  { tag: 'fr', locale: 'fr-FR', playNow: 'Jouer maintenant', draw: /^Piocher/, cards: /^\d+ cartes?$/, refusal: /ne peut pas être posé/ },
  { tag: 'de', locale: 'de-DE', playNow: 'Sofort spielen', draw: /ziehen$/, cards: /^\d+ Karten?$/, refusal: /kann jetzt nicht gelegt werden/ },
  { tag: 'pt-BR', locale: 'pt-BR', playNow: 'Jogar agora', draw: /^Comprar/, cards: /^\d+ cartas?$/, refusal: /não pode ser jogada agora/ },
  { tag: 'ja', locale: 'ja-JP', playNow: '今すぐ遊ぶ', draw: /引く$/, cards: /^\d+枚$/, refusal: /今は出せません/ },
];


/** A table of the person ("Ann", to play first) and a bot that waits: its page in `ctx`. */
async function tableIn(ctx, seed = '11') {
  const bot = { kind: 'bot', bot: 'heuristic', delay_ms: 10000 };
  const { status, body } = await api('/api/tables', {
    method: 'POST',
    body: JSON.stringify({ rules: { deal: { first_player: 'seat0', first_card: 'no_effect' } }, name: 'Ann', seed, seats: [{ kind: 'human' }, bot] }),
  });
  assert.equal(status, 201, JSON.stringify(body));
  const page = await ctx.newPage();
  await page.addInitScript(([k, v]) => localStorage.setItem(k, v), [`tabletop.uno.${body.id}`, JSON.stringify({ seat: 0, token: body.token })]);
  await page.goto(`${env.server.base}/uno.html?table=${body.id}`);
  await page.waitForSelector('#hand button[data-card]');
  await settled(page);
  return page;
}

describe('the pages in six languages', () => {
  for (const l of LANGUAGES) {
    test(`${l.tag}: the browser's language, on a phone, nothing off the screen`, async () => {
      const ctx = await env.browser.newContext({ viewport: PHONE, locale: l.locale, hasTouch: true, isMobile: true });
      const errors = [];
      ctx.on('weberror', (e) => errors.push(String(e.error())));
      const lobby = await ctx.newPage();
      await lobby.goto(`${env.server.base}/uno.html`);
      await lobby.waitForSelector('body[data-ready="true"]');
      assert.equal(await lobby.evaluate(() => document.documentElement.lang), l.tag);
      assert.equal(await lobby.inputValue('#language'), l.tag);
      assert.equal((await lobby.textContent('#play-now-title')).trim(), l.playNow);
      await lobby.screenshot({ path: `${ARTIFACTS}lang-${l.tag}-lobby-phone.png`, fullPage: true });
      assert.deepEqual(await overflowing(lobby), [], `${l.tag} lobby`);

      const page = await tableIn(ctx);
      assert.equal(await page.evaluate(() => document.documentElement.lang), l.tag);
      // Plurals and numbers through Intl: "7 cards" in the language.
      const sizes = await page.$$eval('#players .hand-size', (xs) => xs.map((x) => x.textContent.trim()));
      assert.ok(sizes.length === 2 && sizes.every((s) => l.cards.test(s)), `${l.tag}: ${sizes}`);
      const draw = page.locator('#act-draw');
      if (await draw.count()) assert.match((await draw.textContent()).trim(), l.draw);
      await page.screenshot({ path: `${ARTIFACTS}lang-${l.tag}-table-phone.png` });
      assert.deepEqual(await overflowing(page), [], `${l.tag} table`);
      // A refusal in the language: a card that cannot be played, tapped.
      const unplayable = page.locator('#hand button[data-card][aria-disabled="true"]').first();
      if (await unplayable.count()) {
        await unplayable.scrollIntoViewIfNeeded();
        const at = await unplayable.boundingBox();
        await page.touchscreen.tap(at.x + at.width / 2, at.y + at.height / 2);
        await page.waitForSelector('#error', { state: 'visible' });
        assert.match(await page.textContent('#error'), l.refusal);
        await page.screenshot({ path: `${ARTIFACTS}lang-${l.tag}-refusal-phone.png` });
        assert.deepEqual(await overflowing(page), [], `${l.tag} table with a refusal`);
      }
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }

  test('the language is changed on any page and remembered', async () => {
    const ctx = await env.browser.newContext({ locale: 'en-US' });
    const page = await ctx.newPage();
    for (const path of ['/', '/duel.html', '/stats.html', '/replay.html', '/uno.html']) {
      await page.goto(`${env.server.base}${path}`);
      await page.waitForSelector('#language');
    }
    await page.goto(`${env.server.base}/`);
    await page.waitForSelector('#language');
    await Promise.all([page.waitForNavigation(), page.selectOption('#language', 'de')]);
    // The page is shown once its catalogue is in (i18n.js loads it after the page's modules).
    await page.waitForSelector('html:not(.i18n-loading)', { state: 'attached' });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal((await page.textContent('a[href="uno.html"].button')).trim(), 'UNO spielen');
    // Remembered: another page, another visit.
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal((await page.textContent('#play-now-title')).trim(), 'Sofort spielen');
    assert.equal(await page.inputValue('#language'), 'de');
    await ctx.close();
  });

  test('the presets are named in the language of the page, the English words being the server ones', async () => {
    // The server's names (GET /api/uno/options) are what other clients read; the English
    // catalogue must say the same, and another language its own words.
    const { body: options } = await api('/api/uno/options');
    const english = readFileSync(`${WEB}i18n-en.js`, 'utf8');
    const word = (key) => {
      const m = english.match(new RegExp(`'${key.replace(/\./g, '\\.')}': '((?:[^'\\\\]|\\\\.)*)'`));
      return m ? m[1].replace(/\\'/g, "'") : undefined;
    };
    const ids = { official: 'official', 'uno-engine': 'unoEngine', cs410: 'cs410', 'two-color': 'twoColor', csce322: 'csce322', rlcard: 'rlcard' };
    for (const [id, key] of Object.entries(ids)) {
      assert.equal(word(`preset.${key}.title`), options.preset_titles[id], id);
      assert.equal(word(`preset.${key}.about`), options.preset_about[id], id);
    }
    const ctx = await env.browser.newContext({ locale: 'es-ES' });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/uno.html`);
    await page.waitForSelector('body[data-ready="true"]');
    const names = await page.$$eval('select[name="preset"] option', (os) => os.map((o) => o.textContent));
    assert.ok(names.includes('UNO clásico'), names.join(' | '));
    assert.ok(names.includes('Dos colores, 50 cartas'), names.join(' | '));
    assert.match(await page.textContent('#play-now-about'), /canta UNO/);
    await ctx.close();
  });

  test('the replay page’s file button is in the page’s language, by keyboard too', async () => {
    const ctx = await env.browser.newContext({ locale: 'ja-JP' });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/replay.html`);
    await page.waitForSelector('label[for="import-file"]');
    // The browser's own button (its words are the browser's) is not what a person sees.
    const input = await page.locator('#import-file').boundingBox();
    assert.ok(input && input.width <= 1 && input.height <= 1, JSON.stringify(input));
    assert.equal(await page.textContent('label[for="import-file"]'), '記録ファイルを開く');
    assert.equal(await page.textContent('#import-file-name'), 'ファイルが選ばれていません');
    // The keyboard reaches it: the focus lands on the input, which opens the picker.
    for (let i = 0; i < 20 && (await page.evaluate(() => document.activeElement?.id)) !== 'import-file'; i++) await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-file');
    // A file chosen is named in place of "no file".
    await page.setInputFiles('#import-file', { name: 'メモ.json', mimeType: 'application/json', buffer: Buffer.from('{"players": 2}') });
    await page.waitForFunction(() => document.getElementById('import-file-name')?.textContent === 'メモ.json');
    await ctx.close();
  });

  test('every key of the English catalogue is used by a page', () => {
    const catalogue = readFileSync(`${WEB}i18n-en.js`, 'utf8');
    const keys = [...catalogue.matchAll(/^\s+'([a-zA-Z0-9_.]+)':/gm)].map((m) => m[1]);
    assert.ok(keys.length > 100, `${keys.length} keys`);
    const sources = readdirSync(WEB)
      .filter((f) => /\.(js|html)$/.test(f) && !f.startsWith('i18n-'))
      .map((f) => readFileSync(`${WEB}${f}`, 'utf8'))
      .join('\n');
    // A refusal's key is made from its code (refusals.js); the type check ties those to the codes.
    // A Duel refusal's (`duel.refusal.CODE`) is made from the codes the Duel pages word, each
    // checked against the server's sentence by duel_words.test.mjs; a direction's from its name.
    const made = (k) => k.startsWith('refusal.') || k.startsWith('duel.refusal.') || k.startsWith('duel.dir.');
    const unused = keys.filter((k) => !made(k) && !sources.includes(`'${k}'`) && !sources.includes(`"${k}"`) && !sources.includes(`:${k}"`));
    assert.deepEqual(unused, []);
  });
});
