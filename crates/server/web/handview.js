// @ts-check
// The player's hand, the colour picker and the action buttons: what the server lists as legal,
// given to `send` when clicked. Each view draws inside the root it is given and acts only
// through the `send` it is given.
import { capitalize, el, find } from './api.js';
import { legal } from './tablefacts.js';
import { t } from './i18n.js';
import { cardClass, cardFace, cardWords, colorWords, COLORS, faceWords, parseCard } from './unocards.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Action} Action */
/** @typedef {import('./protocol').Color} Color */
/** @typedef {import('./tablefacts.js').Names} Names */
/** @typedef {Action['type']} ActionType */
/** @typedef {(action: Action) => void} Send */

const SORT_KEY = 'tabletop.uno.sort';

/**
 * The colour picker in `root`: a wild's colour, or the first card's.
 * @param {HTMLElement} root
 * @param {() => void} refocus where the keyboard goes when the picker closes
 */
export function createColorPicker(root, refocus) {
  const buttons = find(root, 'color-buttons');
  const close = () => {
    root.hidden = true;
    refocus();
  };
  return {
    /**
     * @param {Color[]} colors
     * @param {(color: Color) => void} onPick
     * @param {boolean} cancellable whether the choice can be put off (not the first card's)
     */
    open(colors, onPick, cancellable) {
      const wasOpen = !root.hidden;
      root.hidden = false;
      buttons.replaceChildren(
        ...colors.map((c) =>
          el(
            'button',
            {
              type: 'button',
              class: `color-button c-${c}`,
              dataset: { color: c },
              onclick: () => {
                root.hidden = true;
                onPick(c);
              },
            },
            capitalize(colorWords(c)),
          ),
        ),
        ...(cancellable ? [el('button', { type: 'button', id: 'color-cancel', onclick: close }, t('act.cancel'))] : []),
      );
      const first = buttons.querySelector('button');
      if (first && !wasOpen) first.focus();
    },
    close,
    /** Closes it without moving the keyboard (a view that no longer offers a colour). */
    hide: () => {
      root.hidden = true;
    },
    /** Escape closes a picker that can be put off. */
    cancellable: () => !root.hidden && !!root.querySelector('#color-cancel'),
  };
}

/** @typedef {ReturnType<typeof createColorPicker>} ColorPicker */

/**
 * The viewer's hand in `root` (its title, hint, UNO reminder, cards and the sort button).
 * @param {HTMLElement} root
 * @param {{ send: Send, picker: ColorPicker, refuse: (text: string) => void }} deps
 */
