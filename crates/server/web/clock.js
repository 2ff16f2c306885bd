// @ts-check
// The turn clock every viewer of a table sees: whose time runs and how much is left (counted
// down here from the server's `turn_ms_left`, set again by every view), a warning to the person
// whose time is running out (on the page, and a sound when the turn sound is on), what happened
// when a time ran out (the seats' `timeouts`), a seat a bot plays while its person is away (their
// time ran out twice in a row) with the button that takes it back, and a seat a bot took over
// when its person resigned. The server decides all of it; this module only says it.
import { el, find } from './api.js';
import { t } from './i18n.js';
import { warnChime } from './sound.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./tablefacts.js').Names} Names */

/** A person is warned when this much of their turn is left (or a third of a short turn). */
export const WARN_MS = 10000;

/**
 * The clock drawn into `root`; `back` is called when the away person presses "I'm back".
 * @param {HTMLElement} root
 * @param {{ back: () => void }} actions
 */
export function createClock(root, { back }) {
  root.replaceChildren(
    el('p', { id: 'clock', class: 'clock', hidden: true }),
    el('p', { id: 'clock-warning', class: 'clock-warning', role: 'alert', hidden: true }),
    el('p', { id: 'clock-note', class: 'clock-note', role: 'status', 'aria-live': 'polite' }),
    el('p', { id: 'away-note', class: 'clock-note away', hidden: true }),
    el('button', { type: 'button', id: 'im-back', class: 'primary', hidden: true, onclick: back }, 'I’m back: let me play my seat'),
  );
  const line = find(root, 'clock');
  const warning = find(root, 'clock-warning');
  const note = find(root, 'clock-note');
  const awayNote = find(root, 'away-note');
  const backButton = find(root, 'im-back');
  /** @type {number | null} when the current seat's time runs out, in this page's clock */
  let deadline = null;
  let warnAt = WARN_MS;
  let mine = false;
  let who = '';
  let warnedFor = '';
  let turnKey = '';
  /** @type {{ timeouts: number, away: boolean, replaced: string | null }[] | null} */
  let before = null;
  let generation = -1;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;

  function tick() {
    if (deadline === null) {
      line.hidden = true;
      warning.hidden = true;
      clearInterval(timer);
      timer = undefined;
      return;
    }
    const left = Math.max(0, deadline - Date.now());
    const secs = Math.ceil(left / 1000);
    line.hidden = false;
    line.dataset.left = String(secs);
    line.classList.toggle('low', left <= warnAt);
    line.textContent = left > 0 ? (mine ? t('clock.yours', { s: secs }) : t('clock.theirs', { name: who, s: secs })) : mine ? t('clock.yoursUp') : t('clock.theirsUp', { name: who });
    const warn = mine && left <= warnAt;
    warning.hidden = !warn;
    if (warn) {
      warning.textContent = left > 0
        ? t('clock.warn', { s: secs })
        : t('clock.warnUp');
      if (warnedFor !== turnKey) {
        warnedFor = turnKey;
        document.body.dataset.clockWarnings = String(Number(document.body.dataset.clockWarnings || '0') + 1);
        warnChime();
      }
    }
  }

  return {
    /**
     * Draws the clock and the seats' notes for view `v`.
     * @param {TableView} v
     * @param {Names} n
     */
    render(v, n) {
      const seat = v.turn_seat ?? null;
      if (v.turn_ms_left !== null && v.turn_ms_left !== undefined && seat !== null) {
        deadline = Date.now() + v.turn_ms_left;
        mine = v.you === seat;
        who = n.seatName(seat);
        const whole = (v.turn_seconds || 0) * 1000;
        warnAt = Math.min(WARN_MS, whole > 0 ? Math.ceil(whole / 3) : WARN_MS);
        const o = v.view;
        turnKey = `${v.generation}:${seat}:${o ? `${o.round}:${o.turns}` : ''}`;
        if (!timer) timer = setInterval(tick, 250);
      } else {
        deadline = null;
      }
      tick();
      // What changed at the seats since the last view: a time ran out, a bot took a seat over.
      const now = v.seats.map((s) => ({ timeouts: s.timeouts || 0, away: !!s.away, replaced: s.replaced ?? null }));
      const fresh = before === null || generation !== v.generation || before.length !== now.length;
      /** @type {string[]} */
      const said = [];
      now.forEach((s, i) => {
        const was = fresh || !before ? { timeouts: 0, away: false, replaced: null } : before[i];
        const you = v.you === i;
        const name = n.seatName(i);
        if (s.replaced && !was.replaced) {
          said.push(t('clock.resigned', { name: s.replaced }));
        } else if (s.away && !was.away) {
          said.push(you
            ? t('clock.awayYou')
            : t('clock.away', { name }));
        } else if (s.timeouts > was.timeouts) {
          said.push(you
            ? t('clock.timeoutYou')
            : t('clock.timeout', { name }));
        } else if (!s.away && was.away) {
          said.push(you ? t('clock.backYou') : t('clock.back', { name }));
        }
      });
      if (said.length) {
        note.textContent = said.join(' ');
        document.body.dataset.clockNotes = String(Number(document.body.dataset.clockNotes || '0') + 1);
      } else if (fresh) {
        note.textContent = '';
      }
      before = now;
      generation = v.generation;
      // Who is away now, as long as they are.
      const away = v.seats.map((s, i) => (s.away ? i : -1)).filter((i) => i >= 0);
      awayNote.hidden = away.length === 0;
      awayNote.textContent = away
        .map((i) => (v.you === i ? 'A bot plays your seat while you are away.' : `A bot plays for ${n.seatName(i)} while they are away.`))
        .join(' ');
      backButton.hidden = !(v.you !== null && v.you !== undefined && v.seats[v.you]?.away);
    },
  };
}
