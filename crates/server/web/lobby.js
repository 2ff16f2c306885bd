// @ts-check
// The UNO lobby: open a table (rules, house rules, seats, bots and their pace), and the list of
// open tables.
import { $, capitalize, el, field, request, showError } from './api.js';
import { num, t } from './i18n.js';
import { setupQuickMatch } from './quick.js';
import { errorText } from './refusals.js';
import { listedSeat } from './seats.js';
import { saveName, savedName, saveSeat } from './seatstore.js';

/** @typedef {import('./protocol').TableSummary} TableSummary */
/** @typedef {import('./protocol').TableList} TableList */
/** @typedef {import('./protocol').Created} Created */
/** @typedef {import('./protocol').UnoOptions} Options `GET /api/uno/options`: the presets, their lines and the bots */
/** @typedef {import('./protocol').CreateTable} CreateTable `POST /api/tables`: what the create form sends */
/** @typedef {import('./protocol').SeatSpec} SeatSpec */
/** @typedef {import('./protocol').HouseRules} HouseRules */

const BOT_LEVELS = [
  ['random', t('bot.random')],
  ['heuristic', t('bot.heuristic')],
  ['ismcts', t('bot.ismcts')],
  ['net', t('bot.net')],
  ['flat+net', t('bot.flatNet')],
];
/** How each bot plays, in a line for the lobby. */
/** @type {Record<string, string>} */
const BOT_WORDS = {
  random: t('bot.about.random'),
  uniform: t('bot.about.uniform'),
  first: t('bot.about.first'),
  heuristic: t('bot.about.heuristic'),
  precedence: t('bot.about.precedence'),
  ismcts: t('bot.about.ismcts'),
  flat: t('bot.about.flat'),
  net: t('bot.about.net'),
  'flat+net': t('bot.about.flatNet'),
};


/** @type {Options} */
let options = { presets: ['official'], preset_descriptions: {}, preset_titles: {}, preset_about: {}, bots: BOT_LEVELS.map(([b]) => b), phrases: [] };

/** A preset's name for people, as the server names it (its id when it has none).
 * @param {string} id */
export const presetTitle = (id) => (id in PRESET_WORDS ? t(PRESET_WORDS[id][0]) : options.preset_titles[id] || id);
/** What a preset plays, in the page's language (the server's English line for a preset the
 * catalogues do not name yet). @param {string} id */
const presetAbout = (id) =>
  id in PRESET_WORDS ? t(PRESET_WORDS[id][1]) : options.preset_about[id] || options.preset_descriptions[id] || '';
/** The catalogue's words for the presets people are offered, by id: their name, what they play.
 * @type {Record<string, [import('./i18n.js').Key, import('./i18n.js').Key]>} */
const PRESET_WORDS = {
  official: ['preset.official.title', 'preset.official.about'],
  'uno-engine': ['preset.unoEngine.title', 'preset.unoEngine.about'],
  cs410: ['preset.cs410.title', 'preset.cs410.about'],
  'two-color': ['preset.twoColor.title', 'preset.twoColor.about'],
  csce322: ['preset.csce322.title', 'preset.csce322.about'],
  rlcard: ['preset.rlcard.title', 'preset.rlcard.about'],
};

/**
 * @param {string} kind `human` or `bot`
 * @param {number} index
 */
function seatRow(kind, index) {
  const li = el('li', { class: 'seat-row', dataset: { kind } });
  const n = index + 1;
  if (index === 0) {
    li.append(el('span', {}, t('lobby.seat.you', { n })));
    return li;
  }
  if (kind === 'human') {
    li.append(el('span', {}, t('lobby.seat.human', { n })));
  } else {
    const id = `bot-level-${index}`;
    const select = /** @type {HTMLSelectElement} */ (el('select', { id, class: 'bot-level' }));
    const known = BOT_LEVELS.filter(([b]) => options.bots.includes(b));
    for (const [value, text] of known) select.append(el('option', { value }, text));
    for (const b of options.bots.filter((b) => !known.some(([k]) => k === b))) {
      select.append(el('option', { value: b }, capitalize(b)));
    }
    select.value = options.bots.includes('heuristic') ? 'heuristic' : options.bots[0];
    const about = el('span', { id: `${id}-about`, class: 'hint seat-about' });
    select.setAttribute('aria-describedby', about.id);
    const describe = () => {
      about.textContent = BOT_WORDS[select.value] || '';
    };
    select.addEventListener('change', describe);
    describe();
    li.append(el('label', { for: id }, t('lobby.seat.bot', { n })), ' ', select, about);
  }
  li.append(
    ' ',
    el('button', { type: 'button', class: 'remove-seat', 'aria-label': t('lobby.seat.removeLabel', { n: index + 1 }), onclick: () => removeSeat(index) }, t('lobby.seat.remove')),
  );
  return li;
}

