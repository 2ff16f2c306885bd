// @ts-check
// The pages' languages: one catalogue per language (i18n-LANG.js), each keyed by the English
// catalogue's keys (`Key`), so a catalogue missing a key, or holding one the English has not,
// fails the type check (scripts/test). The language comes from the browser (its list of
// languages), can be changed on every page (a list in the header) and is remembered. Plurals go
// through `Intl.PluralRules`, numbers through `Intl.NumberFormat`.
//
// Only the page's language is loaded: its catalogue is a dynamic `import()`, awaited at this
// module's top level, so every module that imports this one runs once the words are there (and
// `t` stays synchronous). The English catalogue is imported for its type only.
//
// On import this module sets the page's `lang`, writes every element's text named by a
// `data-i18n` key (and the attributes named by `data-i18n-ATTR`) and puts the language list in
// the header, so a page without a script of its own (the landing page) needs only this one.
/** @typedef {typeof import('./i18n-en.js').en} English */
/** @typedef {keyof English} Key */
/** A plural entry: a form per plural category the language uses (`other` always). */
/** @typedef {{ other: string } & Partial<Record<'zero' | 'one' | 'two' | 'few' | 'many', string>>} Plural */
/** A catalogue: every key, each a text or a plural. */
/** @typedef {{ [K in Key]: English[K] extends string ? string : Plural }} Catalogue */

/** The languages, by their BCP 47 tags, each named in itself. */
export const LANGUAGES = /** @type {const} */ ([
  ['en', 'English'],
  ['es', 'Español'],
  ['fr', 'Français'],
  ['de', 'Deutsch'],
  ['pt-BR', 'Português (Brasil)'],
  ['ja', '日本語'],
]);
/** @typedef {(typeof LANGUAGES)[number][0]} Lang */

/** Each language's catalogue, loaded when it is the page's. @type {Record<Lang, () => Promise<Catalogue>>} */
const CATALOGUES = {
  en: () => import('./i18n-en.js').then((m) => m.en),
  es: () => import('./i18n-es.js').then((m) => m.es),
  fr: () => import('./i18n-fr.js').then((m) => m.fr),
  de: () => import('./i18n-de.js').then((m) => m.de),
  'pt-BR': () => import('./i18n-pt-BR.js').then((m) => m.ptBR),
  ja: () => import('./i18n-ja.js').then((m) => m.ja),
};

const STORE = 'tabletop.lang';

/**
 * The language a list of the browser's languages asks for: the first this site speaks (a
 * regional tag falls back to its language: `es-MX` is `es`, every `pt` is `pt-BR`).
 * @param {readonly string[]} wanted
 * @returns {Lang}
 */
export function pickLanguage(wanted) {
  for (const w of wanted) {
    const tag = w.toLowerCase();
    const exact = LANGUAGES.find(([l]) => l.toLowerCase() === tag);
    if (exact) return exact[0];
    const base = tag.split('-')[0];
    const near = LANGUAGES.find(([l]) => l.toLowerCase().split('-')[0] === base);
    if (near) return near[0];
  }
  return 'en';
}

/** @returns {Lang} */
function chosen() {
  try {
    const kept = localStorage.getItem(STORE);
    if (kept && LANGUAGES.some(([l]) => l === kept)) return /** @type {Lang} */ (kept);
  } catch {
    /* no storage: the browser's languages */
  }
  return pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language || 'en']);
}

/** The page's language. */
export const lang = chosen();
// Until the words are there, a page in another language than its HTML's (English) is not shown
// (style.css), so that nobody sees it in English first; the language is the page's at once.
document.documentElement.lang = lang;
if (lang !== 'en') document.documentElement.classList.add('i18n-loading');
/** The page's catalogue: English when the language's could not be loaded. @type {Catalogue} */
const catalogue = await CATALOGUES[lang]().catch(() => CATALOGUES.en());
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** A number as the language writes it. @param {number} n */
export const num = (n) => numbers.format(n);

/** A date and time as the language writes it. @param {Date | number} d */
export const dateTime = (d) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d);

/**
 * The text of `key` in the page's language, `{name}` replaced by `vars.name` (a number through
 * `Intl.NumberFormat`); a plural entry picks its form by `vars.n`.
 * @param {Key} key
 * @param {Record<string, string | number>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const entry = catalogue[key];
  let text;
  if (typeof entry === 'string') text = entry;
  else {
    const n = Number(vars.n ?? 0);
    const forms = /** @type {Plural} */ (entry);
    text = forms[/** @type {keyof Plural} */ (plurals.select(n))] ?? forms.other;
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    const v = vars[name];
    if (v === undefined) return m;
    return typeof v === 'number' ? num(v) : v;
  });
}

/** Whether `key` is one of the catalogue's. @param {string} key @returns {key is Key} */
export const isKey = (key) => Object.prototype.hasOwnProperty.call(catalogue, key);

/**
 * Writes the page's words: every `data-i18n` element's text, every `data-i18n-ATTR` attribute.
 * @param {ParentNode} [root]
 */
export function translate(root = document) {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]'))) {
    const key = node.dataset.i18n || '';
    if (isKey(key)) node.textContent = t(key);
  }
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n-attrs]'))) {
    for (const pair of (node.dataset.i18nAttrs || '').split(';')) {
      const [attr, key] = pair.split(':');
      if (attr && key && isKey(key)) node.setAttribute(attr, t(key));
    }
  }
}

/** The language list in the page's header: a change is kept, and the page read again in it. */
function picker() {
  const header = document.querySelector('header.site');
  if (!header || header.querySelector('#language')) return;
  const select = document.createElement('select');
  select.id = 'language';
  select.className = 'language';
  select.setAttribute('aria-label', t('lang.choose'));
  for (const [tag, name] of LANGUAGES) {
    const option = document.createElement('option');
    option.value = tag;
    option.lang = tag;
    option.textContent = name;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener('change', () => {
    try {
      localStorage.setItem(STORE, select.value);
    } catch {
      /* no storage: this page only */
    }
    location.reload();
  });
  header.append(select);
}

document.documentElement.lang = lang;
// The word before every error, which the style sheet writes (`content`), in the language.
document.documentElement.style.setProperty('--error-label', JSON.stringify(t('site.error')));
translate();
picker();
document.documentElement.classList.remove('i18n-loading');