export function createHand(root, { send, picker, refuse }) {
  const hand = find(root, 'hand');
  const sortButton = find(root, 'sort-hand');
  let sorted = true;
  try {
    sorted = localStorage.getItem(SORT_KEY) !== 'drawn';
  } catch {
    /* sorted */
  }
  /** @type {DOMRect | null} where the viewer's played card was, for its glide to the pile */
  let playedFrom = null;
  /** @type {TableView | null} */
  let shown = null;
  /** @type {Names | null} */
  let named = null;

  /**
   * @param {string} card
   * @param {boolean} can
   */
  function clickCard(card, can) {
    const v = shown;
    if (!v || !v.view || !named) return;
    if (!can) {
      const o = v.view;
      const over = ['round_over', 'game_over'].includes(o.phase.phase);
      const message =
        over || v.status !== 'playing'
          ? t('hand.overNow')
          : o.current !== v.you
            ? t('hand.notTurn', { name: named.seatName(o.current) })
            : o.color
              ? t('hand.cannotColor', { card: capitalize(cardWords(card)), color: colorWords(o.color), top: cardWords(o.top) })
              : t('hand.cannot', { card: capitalize(cardWords(card)) });
      refuse(message);
      return;
    }
    const plays = legal(v).filter((a) => a.type === 'play' && a.card === card);
    const colors = plays.flatMap((a) => (a.type === 'play' && a.color ? [a.color] : []));
    if (colors.length) {
      picker.open(colors, (color) => send({ type: 'play', card, color }), true);
      return;
    }
    send({ type: 'play', card });
  }

  sortButton.addEventListener('click', () => {
    sorted = !sorted;
    try {
      localStorage.setItem(SORT_KEY, sorted ? 'sorted' : 'drawn');
    } catch {
      /* the choice lasts as long as the page */
    }
    if (shown && named) render(shown, named);
  });

  /**
   * @param {TableView} v
   * @param {Names} n
   */
  function render(v, n) {
    shown = v;
    named = n;
    const o = v.view;
    const me = v.you;
    if (!o || me === null || me === undefined) {
      find(root, 'uno-reminder').hidden = true;
      find(root, 'hand-title').textContent = me === null || me === undefined ? t('hand.hands') : t('hand.yours');
      find(root, 'hand-hint').textContent = !o ? t('hand.notDealt') : t('hand.spectator');
      sortButton.hidden = true;
      hand.replaceChildren();
      return;
    }
    find(root, 'hand-title').textContent = t('hand.count', { n: o.hand.length });
    const acts = legal(v);
    const playable = new Set(acts.flatMap((a) => (a.type === 'play' ? [a.card] : [])));
    const can = (/** @type {ActionType} */ t) => acts.some((a) => a.type === t);
    let hint = '';
    if (playable.size && o.phase.phase === 'same_number') hint = t('hand.same', { face: faceWords(parseCard(o.top).code) });
    else if (playable.size) hint = t('hand.playable');
    else if (o.phase.phase === 'challenge' && can('challenge')) hint = t('hand.challenge');
    else if (o.phase.phase === 'drawn_card' && can('pass')) hint = t('hand.keep');
    else if (can('draw')) hint = o.pending_draw ? t('hand.drawN', { n: o.pending_draw }) : t('hand.draw');
    find(root, 'hand-hint').textContent = hint;
    renderUnoReminder(o.hand.length, can('call_uno'));
    /** @type {[string, number][]} */
    const order = sorted ? sortedHand(o.hand) : o.hand.map((card, i) => [card, i]);
    sortButton.textContent = sorted ? t('hand.drawnOrder') : t('hand.sort');
    sortButton.hidden = o.hand.length < 2;
    hand.replaceChildren(
      ...order.map(([card, i]) => {
        const ok = playable.has(card);
        const drawn = o.drawn_card === card && o.phase.phase === 'drawn_card';
        return el(
          'li',
          {},
          el(
            'button',
            {
              type: 'button',
              class: `${cardClass(card)}${ok ? ' playable' : ''}${drawn ? ' drawn' : ''}`,
              'aria-disabled': ok ? undefined : 'true',
              dataset: { card, index: String(i) },
              onclick: (/** @type {MouseEvent} */ e) => {
                playedFrom = /** @type {HTMLElement} */ (e.currentTarget).getBoundingClientRect();
                clickCard(card, ok);
              },
            },
            ...cardFace(card),
            ok ? el('span', { class: 'playable-mark' }, ' ', el('span', { 'aria-hidden': 'true' }, '✓ '), el('span', { class: 'playable-word' }, t('hand.mark'))) : null,
            drawn ? el('span', { class: 'visually-hidden' }, t('hand.justDrawn')) : null,
          ),
        );
      }),
    );
  }

  /**
   * The reminder to call UNO, on the hand where the player looks: at two cards on the own turn
   * (before playing the second-to-last), and at one card not yet called (a late call, until the
   * next player moves). Its button calls, once; the server says when a call means something.
   * @param {number} cards the hand's size
   * @param {boolean} callable whether the server lists the own call now
   */
  function renderUnoReminder(cards, callable) {
    const box = find(root, 'uno-reminder');
    const show = callable && cards <= 2;
    box.hidden = !show;
    if (!show) return;
    find(root, 'uno-reminder-text').textContent =
      cards === 2 ? t('hand.unoTwo') : t('hand.unoOne');
    const button = /** @type {HTMLButtonElement} */ (find(root, 'hand-uno'));
    button.disabled = false;
    button.onclick = () => {
      button.disabled = true;
      send({ type: 'call_uno' });
    };
  }

  return {
    render,
    /** Where the played card was, taken once (for its glide to the pile). */
    takePlayedFrom() {
      const r = playedFrom;
      playedFrom = null;
      return r;
    },
    /** The buttons of the cards drawn after the first `held` (for their glide). @param {number} held */
    drawnButtons: (held) => [...hand.querySelectorAll('button[data-index]')].filter((b) => b instanceof HTMLElement && Number(b.dataset.index) >= held),
    /** The first playable card, for the keyboard. */
    playable: () => /** @type {HTMLElement | null} */ (hand.querySelector('button.playable')),
    /** The hand's title, where the keyboard goes when nothing else is there. */
    title: () => find(root, 'hand-title'),
  };
}

