// @ts-check
// The Duel replay page: a finished game a step at a time (`duel-replay.html?game=ID&ply=N`),
// each frame from the server (`GET /api/duel/{id}/replay`). Duel hides nothing, so every frame
// shows the whole grid. The URL follows the position, so it is a link to it.
import { t } from './i18n.js';
import { $, request, showError } from './api.js';
import { renderGrid } from './duelgrid.js';
import { moveWords, outcomeWords } from './duelwords.js';
import { duelErrorText } from './refusals.js';
import { bindStepping, createStepper } from './replaystep.js';

/** @typedef {import('./duelprotocol').DuelFrame} DuelFrame a frame of the replay (`GET /api/duel/{id}/replay?ply=N`) */

/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
const params = new URLSearchParams(location.search);
const state = { id: params.get('game') || '', ply: Math.max(0, Number.parseInt(params.get('ply') || '0', 10) || 0), plies: 0 };

/** @param {DuelFrame} f */
function render(f) {
  $('ply-label').textContent = t('replay.action', { n: f.ply, plies: f.plies, where: '' });
  const slider = /** @type {HTMLInputElement} */ ($('ply-slider'));
  slider.max = String(f.plies);
  slider.value = String(f.ply);
  document.body.dataset.ply = String(f.ply);
  $('move').textContent = moveWords(f.move);
  renderGrid(/** @type {HTMLTableElement} */ ($('board')), f.view);
  const st = f.view.status;
  $('stage').textContent = (f.view.outcome_message && outcomeWords(f.view)) || t('dreplay.stage', { stage: st.stage.stage === 'setup' ? t('dreplay.stage.setup') : st.stage.stage === 'play' ? t('dreplay.stage.play') : t('dreplay.stage.end'), red: st.red_left, black: st.black_left });
  button('first').disabled = button('prev').disabled = f.ply === 0;
  button('next').disabled = button('last').disabled = f.ply === f.plies;
}

/** @param {number} p */
async function goTo(p) {
  try {
    const f = /** @type {DuelFrame} */ (await request('GET', `/api/duel/${encodeURIComponent(state.id)}/replay?ply=${p}`));
    state.ply = f.ply;
    state.plies = f.plies;
    render(f);
    history.replaceState(null, '', `duel-replay.html?${new URLSearchParams({ game: state.id, ply: String(f.ply) })}`);
    showError($('replay-error'), '');
    return true;
  } catch (err) {
    showError($('replay-error'), duelErrorText(err));
    return false;
  }
}

async function init() {
  if (!state.id) {
    showError($('replay-error'), t('dreplay.noGame'));
    return;
  }
  state.plies = Number.MAX_SAFE_INTEGER;
  if (!(await goTo(state.ply))) {
    // A position past the end: the game's start.
    if (!(await goTo(0))) return;
  }
  /** @type {HTMLAnchorElement} */ ($('export')).href = `/api/duel/${encodeURIComponent(state.id)}/record`;
  $('export').setAttribute('download', `duel-${state.id}.json`);
  $('replay').hidden = false;
  bindStepping(createStepper({ ply: state.ply, plies: () => state.plies, show: goTo }), () => state.plies);
}

init();
