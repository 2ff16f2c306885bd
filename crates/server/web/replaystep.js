// @ts-check
// Stepping through a replay, shared by the UNO and Duel replay pages. Buttons, keys and the
// slider move a *wanted* position; frames are fetched one at a time until the shown position is
// the wanted one. So quick presses add up (three presses of → go three actions on, even while
// the first frame is on its way) instead of being lost, and nothing here scrolls the window.
import { $ } from './api.js';

/**
 * @typedef {object} Stepper
 * @property {(delta: number) => void} step move the wanted position by `delta` actions
 * @property {(ply: number) => void} go make `ply` the wanted position
 * @property {() => number} shown the position on screen
 * @property {() => boolean} busy whether a frame is on its way
 */

/**
 * @param {object} opts
 * @param {number} opts.ply the position shown at the start
 * @param {() => number} opts.plies how many actions the game has
 * @param {(ply: number) => Promise<boolean>} opts.show fetches and draws the frame of `ply`;
 *   false when it could not (the wanted position then falls back to the shown one)
 * @returns {Stepper}
 */
export function createStepper({ ply, plies, show }) {
  let shown = ply;
  /** @type {number | null} */
  let wanted = null;
  let running = false;
  const clamp = (/** @type {number} */ p) => Math.max(0, Math.min(plies(), p));

  async function run() {
    if (running) return;
    running = true;
    try {
      while (wanted !== null && wanted !== shown) {
        const target = wanted;
        if (await show(target)) {
          shown = target;
        } else {
          wanted = null;
        }
      }
    } finally {
      wanted = null;
      running = false;
    }
  }

  return {
    step(delta) {
      wanted = clamp((wanted ?? shown) + delta);
      run();
    },
    go(p) {
      wanted = clamp(p);
      // The same position again (a perspective switch): drawn again all the same.
      if (wanted === shown && !running) {
        show(wanted);
        wanted = null;
        return;
      }
      run();
    },
    shown: () => shown,
    busy: () => running,
  };
}

/**
 * The step buttons and keys of a replay page: |◀ ◀ ▶ ▶| (`#first`, `#prev`, `#next`, `#last`),
 * ← → Home End anywhere but in a form field, and the slider `#ply-slider`.
 * @param {Stepper} stepper
 * @param {() => number} plies
 */
export function bindStepping(stepper, plies) {
  const byId = $;
  byId('first').addEventListener('click', () => stepper.go(0));
  byId('prev').addEventListener('click', () => stepper.step(-1));
  byId('next').addEventListener('click', () => stepper.step(1));
  byId('last').addEventListener('click', () => stepper.go(plies()));
  const slider = /** @type {HTMLInputElement} */ (byId('ply-slider'));
  slider.addEventListener('input', () => stepper.go(Number(slider.value)));
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (t instanceof HTMLSelectElement || t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    // Keys that belong to a focused control of its own (the analysis graph's points).
    if (t instanceof Element && t.closest('[data-own-keys]')) return;
    if (e.key === 'ArrowLeft') stepper.step(-1);
    else if (e.key === 'ArrowRight') stepper.step(1);
    else if (e.key === 'Home') stepper.go(0);
    else if (e.key === 'End') stepper.go(plies());
    else return;
    // The page itself never scrolls on these keys.
    e.preventDefault();
  });
}

/**
 * Brings `item` into view inside its own scrolling list `box`, never scrolling the window.
 * @param {HTMLElement} box
 * @param {HTMLElement} item
 */
export function revealInList(box, item) {
  const b = box.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}
