// @ts-check
// The replay page: a game step by step, seen by one seat, a spectator, or (once the game is
// over) the whole table. Every frame comes from the server (`GET /api/games/{id}/replay`), which
// renders it as that viewer saw it live: the page never holds a card its viewer could not see.
// The URL follows the position (`?game=ID&view=seat2&ply=N`), so a link opens it again.
import { t } from './i18n.js';
import { $, capitalize, el, field, request, showError } from './api.js';
import { refusalText, errorText } from './refusals.js';
import { analysisPanel, points } from './replayanalysis.js';
import { exportPosition, importFile, playFromHere } from './replayfiles.js';
import { bindStepping, createStepper, revealInList } from './replaystep.js';
import { seatLabel } from './seats.js';
import { savedSeat } from './seatstore.js';
import { createTableView } from './tableview.js';
import { cardClass, cardFace, cardSvg, cardWords, colorWords, eventWords } from './unocards.js';

/** @typedef {import('./protocol').Occupant} Occupant */
/** @typedef {import('./protocol').ReplayFrame} Frame */
/** @typedef {import('./protocol').ReplayStep} Step */
/** @typedef {import('./protocol').Action} Action */

/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
/** @param {unknown} err */
const words = (err) => errorText(err, { game: true });

const params = new URLSearchParams(location.search);
/**
 * @type {{ id: string, g: string | null, view: string, ply: number, plies: number, live: boolean,
 *   seats: Occupant[], timeline: Step[], imported: boolean, seat: { seat: number, token: string } | null,
 *   frames: Map<string, Frame>, timer: ReturnType<typeof setInterval> | null }}
 */
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
  /** Whether the game was sent in as a record file (its names are the file's). */
  imported: false,
  /** The seat this browser holds at the table (saved by the table page), for a live replay. */
  seat: null,
  frames: new Map(),
  timer: null,
};

/** @param {number} i */
const seatName = (i) => seatLabel(state.seats, i);

const viewedSeat = () => (state.view.startsWith('seat') ? Number(state.view.slice(4)) : null);
/** @param {number} i */
const who = (i) => (viewedSeat() === i ? t('replay.seenByMark', { name: seatName(i) }) : seatName(i));

/**
 * @param {number} seat
 * @param {Action} a
 */
function actionWords(seat, a) {
  const name = seatName(seat);
  switch (a.type) {
    case 'play':
      return a.color ? t('replay.act.playColor', { name, card: cardWords(a.card), color: colorWords(a.color) }) : t('replay.act.play', { name, card: cardWords(a.card) });
    case 'draw':
      return t('replay.act.draw', { name });
    case 'pass':
      return t('replay.act.pass', { name });
    case 'declare_color':
      return t('replay.act.color', { name, color: colorWords(a.color) });
    case 'challenge':
      return t('replay.act.challenge', { name });
    case 'accept':
      return t('replay.act.accept', { name });
    case 'swap_hands':
      return t('replay.act.swap', { name, other: seatName(a.with) });
    case 'call_uno':
      return t('replay.act.uno', { name });
    case 'catch_uno':
      return t('replay.act.catch', { name, other: seatName(a.seat) });
    case 'next_round':
      return t('replay.act.next', { name });
    default:
      // Every action the engine has is named above; one added later shows its name.
      return `${name}: ${/** @type {{ type: string }} */ (a).type}`;
  }
}

/**
 * @param {string} view
 * @param {number} ply
 * @param {boolean} timeline
 */
function frameUrl(view, ply, timeline) {
  const api = new URLSearchParams({ view, ply: String(ply) });
  if (state.g !== null) api.set('game', state.g);
  if (timeline) api.set('timeline', 'true');
  return `/api/games/${encodeURIComponent(state.id)}/replay?${api}`;
}

/**
 * @param {string} view
 * @param {number} ply
 * @returns {Promise<Frame>}
 */
async function frame(view, ply, timeline = false) {
  const key = `${view}/${ply}`;
  const known = state.frames.get(key);
  if (!timeline && known) return known;
  // A live game's seat frames need that seat's token; nothing else does.
  const token = state.seat && view === `seat${state.seat.seat}` ? state.seat.token : undefined;
  const f = /** @type {Frame} */ (await request('GET', frameUrl(view, ply, timeline), undefined, token));
  state.frames.set(key, f);
  return f;
}

function pageUrl(ply = state.ply) {
  const q = new URLSearchParams({ game: state.id, view: state.view, ply: String(ply) });
  if (state.g !== null) q.set('g', state.g);
  return `replay.html?${q}`;
}

// ---------------------------------------------------------------- drawing a frame

/** What the action did, at the pile's foot. */
const moveLine = el('p', { id: 'move', class: 'status', 'aria-live': 'polite' });
const eventList = el('ul', { id: 'events', class: 'replay-events' });
/** The table as the table page draws it (tableview.js). */
const table = createTableView($('table-view'), { below: [moveLine, eventList] });

/** @param {string} card */
function cardItem(card, extra = '') {
  return el('li', { class: `${cardClass(card)}${extra}`, dataset: { card } }, ...cardFace(card));
}

