// Duel's refusals in the reader's language. The server answers each with seed 001's English
// sentence and the fields it names (a cell, a side, a key); the page words it from those. Every
// sample the server's own test keeps (tests/e2e/data/duel-refusals.json) must read, in English,
// exactly as the server says it, and in each other language in that language's words, with
// nothing left unfilled. Then a real refusal on the page, in German.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();
const SAMPLES = JSON.parse(readFileSync(new URL('./data/duel-refusals.json', import.meta.url), 'utf8'));
const LANGS = ['en', 'es', 'fr', 'de', 'pt-BR', 'ja'];

/** Each sample as the Duel page words it in `lang`. */
async function worded(page, lang) {
  await page.evaluate((l) => localStorage.setItem('tabletop.lang', l), lang);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  return page.evaluate(async (samples) => {
    const { ApiError } = await import('/api.js');
    const { duelErrorText } = await import('/refusals.js');
    return samples.map((s) => duelErrorText(new ApiError(422, s.code, s.message, s.fields)));
  }, SAMPLES);
}

describe('Duel refusals in every language', () => {
  test('every sample reads as the server says it in English, and in its own words elsewhere', async () => {
    assert.ok(SAMPLES.length >= 30, `${SAMPLES.length} samples`);
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/duel.html`);
    await page.waitForSelector('body[data-ready="true"]');
    const english = await worded(page, 'en');
    SAMPLES.forEach((s, i) => assert.equal(english[i], s.message, `${s.code} in English`));
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const texts = await worded(page, lang);
      SAMPLES.forEach((s, i) => {
        assert.notEqual(texts[i], s.message, `${s.code} is still English in ${lang}`);
        assert.doesNotMatch(texts[i], /\{\w+\}/, `${s.code} in ${lang}: ${texts[i]}`);
        assert.doesNotMatch(texts[i], /\b(red|black|up|down|left|right|a block|nothing)\b/, `${s.code} in ${lang}: ${texts[i]}`);
      });
      // The same refusal for red and for black reads differently (the side is worded).
      const byCode = (code) => texts.filter((_, i) => SAMPLES[i].code === code);
      assert.equal(new Set(byCode('not_turn_of')).size, 2, `${lang}: ${byCode('not_turn_of')}`);
      assert.equal(new Set(byCode('off_grid')).size, 4, `${lang}: ${byCode('off_grid')}`);
    }
    await page.close();
  });

  test('a refusal on the page is in the page’s language', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.base}/duel.html`);
    await page.evaluate(() => localStorage.setItem('tabletop.lang', 'de'));
    await page.reload();
    await page.waitForSelector('#new-game:not([hidden])');
    await page.click('#start');
    await page.waitForSelector('#board button[data-cell="c4"]');
    const before = Number((await page.getAttribute('body', 'data-answered')) || '0');
    await page.click('#board button[data-cell="c4"]');
    await page.keyboard.press('3');
    await page.waitForFunction((k) => Number(document.body.dataset.answered || '0') > k, before);
    assert.equal(
      (await page.textContent('#error')).trim(),
      'In Runde 1 des Aufbaus lassen sich nur Blöcke setzen: tippe den Buchstaben „b“ (du hast „3“ getippt). Nichts wurde gesetzt.',
    );
    await page.close();
  });
});
