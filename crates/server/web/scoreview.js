// @ts-check
// The end of a round and of the game: the banner (the server's result), the deal or the
// countdown, the match scores, the rematch and the replay link.
import { el } from './api.js';
import { roundEndRows, roundEndTitle } from './roundend.js';
import { $, legal, seatName, table, who } from './tablestate.js';

/** @typedef {import('./protocol').TableView} TableView */

/** The round's end: a banner with the winner, every hand and its points, the match scores, and a
 * button for the next deal (at a table of bots only, a countdown instead). */
/** @param {TableView} v */
export function renderRoundEnd(v) {
  const o = v.view;
  const box = $('round-end');
  const over = o.phase.phase === 'round_over' || o.phase.phase === 'game_over';
  if (!over || v.status === 'waiting') {
    box.hidden = true;
    $('round-next').hidden = true;
    if (table.pauseTimer) clearInterval(table.pauseTimer);
    table.pauseTimer = null;
    return;
  }
  // The result is the server's (the engine's scoring): the page counts no points itself.
  const r = v.round_result ?? null;
  $('round-end-title').textContent = roundEndTitle(r, o.phase.phase === 'game_over', who, v.you);
  $('round-end-hands').replaceChildren(...roundEndRows(r, v.seats, seatName));
  const me = v.you;
  const canDeal = legal(v).some((a) => a.type === 'next_round');
  const next = $('round-next');
  next.hidden = !canDeal;
  const pause = v.round_pause_ms;
  const count = $('round-countdown');
  if (table.pauseTimer) clearInterval(table.pauseTimer);
  table.pauseTimer = null;
  if (o.phase.phase === 'round_over' && pause) {
    const end = Date.now() + pause;
    const tick = () => {
      const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      count.textContent = `The next round starts in ${left} s.`;
    };
    tick();
    table.pauseTimer = setInterval(tick, 250);
    count.hidden = false;
  } else {
    count.hidden = true;
    count.textContent = '';
  }
  $('round-wait').hidden = !(o.phase.phase === 'round_over' && !pause && !canDeal);
  $('round-wait').textContent = me === null || me === undefined ? 'The next round starts when a player deals it.' : '';
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) {
    // The winner's line on screen (a phone player was down at the hand), then the keyboard on
    // the deal button without scrolling it away.
    const top = box.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight - 80) box.scrollIntoView({ block: 'start' });
    if (canDeal) next.focus({ preventScroll: true });
  }
}

/** @param {TableView} v */
export function renderScores(v) {
  const o = v.view;
  const over = ['round_over', 'game_over'].includes(o.phase.phase);
  const any = o.scores.some((s) => s > 0);
  // After a round the banner above shows the scores; the section returns for the game's end.
  $('scores').hidden = o.phase.phase === 'round_over' || (!over && !any);
  const rows = v.seats.map((s, i) => el('tr', {}, el('th', { scope: 'row' }, seatName(i)), el('td', {}, String(o.scores[i] ?? 0))));
  $('score-table').replaceChildren(
    el('caption', { class: 'visually-hidden' }, 'Match scores'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Player'), el('th', { scope: 'col' }, 'Points'))),
    el('tbody', {}, ...rows),
  );
  let result = '';
  if (o.phase.phase === 'game_over' && o.outcome) {
    const w = o.outcome.winner;
    result = w === null || w === undefined ? 'The game ended without a winner.' : `${who(w)} won the game.`;
  } else if (o.phase.phase === 'round_over') {
    result = 'The round is over.';
  }
  $('result').textContent = result;
  $('rematch').hidden = !(v.status === 'finished' && v.you !== null && v.you !== undefined);
  // A finished game is kept: its replay opens from this seat's chair (or above the table).
  const seen = v.you === null || v.you === undefined ? 'all' : `seat${v.you}`;
  $('replay-link').setAttribute('href', `replay.html?${new URLSearchParams({ game: v.id, view: seen, ply: '0' })}`);
  $('replay-link').hidden = v.status !== 'finished';
}
