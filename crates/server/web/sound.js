// @ts-check
// The optional turn sound: a short two-note chime when the turn comes to this player, so a
// player in another tab or window hears it, and three low notes when their turn time is running
// out (clock.js). Off until the player switches it on (a page that
// beeps by itself surprises people, and browsers only allow sound after a click anyway); the
// choice is remembered in this browser.
import { t } from './i18n.js';

const KEY = 'tabletop.sound';

let enabled = false;
/** @type {AudioContext | null} the AudioContext, made on the click that switches sound on */
let audio = null;
let wasMine = false;
/** @type {HTMLElement | null} */
let button = null;

function remembered() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

function label() {
  if (!button) return;
  // A toggle keeps its name; aria-pressed says on or off, the visible word says it to the eye.
  button.setAttribute('aria-pressed', String(enabled));
  const state = document.createElement('span');
  state.setAttribute('aria-hidden', 'true');
  state.textContent = enabled ? t('hand.soundOn') : t('hand.soundOff');
  // One label (a button lays its children out with a gap between them).
  const words = document.createElement('span');
  words.append(t('hand.sound'), state);
  button.replaceChildren(words);
}

function chime() {
  document.body.dataset.turnSounds = String(Number(document.body.dataset.turnSounds || '0') + 1);
  notes([660, 880]);
}

/** @param {number[]} freqs the notes, one after another */
function notes(freqs) {
  if (!audio) return;
  const now = audio.currentTime;
  for (const [i, freq] of freqs.entries()) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    const start = now + i * 0.12;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.2);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + 0.22);
  }
}

function ensureAudio() {
  if (audio || !window.AudioContext) return;
  try {
    audio = new AudioContext();
  } catch {
    audio = null;
  }
}

/** Wires the on/off `toggle` button. */
/** @param {HTMLElement} toggle */
export function setupTurnSound(toggle) {
  button = toggle;
  enabled = remembered();
  label();
  toggle.addEventListener('click', () => {
    enabled = !enabled;
    if (enabled) ensureAudio();
    try {
      localStorage.setItem(KEY, enabled ? 'on' : 'off');
    } catch {
      /* the choice lasts as long as the page */
    }
    label();
  });
  // A remembered "on" needs one click or key on the page before the browser lets it sound.
  const unlock = () => {
    if (enabled) ensureAudio();
  };
  document.addEventListener('pointerdown', unlock, { once: true });
  document.addEventListener('keydown', unlock, { once: true });
}

/** The person's turn time is running out: three low notes, when the sound is on. */
export function warnChime() {
  if (!enabled) return;
  document.body.dataset.warnSounds = String(Number(document.body.dataset.warnSounds || '0') + 1);
  notes([440, 440, 440]);
}

/** Called with every view: chimes when the turn has just become this player's. */
/** @param {boolean} mine */
export function turnChanged(mine) {
  if (mine && !wasMine && enabled) chime();
  wasMine = mine;
}
