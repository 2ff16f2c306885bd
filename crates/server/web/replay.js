// The replay page: a game step by step, seen by one seat, a spectator, or (once the game is
// over) the whole table. Every frame comes from the server (`GET /api/games/{id}/replay`), which
// renders it as that viewer saw it live: the page never holds a card its viewer could not see.
// The URL follows the position (`?game=ID&view=seat2&ply=N`), so a link opens it again.
import { capitalize, el, request, requestText, showError } from './api.js';
import { analysisPanel, points } from './replayanalysis.js';
import { bindStepping, createStepper, revealInList } from './replaystep.js';
import { seatLabel } from './seats.js';
import { cardClass, cardFace, cardSvg, cardWords, directionWords, eventWords } from './unocards.js';

const $ = (id) => document.getElementById(id);

const params = new URLSearchParams(location.search);
const state = {
  id: params.get('game') || '',
  /** Which kept game of the table (`g`), or null: its current one. */
  g: params.get('g'),
  view: params.get('view') || 'spectator',
  ply: Math.max(0, Number.parseInt(params.get('ply') || '0', 10) || 0),
  plies: 0,
  live: false,
  seats: [],
  timeline: [],
  /** The seat this browser holds at the table (saved by the table page), for a live replay. */
  seat: null,
  frames: new Map(),
  timer: null,
};