/**
 * @param {string[]} cards
 * @param {string} label
 */
function miniHand(cards, label) {
  return el('ul', { class: 'mini-hand', 'aria-label': label }, ...cards.map((c) => el('li', { dataset: { card: c } }, cardSvg(c, 'mini'))));
}

/** @param {Frame} f */
function render(f) {
  const o = f.view;
  const step = state.timeline[f.ply - 1];
  const where = step ? t('replay.where', { round: step.round, turn: step.turn }) : t('replay.where.deal');
  $('ply-label').textContent = t('replay.action', { n: f.ply, plies: f.plies, where });
  const slider = /** @type {HTMLInputElement} */ ($('ply-slider'));
  slider.max = String(f.plies);
  slider.value = String(f.ply);
  document.body.dataset.ply = String(f.ply);
  const hands = f.all_hands || f.revealed_hands;
  // The table as the table page draws it (tableview.js); a person's name in an imported record
  // is only what the file says, and marked so.
  table.players(
    o.hand_sizes.map((n, i) => ({
      name: seatName(i),
      cards: n,
      current: o.current === i,
      me: viewedSeat() === i,
      uno: o.uno_called[i],
      tags: state.imported && state.seats[i]?.kind === 'human' ? [t('replay.fromFile')] : [],
      detail: t('replay.points', { n: o.scores[i] }),
      after: hands ? miniHand(hands[i], t('replay.handOf', { name: seatName(i) })) : null,
    })),
    o.direction,
  );
  // After a first-card wild nobody has chosen yet, the colour is null.
  table.pile({ top: o.top, color: o.color, undecided: t('replay.notChosen'), drawPile: o.draw_pile_size, pendingDraw: o.pending_draw });
  moveLine.textContent = f.move ? t('replay.move', { what: capitalize(actionWords(f.move.seat, f.move.action)) }) : t('replay.dealt');
  const names = { seatName, who, you: viewedSeat() };
  eventList.replaceChildren(
    ...f.events.map((e) => eventWords(e, names)).filter(Boolean).map((t) => el('li', {}, t)),
  );
  const seat = viewedSeat();
  $('hand-section').hidden = seat === null;
  if (seat !== null) {
    $('hand-title').textContent = t('replay.handOf', { name: seatName(seat) });
    $('hand').replaceChildren(...o.hand.map((c) => cardItem(c, o.drawn_card === c ? ' drawn' : '')));
  } else {
    $('hand').replaceChildren();
  }
  for (const a of $('timeline').querySelectorAll('a[aria-current]')) a.removeAttribute('aria-current');
  const current = /** @type {HTMLElement | null} */ ($('timeline').querySelector(`a[data-ply="${f.ply}"]`));
  if (current) {
    current.setAttribute('aria-current', 'step');
    revealInList($('timeline'), current);
  }
  button('first').disabled = button('prev').disabled = f.ply === 0;
  button('next').disabled = button('last').disabled = f.ply === f.plies;
  // The end of the game is no position to play on from.
  button('play-from-here').disabled = f.ply === f.plies;
  analysis.render();
}

function renderTimeline() {
  const items = [el('li', {}, el('a', { href: pageUrl(0), dataset: { ply: 0 } }, t('replay.theDeal')))];
  /** @type {number | null} */
  let round = null;
  for (const s of state.timeline) {
    if (s.round !== round) {
      round = s.round;
      items.push(el('li', { class: 'timeline-round' }, el('strong', {}, t('replay.round', { n: round }))));
    }
    items.push(el('li', {}, el('a', { href: pageUrl(s.ply), dataset: { ply: s.ply } }, t('replay.turn', { ply: s.ply, turn: s.turn, what: actionWords(s.seat, s.action) }))));
  }
  $('timeline').replaceChildren(...items);
  // The analysed seat's mistakes, on the entry of the move made.
  for (const d of analysis.current()?.decisions || []) {
    const a = d.mistake && $('timeline').querySelector(`a[data-ply="${d.ply + 1}"]`);
    if (a) a.append(el('span', { class: 'mistake-mark' }, t('replay.mistake', { loss: points(d.loss) })));
  }
}

function renderPerspectives() {
  /** @type {[string, string][]} */
  const options = [];
  state.seats.forEach((_, i) => {
    // A live game's seats are offered only to their holder.
    if (!state.live || state.seat?.seat === i) options.push([`seat${i}`, seatName(i)]);
  });
  options.push(['spectator', t('replay.spectator')]);
  if (!state.live) options.push(['all', t('replay.everyone')]);
  $('perspective').replaceChildren(...options.map(([v, words]) => el('option', { value: v, selected: v === state.view }, words)));
}

// ---------------------------------------------------------------- moving

/** Fetches and draws the frame of `p` (the stepper's `show`).
 * @param {number} p */
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
    showError($('replay-error'), words(err));
    return false;
  }
}

