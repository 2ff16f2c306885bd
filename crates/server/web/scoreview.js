// @ts-check
// The end of a round and of the game: the banner (the server's result), the deal or the
// countdown, the match scores, the rematch and the replay link. Each view draws inside the
// root it is given and acts only through what it is given.
import { el, find } from './api.js';
import { t } from './i18n.js';
import { roundEndRows, roundEndTitle } from './roundend.js';
import { legal } from './tablefacts.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Action} Action */
/** @typedef {import('./tablefacts.js').Names} Names */

/**
 * The round's end in `root`: a banner with the winner, every hand and its points, the match
 * scores, and a button for the next deal (at a table of bots only, a countdown instead).
 * @param {HTMLElement} root
 * @param {{ send: (action: Action) => void }} deps
 */
export function createRoundEnd(root, { send }) {
  const next = find(root, 'round-next');
  next.addEventListener('click', () => send({ type: 'next_round' }));
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  return {
    /**
     * @param {TableView} v
     * @param {Names} n
     */
    render(v, n) {
      const o = v.view;
      const over = !!o && (o.phase.phase === 'round_over' || o.phase.phase === 'game_over');
      stop();
      if (!o || !over || v.status === 'waiting') {
        root.hidden = true;
        next.hidden = true;
        return;
      }
      // The result is the server's (the engine's scoring): the page counts no points itself.
      const r = v.round_result ?? null;
      find(root, 'round-end-title').textContent = roundEndTitle(r, o.phase.phase === 'game_over', n.who, v.you);
      find(root, 'round-end-hands').replaceChildren(...roundEndRows(r, v.seats, n.seatName));
      const canDeal = legal(v).some((a) => a.type === 'next_round');
      next.hidden = !canDeal;
      const pause = v.round_pause_ms;
      const count = find(root, 'round-countdown');
      if (o.phase.phase === 'round_over' && pause) {
        const end = Date.now() + pause;
        const tick = () => {
          const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
          count.textContent = t('end.nextIn', { n: left });
        };
        tick();
        timer = setInterval(tick, 250);
        count.hidden = false;
      } else {
        count.hidden = true;
        count.textContent = '';
      }
      const wait = find(root, 'round-wait');
      wait.hidden = !(o.phase.phase === 'round_over' && !pause && !canDeal);
      wait.textContent = v.you === null || v.you === undefined ? t('end.nextByPlayer') : '';
      const wasHidden = root.hidden;
      root.hidden = false;
      if (wasHidden) {
        // The winner's line on screen (a phone player was down at the hand), then the keyboard on
        // the deal button without scrolling it away.
        const top = root.getBoundingClientRect().top;
        if (top < 0 || top > window.innerHeight - 80) root.scrollIntoView({ block: 'start' });
        if (canDeal) next.focus({ preventScroll: true });
      }
    },
    /** The deal button while it is offered, for the keyboard. */
    focusTarget: () => (!next.hidden && !root.hidden ? next : null),
  };
}

/**
 * The match scores in `root`, the result, the rematch (`rematch` asks for it) and the link to
 * the finished game's replay.
 * @param {HTMLElement} root
 * @param {{ rematch: () => void }} deps
 */
export function createScores(root, { rematch }) {
  find(root, 'rematch').addEventListener('click', rematch);
  return {
    /**
     * @param {TableView} v
     * @param {Names} n
     */
    render(v, n) {
      const o = v.view;
      if (!o) {
        root.hidden = true;
        return;
      }
      const over = ['round_over', 'game_over'].includes(o.phase.phase);
      const any = o.scores.some((s) => s > 0);
      // After a round the banner shows the scores; the section returns for the game's end.
      root.hidden = o.phase.phase === 'round_over' || (!over && !any);
      const rows = v.seats.map((_, i) => el('tr', {}, el('th', { scope: 'row' }, n.seatName(i)), el('td', {}, String(o.scores[i] ?? 0))));
      find(root, 'score-table').replaceChildren(
        el('caption', { class: 'visually-hidden' }, t('scores.caption')),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('end.player')), el('th', { scope: 'col' }, t('scores.points')))),
        el('tbody', {}, ...rows),
      );
      let result = '';
      if (o.phase.phase === 'game_over' && o.outcome) {
        const w = o.outcome.winner;
        result = w === null || w === undefined ? t('scores.noWinner') : w === v.you ? t('scores.youWon') : t('scores.theyWon', { name: n.who(w) });
      } else if (o.phase.phase === 'round_over') {
        result = t('table.roundOver');
      }
      find(root, 'result').textContent = result;
      find(root, 'rematch').hidden = !(v.status === 'finished' && v.you !== null && v.you !== undefined);
      // A finished game is kept: its replay opens from this seat's chair (or above the table).
      const seen = v.you === null || v.you === undefined ? 'all' : `seat${v.you}`;
      const link = find(root, 'replay-link');
      link.setAttribute('href', `replay.html?${new URLSearchParams({ game: v.id, view: seen, ply: '0' })}`);
      link.hidden = v.status !== 'finished';
    },
  };
}