function savedSeat(table) {
  try {
    const raw = localStorage.getItem(`tabletop.uno.${table}`);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

const seatName = (i) => seatLabel(state.seats, i);

const viewedSeat = () => (state.view.startsWith('seat') ? Number(state.view.slice(4)) : null);
const who = (i) => (viewedSeat() === i ? `${seatName(i)} (seen by)` : seatName(i));

function actionWords(seat, a) {
  const name = seatName(seat);
  switch (a.type) {
    case 'play':
      return `${name} played ${cardWords(a.card)}${a.color ? ` and chose ${a.color}` : ''}`;
    case 'draw':
      return `${name} drew`;
    case 'pass':
      return `${name} kept the card and passed`;
    case 'declare_color':
      return `${name} chose ${a.color}`;
    case 'challenge':
      return `${name} challenged the Wild Draw Four`;
    case 'accept':
      return `${name} took the Wild Draw Four`;
    case 'swap_hands':
      return `${name} swapped hands with ${seatName(a.with)}`;
    case 'call_uno':
      return `${name} called UNO`;
    case 'catch_uno':
      return `${name} caught ${seatName(a.seat)}`;
    case 'next_round':
      return `${name} dealt the next round`;
    default:
      return `${name}: ${a.type}`;
  }
}

function frameUrl(view, ply, timeline) {
  const api = new URLSearchParams({ view, ply: String(ply) });
  if (state.g !== null) api.set('game', state.g);
  if (timeline) api.set('timeline', 'true');
  return `/api/games/${encodeURIComponent(state.id)}/replay?${api}`;
}

async function frame(view, ply, timeline = false) {
  const key = `${view}/${ply}`;
  if (!timeline && state.frames.has(key)) return state.frames.get(key);
  // A live game's seat frames need that seat's token; nothing else does.
  const token = state.seat && view === `seat${state.seat.seat}` ? state.seat.token : undefined;
  const f = await request('GET', frameUrl(view, ply, timeline), undefined, token);
  state.frames.set(key, f);
  return f;
}

function pageUrl(ply = state.ply) {
  const q = new URLSearchParams({ game: state.id, view: state.view, ply: String(ply) });
  if (state.g !== null) q.set('g', state.g);
  return `replay.html?${q}`;
}

// ---------------------------------------------------------------- drawing a frame

function cardItem(card, extra = '') {
  return el('li', { class: `${cardClass(card)}${extra}`, dataset: { card } }, ...cardFace(card));
}

function miniHand(cards, label) {
  return el('ul', { class: 'mini-hand', 'aria-label': label }, ...cards.map((c) => el('li', { dataset: { card: c } }, cardSvg(c, 'mini'))));
}

function render(f) {
  const o = f.view;
  const step = state.timeline[f.ply - 1];
  const where = step ? ` · round ${step.round}, turn ${step.turn}` : ' · the deal';
  $('ply-label').textContent = `Action ${f.ply} of ${f.plies}${where}`;
  $('ply-slider').max = String(f.plies);
  $('ply-slider').value = String(f.ply);
  document.body.dataset.ply = String(f.ply);
  $('direction').textContent = `Direction: ${directionWords(o.direction)}`;
  const hands = f.all_hands || f.revealed_hands;
  $('players').replaceChildren(
    ...o.hand_sizes.map((n, i) =>
      el(
        'li',
        { class: `player${o.current === i ? ' current' : ''}${viewedSeat() === i ? ' me' : ''}` },
        el('span', { class: 'turn-marker', 'aria-hidden': 'true' }, o.current === i ? '▶' : ''),
        el('span', { class: 'player-name' }, seatName(i)),
        o.uno_called[i] ? el('span', { class: 'tag uno' }, 'UNO') : null,
        el('span', { class: 'hand-size' }, `${n} card${n === 1 ? '' : 's'} · ${o.scores[i]} points`),
        hands ? miniHand(hands[i], `${seatName(i)}'s hand`) : null,
      ),
    ),
  );
  $('top-card').replaceChildren(el('div', { class: `${cardClass(o.top)} big`, role: 'img', 'aria-label': `Top card: ${cardWords(o.top)}`, dataset: { card: o.top } }, ...cardFace(o.top)));
  // After a first-card wild nobody has chosen yet, the colour is null.
  $('color-in-play').replaceChildren(
    'Colour in play: ',
    o.color === null || o.color === undefined ? el('strong', {}, 'not chosen yet') : el('strong', { class: `color-chip c-${o.color}` }, o.color),
  );
  $('draw-pile').textContent = `${o.draw_pile_size} cards in the draw pile.`;
  $('move').textContent = f.move ? `${capitalize(actionWords(f.move.seat, f.move.action))}.` : 'The cards are dealt.';
  const names = { seatName, who, you: viewedSeat() };
  $('events').replaceChildren(
    ...f.events.map((e) => eventWords(e, names)).filter(Boolean).map((t) => el('li', {}, t)),
  );
  const seat = viewedSeat();
  $('hand-section').hidden = seat === null;
  if (seat !== null) {
    $('hand-title').textContent = `${seatName(seat)}'s hand`;
    $('hand').replaceChildren(...o.hand.map((c) => cardItem(c, o.drawn_card === c ? ' drawn' : '')));
  } else {
    $('hand').replaceChildren();
  }
  for (const a of $('timeline').querySelectorAll('a[aria-current]')) a.removeAttribute('aria-current');
  const current = $('timeline').querySelector(`a[data-ply="${f.ply}"]`);
  if (current) {
    current.setAttribute('aria-current', 'step');
    revealInList($('timeline'), current);
  }
  $('first').disabled = $('prev').disabled = f.ply === 0;
  $('next').disabled = $('last').disabled = f.ply === f.plies;
  // The end of the game is no position to play on from.
  $('play-from-here').disabled = f.ply === f.plies;
  analysis.render();
}

function renderTimeline() {
  const items = [el('li', {}, el('a', { href: pageUrl(0), dataset: { ply: 0 } }, 'The deal'))];
  let round = null;
  for (const s of state.timeline) {
    if (s.round !== round) {
      round = s.round;
      items.push(el('li', { class: 'timeline-round' }, el('strong', {}, `Round ${round}`)));
    }
    items.push(el('li', {}, el('a', { href: pageUrl(s.ply), dataset: { ply: s.ply } }, `${s.ply}. Turn ${s.turn}: ${actionWords(s.seat, s.action)}`)));
  }
  $('timeline').replaceChildren(...items);
  // The analysed seat's mistakes, on the entry of the move made.
  for (const d of analysis.current()?.decisions || []) {
    const a = d.mistake && $('timeline').querySelector(`a[data-ply="${d.ply + 1}"]`);
    if (a) a.append(el('span', { class: 'mistake-mark' }, `✕ mistake (win chance −${points(d.loss)}%)`));
  }
}

function renderPerspectives() {
  const options = [];
  state.seats.forEach((_, i) => {
    // A live game's seats are offered only to their holder.
    if (!state.live || state.seat?.seat === i) options.push([`seat${i}`, seatName(i)]);
  });
  options.push(['spectator', 'A spectator']);
  if (!state.live) options.push(['all', 'Everyone (all cards)']);
  $('perspective').replaceChildren(...options.map(([v, t]) => el('option', { value: v, selected: v === state.view }, t)));
}

// ---------------------------------------------------------------- play from here

/** Opens a new table at this position: the seat seen by (or the first) is yours, bots stay
 * bots, the other people's seats wait for whoever the invite link is sent to. */
async function playFromHere() {
  const mine = viewedSeat() ?? 0;
  const seats = state.seats.map((s, i) => (s.kind === 'bot' && i !== mine ? { kind: 'bot', bot: s.bot } : { kind: 'human' }));
  let name = '';
  try {
    name = localStorage.getItem('tabletop.name') || '';
  } catch {
    /* no storage */
  }
  const from = { table: state.id, ply: state.ply };
  if (state.g !== null) from.game = Number(state.g);
  try {
    const made = await request('POST', '/api/tables', { seats, creator_seat: mine, name: name || undefined, from });
    try {
      localStorage.setItem(`tabletop.uno.${made.id}`, JSON.stringify({ seat: made.seat, token: made.token }));
    } catch {
      /* private mode: the seat lasts as long as the page */
    }
    location.href = `uno.html?table=${encodeURIComponent(made.id)}`;
  } catch (err) {
    showError($('replay-error'), err.message);
  }
}

// ---------------------------------------------------------------- files in and out

/** Sends a record file to the server, which checks it by replaying it and keeps it; then
 * opens its replay. */
async function importFile() {
  const file = $('import-file').files?.[0];
  if (!file) return;
  // The file goes as it is: parsing and writing it again would round a seed above 2^53.
  const text = await file.text();
  try {
    JSON.parse(text);
  } catch {
    showError($('replay-error'), `${file.name} is not a JSON record file.`);
    return;
  }
  try {
    const made = await requestText('POST', '/api/records', text);
    location.href = `replay.html?${new URLSearchParams({ game: made.id, view: made.over ? 'all' : 'spectator', ply: '0' })}`;
  } catch (err) {
    showError($('replay-error'), `${file.name}: ${err.message}`);
  }
}

function download(name, type, text) {
  const a = el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Saves the whole position shown (every hand: the game is over) as `Position::from_json` or
 * the text form reads it, or (seed 000's rules) as the three `.uno` files. */
async function exportPosition(form) {
  const q = new URLSearchParams({ ply: String(state.ply) });
  if (state.g !== null) q.set('game', state.g);
  try {
    const p = await request('GET', `/api/games/${encodeURIComponent(state.id)}/position?${q}`);
    const name = `uno-${state.id}-ply${p.ply}`;
    if (form === 'text') download(`${name}.position.txt`, 'text/plain', p.text);
    else if (form === 'json') download(`${name}.position.json`, 'application/json', `${JSON.stringify(p.position, null, 2)}\n`);
    else if (!p.uno) showError($('replay-error'), p.uno_refused);
    else for (const file of ['deck', 'discard', 'hands']) download(`${name}.${file}.uno`, 'text/plain', p.uno[file]);
  } catch (err) {
    showError($('replay-error'), err.message);
  }
}

// ---------------------------------------------------------------- moving

/** Fetches and draws the frame of `p` (the stepper's `show`). */
async function showPly(p) {
  try {
    const f = await frame(state.view, p);
    state.ply = p;
    render(f);
    history.replaceState(null, '', pageUrl());
    showError($('replay-error'), '');
    return true;
  } catch (err) {
    stopAutoplay();
    showError($('replay-error'), err.message);
    return false;
  }
}

/** Made once the first frame is shown. */
let stepper = createStepper({ ply: 0, plies: () => state.plies, show: showPly });
const goTo = (ply) => stepper.go(ply);

const analysis = analysisPanel({
  id: state.id,
  g: state.g,
  ply: () => state.ply,
  seat: viewedSeat,
  live: () => state.live,
  seatName,
  go: goTo,
  changed: () => renderTimeline(),
});

function stopAutoplay() {
  clearInterval(state.timer);
  state.timer = null;
  $('autoplay').textContent = 'Play';
  $('autoplay').setAttribute('aria-pressed', 'false');
}

function startAutoplay() {
  stopAutoplay();
  if (state.ply >= state.plies) return;
  $('autoplay').textContent = 'Pause';
  $('autoplay').setAttribute('aria-pressed', 'true');
  state.timer = setInterval(() => {
    if (state.ply >= state.plies) stopAutoplay();
    else if (!stepper.busy()) stepper.step(1);
  }, Number($('speed').value));
}

async function init() {
  $('import-file').addEventListener('change', importFile);
  if (!state.id) {
    showError($('replay-error'), 'No game given: open a replay from a finished table (replay.html?game=ID), or open a record file.');
    return;
  }
  const held = savedSeat(state.id);
  if (held && typeof held.token === 'string') state.seat = held;
  if (state.view === 'all' || state.view === 'spectator' || /^seat\d+$/.test(state.view)) {
    /* a perspective the server knows */
  } else {
    state.view = 'spectator';
  }
  let first;
  let fellBack = null;
  try {
    first = await frame(state.view, state.ply, true);
  } catch (err) {
    if (['game_not_over', 'missing_token', 'bad_token'].includes(err.code)) {
      // A game still played shows no whole table and no other seat's hand: open the chair this
      // visitor has (their own seat, or a spectator's) and say why.
      const asked = state.view;
      state.view = state.seat ? `seat${state.seat.seat}` : 'spectator';
      fellBack = asked;
      try {
        first = await frame(state.view, state.ply, true);
      } catch (again) {
        if (again.code !== 'no_such_ply') {
          showError($('replay-error'), again.message);
          return;
        }
        first = await frame(state.view, 0, true);
      }
    } else if (err.code !== 'no_such_ply') {
      showError($('replay-error'), err.message);
      return;
    } else {
      first = await frame(state.view, 0, true);
    }
  }
  Object.assign(state, { plies: first.plies, live: first.live, seats: first.seats, timeline: first.timeline || [], ply: first.ply });
  $('page-title').textContent = `Replay of ${state.live ? 'the game in play at' : 'a game at'} table ${state.id}${first.game ? ` (game ${first.game + 1})` : ''}`;
  const exportLink = $('export');
  exportLink.hidden = state.live;
  $('play-from-here').hidden = state.live;
  $('export-position-json').hidden = $('export-position-text').hidden = state.live;
  // Seed 000's files exist only for its rules (the answer says why at a point nobody plays).
  $('export-position-uno').hidden = state.live || first.rules !== 'csce322';
  const rec = new URLSearchParams();
  if (state.g !== null) rec.set('game', state.g);
  exportLink.href = `/api/games/${encodeURIComponent(state.id)}/record${rec.size ? `?${rec}` : ''}`;
  exportLink.setAttribute('download', `uno-${state.id}.json`);
  renderPerspectives();
  renderTimeline();
  $('replay').hidden = false;
  render(first);
  history.replaceState(null, '', pageUrl());
  stepper = createStepper({ ply: state.ply, plies: () => state.plies, show: showPly });
  if (fellBack) {
    const chair = state.view === 'spectator' ? "a spectator's chair" : 'your seat';
    const wanted = fellBack === 'all' ? 'everyone’s cards' : 'that seat’s cards';
    $('replay-note').textContent = `This game is still being played, so it shows from ${chair}; ${wanted} can be seen once it is over.`;
    $('replay-note').hidden = false;
  }

  $('perspective').addEventListener('change', () => {
    state.view = $('perspective').value;
    analysis.seatChanged();
    renderTimeline();
    goTo(state.ply);
  });
  $('play-from-here').addEventListener('click', playFromHere);
  $('export-position-json').addEventListener('click', () => exportPosition('json'));
  $('export-position-text').addEventListener('click', () => exportPosition('text'));
  $('export-position-uno').addEventListener('click', () => exportPosition('uno'));
  $('autoplay').addEventListener('click', () => (state.timer ? stopAutoplay() : startAutoplay()));
  $('speed').addEventListener('change', () => state.timer && startAutoplay());
  $('timeline').addEventListener('click', (e) => {
    const a = e.target.closest('a[data-ply]');
    if (!a) return;
    e.preventDefault();
    goTo(Number(a.dataset.ply));
  });
  bindStepping(stepper, () => state.plies);
}

init();