/** The hand sorted by colour (red, yellow, green, blue, then wilds), then number, then action;
 * each card keeps its place in the hand (for the data the tests and the server read).
 * @param {string[]} hand
 * @returns {[string, number][]}
 */
function sortedHand(hand) {
  /** @param {ReturnType<typeof parseCard>} c */
  const colourRank = (c) => (c.wild || !c.color ? 4 : COLORS.indexOf(c.color));
  /** @param {ReturnType<typeof parseCard>} c */
  const faceRank = (c) => (/^\d$/.test(c.code) ? Number(c.code) : 10 + ['S', 'R', 'D2', '', '4'].indexOf(c.code));
  return hand
    .map((card, i) => /** @type {[string, number]} */ ([card, i]))
    .sort(([a, i], [b, j]) => {
      const x = parseCard(a);
      const y = parseCard(b);
      return colourRank(x) - colourRank(y) || faceRank(x) - faceRank(y) || i - j;
    });
}

/**
 * The action buttons in `root`: draw, pass, UNO calls and catches, challenge, accept, swaps;
 * and the first card's colour, chosen in the picker.
 * @param {HTMLElement} root
 * @param {{ send: Send, picker: ColorPicker }} deps
 */
export function createActions(root, { send, picker }) {
  return {
    /**
     * @param {TableView} v
     * @param {Names} n
     */
    render(v, n) {
      const acts = legal(v);
      const o = v.view;
      if (!o) {
        root.replaceChildren();
        root.hidden = true;
        picker.hide();
        return;
      }
      const has = (/** @type {ActionType} */ t) => acts.some((a) => a.type === t);
      /** @type {HTMLElement[]} */
      const buttons = [];
      if (has('draw')) buttons.push(el('button', { type: 'button', id: 'act-draw', onclick: () => send({ type: 'draw' }) }, o.pending_draw ? t('act.drawN', { n: o.pending_draw }) : t('act.draw')));
      const passLabel = o.phase.phase === 'same_number' ? t('act.passRun') : t('act.keep');
      if (has('pass')) buttons.push(el('button', { type: 'button', id: 'act-pass', onclick: () => send({ type: 'pass' }) }, passLabel));
      // The engine lists an own call and a catch apart, and only when they mean something; each
      // button says what it does and sends once (it stays off until the next view).
      const onePress = (/** @type {Action} */ action) => (/** @type {MouseEvent} */ e) => {
        /** @type {HTMLButtonElement} */ (e.currentTarget).disabled = true;
        send(action);
      };
      if (has('call_uno')) {
        const label = o.hand.length === 2 ? t('act.unoTwo') : t('act.unoOne');
        buttons.push(el('button', { type: 'button', id: 'act-uno', class: 'uno-button', onclick: onePress({ type: 'call_uno' }) }, label));
      }
      for (const a of acts) {
        if (a.type !== 'catch_uno') continue;
        const cards = o.hand_sizes[a.seat];
        buttons.push(
          el(
            'button',
            { type: 'button', id: 'act-catch', class: 'uno-button', onclick: onePress({ type: 'catch_uno', seat: a.seat }) },
            t('act.catch', { name: n.seatName(a.seat), n: cards }),
          ),
        );
      }
      if (has('challenge')) buttons.push(el('button', { type: 'button', id: 'act-challenge', onclick: () => send({ type: 'challenge' }) }, t('act.challenge')));
      if (has('accept')) buttons.push(el('button', { type: 'button', id: 'act-accept', onclick: () => send({ type: 'accept' }) }, t('act.accept')));
      for (const a of acts) {
        if (a.type !== 'swap_hands') continue;
        buttons.push(el('button', { type: 'button', onclick: () => send({ type: 'swap_hands', with: a.with }) }, t('act.swap', { name: n.seatName(a.with) })));
      }
      root.replaceChildren(...buttons);
      root.hidden = buttons.length === 0;

      // Naming the colour when the first card turned up is a wild.
      const declare = acts.flatMap((a) => (a.type === 'declare_color' ? [a.color] : []));
      if (declare.length) picker.open(declare, (color) => send({ type: 'declare_color', color }), false);
      else if (!acts.some((a) => a.type === 'play' && a.color)) picker.hide();
    },
    /** The first action, for the keyboard. */
    focusTarget: () => /** @type {HTMLElement | null} */ (root.querySelector('button')),
  };
}