let seatKinds = ['human', 'bot', 'bot'];

function renderSeats() {
  // Keep the chosen bot levels when the list is redrawn.
  const levels = [...document.querySelectorAll('#seat-list li')].map((li) => li.querySelector('select')?.value);
  const list = $('seat-list');
  list.replaceChildren(...seatKinds.map((k, i) => seatRow(k, i)));
  [...list.querySelectorAll('li')].forEach((li, i) => {
    const s = li.querySelector('select');
    if (s && levels[i]) s.value = levels[i];
  });
  field('add-human').disabled = seatKinds.length >= 10;
  field('add-bot').disabled = seatKinds.length >= 10;
}

/** @param {number} index */
function removeSeat(index) {
  seatKinds.splice(index, 1);
  renderSeats();
}

export async function showLobby() {
  $('lobby').hidden = false;
  $('page-title').textContent = 'UNO';
  try {
    options = /** @type {Options} */ (await request('GET', '/api/uno/options'));
  } catch (err) {
    showError($('create-error'), errorText(err));
  }
  setupQuickMatch(options.presets);
  const preset = field('preset');
  preset.replaceChildren(...options.presets.map((p) => el('option', { value: p }, presetTitle(p))));
  preset.value = options.presets.includes('official') ? 'official' : options.presets[0];
  const describePreset = () => {
    $('preset-about').textContent = presetAbout(preset.value);
  };
  preset.addEventListener('change', describePreset);
  describePreset();
  field('your-name').value = savedName();
  renderSeats();
  $('add-human').addEventListener('click', () => {
    seatKinds.push('human');
    renderSeats();
  });
  $('add-bot').addEventListener('click', () => {
    seatKinds.push('bot');
    renderSeats();
  });
  $('create-form').addEventListener('submit', createTable);
  field('play-name').value = savedName();
  $('play-now-about').textContent = `${t('lobby.playNow.about', { rules: presetTitle(QUICK_PRESET) })} ${presetAbout(QUICK_PRESET)}`.trim();
  $('play-now-form').addEventListener('submit', playNow);
  $('refresh-tables').addEventListener('click', () => Promise.all([listTables(), listLive()]));
  await Promise.all([listTables(), listLive()]);
}

/** The games being played now, people's first, each one click from watching. */
async function listLive() {
  /** @type {TableSummary[]} */
  let games = [];
  try {
    const answer = /** @type {import('./protocol').LiveGames} */ (await request('GET', '/api/games/live'));
    games = answer.games || [];
  } catch {
    /* the open tables' list says what went wrong */
  }
  $('live-empty').hidden = games.length > 0;
  $('live-list').replaceChildren(
    ...games.map((g) => {
      const players = g.seats.map(listedSeat).join(', ');
      const p = g.progress;
      const scores = p && p.target ? t('live.scores', { scores: p.scores.map(num).join('–'), target: p.target }) : '';
      const progress = p ? `${t('live.progress', { round: p.round, turn: p.turns + 1 })}${scores}` : '';
      return el(
        'li',
        { class: 'live-game' },
        el('a', { href: `uno.html?table=${encodeURIComponent(g.id)}&watch=1`, class: 'watch-link' }, t('live.watch', { name: tableName(g) })),
        ` · ${g.rules} · ${players}${progress}`,
      );
    }),
  );
}

async function listTables() {
  /** @type {TableSummary[]} */
  let list = [];
  try {
    const answer = /** @type {TableList} */ (await request('GET', '/api/tables'));
    list = answer.tables || [];
  } catch (err) {
    showError($('create-error'), errorText(err));
  }
  const open = list.filter((t) => t.status === 'waiting' && t.open_seats > 0);
  $('tables-empty').hidden = open.length > 0;
  $('table-list').replaceChildren(
    ...open.map((r) => {
      const people = r.seats.map(listedSeat).join(', ');
      return el(
        'li',
        {},
        el('a', { href: `uno.html?table=${encodeURIComponent(r.id)}` }, tableName(r)),
        ` · ${presetTitle(r.rules)} · ${t('lobby.openSeats', { n: r.open_seats })} · ${people}`,
        r.chosen_seed ? ` · ${CHOSEN_SEED}` : '',
      );
    }),
  );
}

