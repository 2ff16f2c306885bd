// @ts-check
// The UNO lobby: open a table (rules, house rules, seats, bots and their pace), and the list of
// open tables.
import { capitalize, el, request, showError } from './api.js';
import { errorText } from './refusals.js';
import { saveName, savedName, saveSeat } from './seatstore.js';
import { $ } from './tablestate.js';

/** @typedef {import('./protocol').TableSummary} TableSummary */
/** @typedef {import('./protocol').TableList} TableList */
/** @typedef {import('./protocol').Created} Created */
/** @typedef {import('./protocol').UnoOptions} Options `GET /api/uno/options`: the presets, their lines and the bots */
/** @typedef {import('./protocol').CreateTable} CreateTable `POST /api/tables`: what the create form sends */
/** @typedef {import('./protocol').SeatSpec} SeatSpec */
/** @typedef {import('./protocol').HouseRules} HouseRules */

const BOT_LEVELS = [
  ['random', 'Easy (random)'],
  ['heuristic', 'Medium (heuristic)'],
  ['ismcts', 'Hard (Monte Carlo search)'],
  ['net', 'Experimental (learned network)'],
  ['flat+net', 'Expert (search guided by a network)'],
];
/** How each bot plays, in a line for the lobby. */
/** @type {Record<string, string>} */
const BOT_WORDS = {
  random: 'Plays a random card it may play, else draws; always calls UNO. A gentle opponent.',
  uniform: 'Picks at random among everything it may do, drawing and catching included.',
  first: 'Always takes the first move it may make: easy to read.',
  heuristic: 'Plays like a good casual player: keeps wilds for emergencies, stays in its colour, punishes a player about to go out.',
  precedence: "Follows seed 000's fixed order: the colour in play, then Wild Draw Four, the same face, Wild; else it draws.",
  ismcts: 'Thinks ahead: plays out many guesses of the hidden hands and picks the move that wins most often.',
  flat: 'Reads the others as Medium players: guesses their hands from what they played, plays every move out on the same guesses and picks the one that wins most often. The best measured against Medium bots.',
  net: 'A neural network trained by playing Medium bots and itself: it scores every move it may make from what its seat sees and plays the best, without searching. A first model: it is still weaker than Medium.',
  'flat+net': 'Plays like the Monte Carlo reader of Medium players, but only weighs the few moves the neural network likes best, so each is played out on more guesses.',
};


/** @type {Options} */
let options = { presets: ['official'], preset_descriptions: {}, bots: BOT_LEVELS.map(([b]) => b) };

/**
 * @param {string} kind `human` or `bot`
 * @param {number} index
 */
function seatRow(kind, index) {
  const li = el('li', { class: 'seat-row', dataset: { kind } });
  const label = `Seat ${index + 1}`;
  if (index === 0) {
    li.append(el('span', {}, `${label}: you`));
    return li;
  }
  if (kind === 'human') {
    li.append(el('span', {}, `${label}: a person (invite link)`));
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
    li.append(el('label', { for: id }, `${label}: bot, difficulty`), ' ', select, about);
  }
  li.append(
    ' ',
    el('button', { type: 'button', class: 'remove-seat', 'aria-label': `Remove seat ${index + 1}`, onclick: () => removeSeat(index) }, 'Remove'),
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
  $('add-human').disabled = seatKinds.length >= 10;
  $('add-bot').disabled = seatKinds.length >= 10;
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
  const preset = $('preset');
  preset.replaceChildren(...options.presets.map((p) => el('option', { value: p }, p)));
  preset.value = options.presets.includes('official') ? 'official' : options.presets[0];
  const describePreset = () => {
    $('preset-about').textContent = (options.preset_descriptions || {})[preset.value] || '';
  };
  preset.addEventListener('change', describePreset);
  describePreset();
  $('your-name').value = savedName();
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
  $('refresh-tables').addEventListener('click', listTables);
  await listTables();
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
    ...open.map((t) => {
      const people = t.seats.map((s) => (s.kind === 'bot' ? `bot (${s.bot})` : s.name || 'open seat')).join(', ');
      return el(
        'li',
        {},
        el('a', { href: `uno.html?table=${encodeURIComponent(t.id)}` }, tableName(t)),
        ` · ${t.rules} · ${t.open_seats} open seat${t.open_seats === 1 ? '' : 's'} · ${people}`,
        t.chosen_seed ? ` · ${CHOSEN_SEED}` : '',
      );
    }),
  );
}

/** What a person is told before sitting at a table whose creator chose the seed (the server's
 * `chosen_seed` fact). */
export const CHOSEN_SEED = 'the creator chose the seed, so the creator can know every card (every hand, every draw)';

/** A table's name for people: its creator's name (the first named person), not its id. */
/**
 * @param {{ id: string, seats: import('./protocol').SeatView[] }} t
 * @returns {string}
 */
export function tableName(t) {
  const host = t.seats.find((s) => s.kind !== 'bot' && s.name);
  return host ? `${host.name}’s table` : `Table ${t.id.slice(0, 6)}`;
}

/** @param {SubmitEvent} e */
async function createTable(e) {
  e.preventDefault();
  const name = $('your-name').value.trim();
  /** @type {SeatSpec[]} */
  const seats = [...document.querySelectorAll('#seat-list li')].map((li, i) => {
    if (seatKinds[i] === 'human') return { kind: 'human', name: i === 0 ? name : undefined };
    return { kind: 'bot', bot: li.querySelector('select')?.value ?? '' };
  });
  if (seats.length < 2) {
    showError($('create-error'), 'A table needs at least two seats: add a bot or a seat for a person.');
    return;
  }
  /** @type {HouseRules} */
  const house = {};
  if ($('hr-stacking').checked) house.stacking = 'both';
  if ($('hr-draw-until').checked) house.draw = 'draw_until_playable';
  if ($('hr-forced').checked) house.forced_play = 'required';
  if ($('hr-jump-in').checked) house.jump_in = 'on';
  if ($('hr-seven-zero').checked) house.seven_zero = 'on';
  if ($('hr-multi-play').checked) house.multi_play = 'same_number';
  if ($('hr-one-round').checked) house.match_target = 0;
  /** @type {CreateTable} */
  const body = {
    preset: $('preset').value,
    house_rules: house,
    seats,
    name,
    bot_delay_ms: Number($('bot-pace').value),
  };
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed && /^\d+$/.test(seed)) body.seed = seed; // as a string: a 64-bit seed loses digits as a number
  $('create').disabled = true;
  try {
    const created = /** @type {Created} */ (await request('POST', '/api/tables', body));
    saveName(name);
    if (created.token && created.seat !== null) saveSeat(created.id, created.seat, created.token);
    location.assign(`uno.html?table=${encodeURIComponent(created.id)}`);
  } catch (err) {
    showError($('create-error'), errorText(err, { name: true }));
    $('create').disabled = false;
  }
}