/** Made once the first frame is shown. */
let stepper = createStepper({ ply: 0, plies: () => state.plies, show: showPly });
/** @param {number} ply */
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
  if (state.timer !== null) clearInterval(state.timer);
  state.timer = null;
  $('autoplay').textContent = t('replay.play');
  $('autoplay').setAttribute('aria-pressed', 'false');
}

function startAutoplay() {
  stopAutoplay();
  if (state.ply >= state.plies) return;
  $('autoplay').textContent = t('replay.pause');
  $('autoplay').setAttribute('aria-pressed', 'true');
  state.timer = setInterval(() => {
    if (state.ply >= state.plies) stopAutoplay();
    else if (!stepper.busy()) stepper.step(1);
  }, Number(field('speed').value));
}

async function init() {
  $('import-file').addEventListener('change', importFile);
  if (!state.id) {
    showError($('replay-error'), t('replay.noGame'));
    return;
  }
  state.seat = savedSeat(state.id);
  if (state.view === 'all' || state.view === 'spectator' || /^seat\d+$/.test(state.view)) {
    /* a perspective the server knows */
  } else {
    state.view = 'spectator';
  }
  let first;
  let fellBack = null;
  try {
    first = await frame(state.view, state.ply, true);
  } catch (caught) {
    const err = /** @type {{ code?: string, message?: string }} */ (caught);
    if (['game_not_over', 'missing_token', 'bad_token'].includes(err.code || '')) {
      // A game still played shows no whole table and no other seat's hand: open the chair this
      // visitor has (their own seat, or a spectator's) and say why.
      const asked = state.view;
      state.view = state.seat ? `seat${state.seat.seat}` : 'spectator';
      fellBack = asked;
      try {
        first = await frame(state.view, state.ply, true);
      } catch (caught2) {
        const again = /** @type {{ code?: string, message?: string }} */ (caught2);
        if (again.code !== 'no_such_ply') {
          showError($('replay-error'), refusalText(again.code || '', again.message, { game: true }));
          return;
        }
        first = await frame(state.view, 0, true);
      }
    } else if (err.code !== 'no_such_ply') {
      showError($('replay-error'), refusalText(err.code || '', err.message, { game: true }));
      return;
    } else {
      first = await frame(state.view, 0, true);
    }
  }
  Object.assign(state, { plies: first.plies, live: first.live, seats: first.seats, timeline: first.timeline || [], ply: first.ply });
  // An imported record names whom it likes: marked as such wherever its names show.
  state.imported = first.imported === true;
  $('imported-mark').hidden = !state.imported;
  const of = state.imported ? 'replay.of.imported' : state.live ? 'replay.of.live' : 'replay.of.game';
  $('page-title').textContent = `${t(of, { id: state.id })}${first.game ? t('replay.gameN', { n: first.game + 1 }) : ''}`;
  if (state.imported) document.title = t('replay.importedTitle', { title: document.title });
  const exportLink = $('export');
  exportLink.hidden = state.live;
  $('play-from-here').hidden = state.live;
  $('export-position-json').hidden = $('export-position-text').hidden = state.live;
  // Seed 000's files exist only for its rules (the answer says why at a point nobody plays).
  $('export-position-uno').hidden = state.live || first.rules !== 'csce322';
  const rec = new URLSearchParams();
  if (state.g !== null) rec.set('game', state.g);
  exportLink.setAttribute('href', `/api/games/${encodeURIComponent(state.id)}/record${rec.size ? `?${rec}` : ''}`);
  exportLink.setAttribute('download', `uno-${state.id}.json`);
  renderPerspectives();
  renderTimeline();
  $('replay').hidden = false;
  render(first);
  history.replaceState(null, '', pageUrl());
  stepper = createStepper({ ply: state.ply, plies: () => state.plies, show: showPly });
  if (fellBack) {
    const wanted = t(fellBack === 'all' ? 'replay.live.all' : 'replay.live.that');
    $('replay-note').textContent = t(state.view === 'spectator' ? 'replay.live.spectator' : 'replay.live.seat', { wanted });
    $('replay-note').hidden = false;
  }

  $('perspective').addEventListener('change', () => {
    state.view = field('perspective').value;
    analysis.seatChanged();
    renderTimeline();
    goTo(state.ply);
  });
  const where = () => ({ id: state.id, g: state.g, ply: state.ply, seat: viewedSeat(), seats: state.seats });
  $('play-from-here').addEventListener('click', () => playFromHere(where()));
  $('export-position-json').addEventListener('click', () => exportPosition(where(), 'json'));
  $('export-position-text').addEventListener('click', () => exportPosition(where(), 'text'));
  $('export-position-uno').addEventListener('click', () => exportPosition(where(), 'uno'));
  $('autoplay').addEventListener('click', () => (state.timer ? stopAutoplay() : startAutoplay()));
  $('speed').addEventListener('change', () => state.timer && startAutoplay());
  $('timeline').addEventListener('click', (e) => {
    const a = e.target instanceof Element && e.target.closest('a[data-ply]');
    if (!(a instanceof HTMLElement)) return;
    e.preventDefault();
    goTo(Number(a.dataset.ply));
  });
  bindStepping(stepper, () => state.plies);
}

init();