/** A name left blank (or only spaces): the others at the table see it. */
export const BLANK_NAME = t('lobby.blankName');

/** What a person is told before sitting at a table whose creator chose the seed (the server's
 * `chosen_seed` fact). */
export const CHOSEN_SEED = t('lobby.chosenSeed');

/** A table's name for people: its creator's name (the first named person), not its id. */
/**
 * @param {{ id: string, seats: import('./protocol').Occupant[] }} r
 * @returns {string}
 */
export function tableName(r) {
  const host = r.seats.find((s) => s.kind !== 'bot' && s.name);
  return host ? t('table.name', { name: host.name || '' }) : t('table.nameId', { id: r.id.slice(0, 6) });
}

/** What "Play now" opens: this preset, against two Medium bots. */
const QUICK_PRESET = 'official';

/** "Play now": a table of the classic rules against two Medium bots, opened at once.
 * @param {SubmitEvent} e */
async function playNow(e) {
  e.preventDefault();
  const name = field('play-name').value.trim() || t('lobby.namePlaceholder');
  const bot = options.bots.includes('heuristic') ? 'heuristic' : options.bots[0];
  /** @type {CreateTable} */
  const body = {
    preset: options.presets.includes(QUICK_PRESET) ? QUICK_PRESET : options.presets[0],
    seats: [{ kind: 'human', name }, { kind: 'bot', bot }, { kind: 'bot', bot }],
    name,
    bot_delay_ms: 700,
  };
  const button = field('play-now-button');
  button.disabled = true;
  try {
    const created = /** @type {Created} */ (await request('POST', '/api/tables', body));
    saveName(name);
    if (created.token && created.seat !== null) saveSeat(created.id, created.seat, created.token);
    location.assign(`uno.html?table=${encodeURIComponent(created.id)}`);
  } catch (err) {
    showError($('play-now-error'), errorText(err, { name: true }));
    button.disabled = false;
  }
}

/** @param {SubmitEvent} e */
async function createTable(e) {
  e.preventDefault();
  const name = field('your-name').value.trim();
  if (!name) {
    showError($('create-error'), BLANK_NAME);
    return;
  }
  /** @type {SeatSpec[]} */
  const seats = [...document.querySelectorAll('#seat-list li')].map((li, i) => {
    if (seatKinds[i] === 'human') return { kind: 'human', name: i === 0 ? name : undefined };
    return { kind: 'bot', bot: li.querySelector('select')?.value ?? '' };
  });
  if (seats.length < 2) {
    showError($('create-error'), t('lobby.twoSeats'));
    return;
  }
  /** @type {HouseRules} */
  const house = {};
  if (field('hr-stacking').checked) house.stacking = 'both';
  if (field('hr-draw-until').checked) house.draw = 'draw_until_playable';
  if (field('hr-forced').checked) house.forced_play = 'required';
  if (field('hr-jump-in').checked) house.jump_in = 'on';
  if (field('hr-seven-zero').checked) house.seven_zero = 'on';
  if (field('hr-multi-play').checked) house.multi_play = 'same_number';
  if (field('hr-one-round').checked) house.match_target = 0;
  /** @type {CreateTable} */
  const body = {
    preset: field('preset').value,
    house_rules: house,
    seats,
    name,
    bot_delay_ms: Number(field('bot-pace').value),
  };
  const turnTime = field('turn-time').value;
  if (turnTime) body.turn_seconds = Number(turnTime);
  if (field('rated').checked) body.rated = true;
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed && /^\d+$/.test(seed)) body.seed = seed; // as a string: a 64-bit seed loses digits as a number
  field('create').disabled = true;
  try {
    const created = /** @type {Created} */ (await request('POST', '/api/tables', body));
    saveName(name);
    if (created.token && created.seat !== null) saveSeat(created.id, created.seat, created.token);
    location.assign(`uno.html?table=${encodeURIComponent(created.id)}`);
  } catch (err) {
    showError($('create-error'), errorText(err, { name: true }));
    field('create').disabled = false;
  }
}
