// @ts-check
// The player's hand, the colour picker and the action buttons: what the server lists as legal,
// sent when clicked.
import { capitalize, el } from './api.js';
import { showTableError } from './refusals.js';
import { $, actions, legal, seatName, table } from './tablestate.js';
import { cardClass, cardFace, cardWords, COLORS, parseCard } from './unocards.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Action} Action */
/** @typedef {import('./protocol').Color} Color */
/** @typedef {Action['type']} ActionType */

/** @param {TableView} v */
export function renderHand(v) {
  const o = v.view;
  const hand = $('hand');
  const me = v.you;
  if (me === null || me === undefined) {
    $('uno-reminder').hidden = true;
    $('hand-title').textContent = 'Hands';
    $('hand-hint').textContent = 'Spectators see only how many cards each player holds.';
    hand.replaceChildren();
    return;
  }
  $('hand-title').textContent = `Your hand (${o.hand.length} card${o.hand.length === 1 ? '' : 's'})`;
  const plays = legal(v).filter((a) => a.type === 'play');
  const playable = new Set(plays.map((a) => a.card));
  const acts = legal(v);
  const can = (/** @type {ActionType} */ t) => acts.some((a) => a.type === t);
  let hint = '';
  if (playable.size && o.phase.phase === 'same_number') hint = `You may play another ${parseCard(o.top).code} of any colour (marked “playable”), or pass to end your turn.`;
  else if (playable.size) hint = 'Cards marked “playable” can be played now: click one (a wild asks for a colour).';
  else if (o.phase.phase === 'challenge' && can('challenge')) hint = 'Challenge the Wild Draw Four or accept the cards.';
  else if (o.phase.phase === 'drawn_card' && can('pass')) hint = 'The drawn card cannot be played: keep it and pass.';
  else if (can('draw')) hint = o.pending_draw ? `No card can be played: draw ${o.pending_draw}.` : 'No card can be played: draw a card.';
  $('hand-hint').textContent = hint;
  renderUnoReminder(o.hand.length, can('call_uno'));
  /** @type {[string, number][]} */
  const order = table.sortHand ? sortedHand(o.hand) : o.hand.map((card, i) => [card, i]);
  $('sort-hand').textContent = table.sortHand ? 'Show in the order drawn' : 'Sort by colour and number';
  $('sort-hand').hidden = o.hand.length < 2;
  hand.replaceChildren(
    ...order.map(([card, i]) => {
      const can = playable.has(card);
      const drawn = o.drawn_card === card && o.phase.phase === 'drawn_card';
      return el(
        'li',
        {},
        el(
          'button',
          {
            type: 'button',
            class: `${cardClass(card)}${can ? ' playable' : ''}${drawn ? ' drawn' : ''}`,
            'aria-disabled': can ? undefined : 'true',
            dataset: { card, index: String(i) },
            onclick: (/** @type {MouseEvent} */ e) => {
              table.playedFrom = /** @type {HTMLElement} */ (e.currentTarget).getBoundingClientRect();
              clickCard(card, can);
            },
          },
          ...cardFace(card),
          can ? el('span', { class: 'playable-mark' }, ' ', el('span', { 'aria-hidden': 'true' }, '✓ '), 'playable') : null,
          drawn ? el('span', { class: 'visually-hidden' }, ' just drawn') : null,
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
  const box = $('uno-reminder');
  const show = callable && cards <= 2;
  box.hidden = !show;
  if (!show) return;
  $('uno-reminder-text').textContent =
    cards === 2 ? 'Two cards left: call UNO before you play one, or you can be caught.' : 'One card left and no UNO call yet: call it now, before the next player moves.';
  const button = $('hand-uno');
  button.disabled = false;
  button.onclick = () => {
    button.disabled = true;
    actions.send({ type: 'call_uno' });
  };
}

/** The hand sorted by colour (red, yellow, green, blue, then wilds), then number, then action;
 * each card keeps its place in the hand (for the data the tests and the server read). */
/**
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
 * @param {string} card
 * @param {boolean} can
 */
function clickCard(card, can) {
  const v = table.view;
  if (!v) return;
  if (!can) {
    const o = v.view;
    const over = ['round_over', 'game_over'].includes(o.phase.phase);
    const message =
      over || v.status !== 'playing'
        ? 'No card can be played now: the round is over.'
        : o.current !== v.you
          ? `It is not your turn: ${seatName(o.current)} is playing.`
          : `${capitalize(cardWords(card))} cannot be played now${o.color ? ` (the colour in play is ${o.color}, the top card ${cardWords(o.top)})` : ''}.`;
    showTableError(message);
    return;
  }
  const plays = legal(v)
    .filter((a) => a.type === 'play')
    .filter((a) => a.card === card);
  const colors = plays.flatMap((a) => (a.color ? [a.color] : []));
  if (colors.length) {
    openColorPicker(colors, (color) => actions.send({ type: 'play', card, color }));
    return;
  }
  actions.send({ type: 'play', card });
}

/** After a move the button pressed is gone: put the focus on the next round's button, else the
 * first playable card, else the first action, else the hand's title, so the keyboard never falls
 * to the page body. */
export function keepFocus() {
  const next = $('round-next');
  const dealing = !next.hidden && !$('round-end').hidden;
  /** @type {HTMLElement} */
  const target = (dealing && next) || document.querySelector('#hand button.playable') || document.querySelector('#actions button') || $('hand-title');
  target.focus({ preventScroll: true });
}

export function closeColorPicker() {
  $('color-picker').hidden = true;
  keepFocus();
}

/**
 * @param {Color[]} colors
 * @param {((color: Color) => void) & { cancel?: boolean }} onPick (`cancel: false`: the choice cannot be put off)
 */
function openColorPicker(colors, onPick) {
  const box = $('color-picker');
  const wasOpen = !box.hidden;
  box.hidden = false;
  $('color-buttons').replaceChildren(
    ...colors.map((c) =>
      el(
        'button',
        {
          type: 'button',
          class: `color-button c-${c}`,
          dataset: { color: c },
          onclick: () => {
            box.hidden = true;
            onPick(c);
          },
        },
        capitalize(c),
      ),
    ),
    // Choosing the first card's colour cannot be put off: no Cancel then.
    ...(onPick.cancel === false ? [] : [el('button', { type: 'button', id: 'color-cancel', onclick: closeColorPicker }, 'Cancel')]),
  );
  const first = $('color-buttons').querySelector('button');
  if (first && !wasOpen) first.focus();
}

/** @param {TableView} v */
export function renderActions(v) {
  const box = $('actions');
  const acts = legal(v);
  const o = v.view;
  const has = (/** @type {ActionType} */ t) => acts.some((a) => a.type === t);
  /** @type {HTMLElement[]} */
  const buttons = [];
  if (has('draw')) buttons.push(el('button', { type: 'button', id: 'act-draw', onclick: () => actions.send({ type: 'draw' }) }, o.pending_draw ? `Draw ${o.pending_draw}` : 'Draw a card'));
  const passLabel = o.phase.phase === 'same_number' ? 'Pass: play no more of this number' : 'Keep the card and pass';
  if (has('pass')) buttons.push(el('button', { type: 'button', id: 'act-pass', onclick: () => actions.send({ type: 'pass' }) }, passLabel));
  // The engine lists an own call and a catch apart, and only when they mean something; each
  // button says what it does and sends once (it stays off until the next view).
  const onePress = (/** @type {Action} */ action) => (/** @type {MouseEvent} */ e) => {
    /** @type {HTMLButtonElement} */ (e.currentTarget).disabled = true;
    actions.send(action);
  };
  if (has('call_uno')) {
    const label = o.hand.length === 2 ? 'Call UNO! (before you play your second-to-last card)' : 'Call UNO! (you hold one card)';
    buttons.push(el('button', { type: 'button', id: 'act-uno', class: 'uno-button', onclick: onePress({ type: 'call_uno' }) }, label));
  }
  for (const a of acts.filter((x) => x.type === 'catch_uno')) {
    const n = o.hand_sizes[a.seat];
    buttons.push(
      el(
        'button',
        { type: 'button', id: 'act-catch', class: 'uno-button', onclick: onePress({ type: 'catch_uno', seat: a.seat }) },
        `Catch ${seatName(a.seat)}: ${n === 1 ? 'one card' : `${n} cards`} and no UNO call`,
      ),
    );
  }
  if (has('challenge')) buttons.push(el('button', { type: 'button', id: 'act-challenge', onclick: () => actions.send({ type: 'challenge' }) }, 'Challenge the Wild Draw Four'));
  if (has('accept')) buttons.push(el('button', { type: 'button', id: 'act-accept', onclick: () => actions.send({ type: 'accept' }) }, 'Accept and draw'));
  for (const a of acts.filter((x) => x.type === 'swap_hands')) {
    buttons.push(el('button', { type: 'button', onclick: () => actions.send({ type: 'swap_hands', with: a.with }) }, `Swap hands with ${seatName(a.with)}`));
  }
  box.replaceChildren(...buttons);
  box.hidden = buttons.length === 0;

  // Naming the colour when the first card turned up is a wild.
  const declare = acts.filter((a) => a.type === 'declare_color');
  if (declare.length) {
    /** @type {((color: Color) => void) & { cancel?: boolean }} */
    const pick = (color) => actions.send({ type: 'declare_color', color });
    pick.cancel = false;
    openColorPicker(declare.map((a) => a.color), pick);
  } else if (!acts.some((a) => a.type === 'play' && a.color)) {
    $('color-picker').hidden = true;
  }
}
