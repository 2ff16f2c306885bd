// The Duel replay page: a finished game a step at a time (`duel-replay.html?game=ID&ply=N`),
// each frame from the server (`GET /api/duel/{id}/replay`). Duel hides nothing, so every frame
// shows the whole grid. The URL follows the position, so it is a link to it.
import { el, request, showError } from './api.js';
import { cellName, colName, describeCell } from './duelgrid.js';
import { bindStepping, createStepper } from './replaystep.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { id: params.get('game') || '', ply: Math.max(0, Number.parseInt(params.get('ply') || '0', 10) || 0), plies: 0 };

function moveWords(m) {
  if (!m) return 'The empty grid, before the setup.';
  const who = m.by === 'computer' ? 'The computer' : 'You';
  const a = m.action;
  switch (a.action) {
    case 'place':
      return `${who} typed ${a.key} on ${a.cell}.`;
    case 'move':
      return `${who} moved the piece on ${a.cell} (${a.key}).`;
    case 'next_round':
      return `${who} went on to the next round.`;
    case 'end':
      return `${who} ended the play stage.`;
    default:
      return `${who}: ${a.action}.`;
  }
}

function renderBoard(view) {
  const head = el('tr', {}, el('td', { class: 'corner' }), ...Array.from({ length: view.width }, (_, c) => el('th', { scope: 'col' }, colName(c))));
  const rows = view.cells.map((row, r) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, String(r + 1)),
      ...row.map((cell, c) => {
        const name = cellName(c, r);
        const lm = view.last_move;
        const classes = ['cell', `cell-${cell.kind}`];
        if (lm && lm.from === name) classes.push('last-from');
        if (lm && lm.to === name) classes.push('last-to');
        const text = cell.kind === 'piece' ? `${cell.side === 'red' ? 'R' : 'B'}${cell.rank}` : cell.kind === 'block' ? '#' : '';
        const content = cell.kind === 'piece' ? el('span', { class: `piece ${cell.side}` }, el('span', { class: 'piece-text' }, text)) : text;
        return el('td', {}, el('span', { class: classes.join(' '), 'data-cell': name, role: 'img', 'aria-label': `${name}, ${describeCell(cell)}` }, content));
      }),
    ),
  );
  $('board').replaceChildren(el('caption', { class: 'visually-hidden' }, `Duel grid, ${view.width} columns by ${view.height} rows`), el('thead', {}, head), el('tbody', {}, ...rows));
}

function render(f) {
  $('ply-label').textContent = `Action ${f.ply} of ${f.plies}`;
  $('ply-slider').max = String(f.plies);
  $('ply-slider').value = String(f.ply);
  document.body.dataset.ply = String(f.ply);
  $('move').textContent = moveWords(f.move);
  renderBoard(f.view);
  const st = f.view.status;
  $('stage').textContent = f.view.outcome_message || `Stage: ${st.stage.stage}; red pieces ${st.red_left}, black pieces ${st.black_left}.`;
  $('first').disabled = $('prev').disabled = f.ply === 0;
  $('next').disabled = $('last').disabled = f.ply === f.plies;
}

async function goTo(p) {
  try {
    const f = await request('GET', `/api/duel/${encodeURIComponent(state.id)}/replay?ply=${p}`);
    state.ply = f.ply;
    state.plies = f.plies;
    render(f);
    history.replaceState(null, '', `duel-replay.html?${new URLSearchParams({ game: state.id, ply: String(f.ply) })}`);
    showError($('replay-error'), '');
    return true;
  } catch (err) {
    showError($('replay-error'), err.message);
    return false;
  }
}

async function init() {
  if (!state.id) {
    showError($('replay-error'), 'No game given: open the replay from a finished Duel game (duel-replay.html?game=ID).');
    return;
  }
  state.plies = Number.MAX_SAFE_INTEGER;
  if (!(await goTo(state.ply))) {
    // A position past the end: the game's start.
    if (!(await goTo(0))) return;
  }
  $('export').href = `/api/duel/${encodeURIComponent(state.id)}/record`;
  $('export').setAttribute('download', `duel-${state.id}.json`);
  $('replay').hidden = false;
  bindStepping(createStepper({ ply: state.ply, plies: () => state.plies, show: goTo }), () => state.plies);
}

init();
