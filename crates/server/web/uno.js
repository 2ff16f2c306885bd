// @ts-check
// The UNO pages: the lobby (open a table, list open tables) and a table (join, play, watch).
// The server decides every rule: the page shows the view it pushes over the WebSocket, marks
// what the server lists as legal, and shows refusals in words.
//
// The table page is its views (tableview.js, handview.js, scoreview.js, tablelog.js), each
// drawn inside its own root and acting through the one `send` this module gives it: an action
// goes over the socket, and comes back once, as the `update` every viewer gets (over HTTP with
// `Prefer: return=minimal` while the socket is down, the change then arriving with the socket).
// What the page holds (the view, the token, the socket) is this module's alone.
import { $, ApiError, el, field, request, showError } from './api.js';
import { t } from './i18n.js';
import { createActions, createColorPicker, createHand } from './handview.js';
import { BLANK_NAME, CHOSEN_SEED, showLobby, tableName } from './lobby.js';
import { createClock } from './clock.js';
import { animate } from './motion.js';
import { createPhrases } from './phrases.js';
import { createErrorRow, errorText, refusalText } from './refusals.js';
import { createRoundEnd, createScores } from './scoreview.js';
import { forgetSeat, saveName, savedName, savedSeat, saveSeat } from './seatstore.js';
import { setupTurnSound, turnChanged } from './sound.js';
import { mergeUpdate, names, setOffline } from './tablefacts.js';
import { createLog } from './tablelog.js';
import { createTableView } from './tableview.js';
import { ratingText } from './rating.js';

/** @typedef {import('./protocol').TableView} TableView */
/** @typedef {import('./protocol').Action} Action */
/** @typedef {import('./protocol').Phase} Phase */
/** @typedef {import('./protocol').Joined} Joined */
/** @typedef {import('./protocol').JoinRequest} JoinRequest */
/** @typedef {import('./protocol').ActRequest} ActRequest */
/** @typedef {import('./protocol').Update} Update the WebSocket's `update`: what one action changed */
/** @typedef {import('./protocol').SocketError} SocketError the WebSocket's answer to a refused message */

/** @param {string} text */
function setConnection(text) {
  $('connection').textContent = text;
}

/** A "play from here" table says which kept game it started from, to whoever reads it (its
 * cards are that game's, and its replay shows every hand).
 * @param {TableView} v */
function showStartedFrom(v) {
  const f = v.started_from;
  $('started-from').hidden = !f;
  if (!f) return;
  const href = `replay.html?game=${encodeURIComponent(f.table)}&g=${f.game}&ply=${f.ply}`;
  const link = el('a', { href }, t('table.startedFrom.link', { game: f.game + 1, table: f.table, ply: f.ply }));
  $('started-from').replaceChildren(t('table.startedFrom'), link, t('table.startedFrom.after'));
}

/** @param {HTMLInputElement} input */
async function copyInvite(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    $('copy-status').textContent = t('table.invite.copied');
  } catch {
    input.select();
    $('copy-status').textContent = t('table.invite.select');
  }
}

/**
 * The marks after a seat's name: an open seat, a person away (a bot plays for them), a bot
 * that took a resigned person's seat.
 * @param {import('./protocol').Occupant} s
 * @returns {string[]}
 */
function seatTags(s) {
  if (s.kind === 'bot') return s.replaced ? [t('seat.resignedBot', { name: s.replaced })] : [];
  if (!s.taken) return [t('players.openSeat')];
  const rating = s.rating ? [ratingText(s.rating)] : [];
  if (s.away) return [...rating, t('seat.away')];
  return s.timeouts ? [...rating, t('seat.timedOut')] : rating;
}

/**
 * A signed-in person's seat links to their profile.
 * @param {import('./protocol').Occupant} s
 */
function profileLink(s) {
  if (s.kind === 'bot' || !s.taken || !s.account) return null;
  return el('a', { class: 'profile-link', href: `player.html?id=${encodeURIComponent(s.account)}` }, t('seat.profile'));
}

/** @param {Phase} phase */
function phaseWords(phase) {
  switch (phase.phase) {
    case 'drawn_card':
      return t('phase.drawn');
    case 'choose_color':
      return t('phase.color');
    case 'challenge':
      return t('phase.challenge');
    case 'choose_swap':
      return t('phase.swap');
    case 'same_number':
      return t('phase.same');
    default:
      return '';
  }
}

/**
 * The table `id`'s page: join it, play at it, or watch it.
 * @param {string} id
 */
function openTable(id) {
  /** What this page holds of the table. */
  const held = {
    /** @type {string | null} */
    token: null,
    /** @type {TableView | null} the last view the server sent */
    view: null,
    /** @type {WebSocket | null} */
    socket: null,
    retry: 0,
    closedByUs: false,
    /** an action sent and not yet answered (by its update, or a refusal) */
    sending: false,
    /** @type {number | null} the seat that played the top card (null: the round's first card) */
    topBy: null,
    /** @type {string | null} whose move the page last showed: an error is about a moment */
    lastTurnKey: null,
    /** @type {ReturnType<typeof setInterval> | undefined} */
    offlineTimer: undefined,
    /** the person resigned here: their socket's close says so, and the page watches on */
    resigned: false,
  };
  const play = $('play');
  const errors = createErrorRow($('error-row'), () => hand.title().focus({ preventScroll: true }));
  const actionsBox = el('div', { id: 'actions', class: 'controls', role: 'group', 'aria-label': t('act.actions') });
  const pickerBox = el(
    'div',
    { id: 'color-picker', class: 'color-picker', role: 'group', 'aria-labelledby': 'color-picker-title', hidden: true },
    el('p', { id: 'color-picker-title' }, el('strong', {}, t('act.chooseColor'))),
    el('div', { id: 'color-buttons', class: 'controls' }),
  );
  const table = createTableView($('table-view'), { below: [actionsBox, pickerBox], felt: true });
  const picker = createColorPicker(pickerBox, () => keepFocus());
  const hand = createHand($('hand-section'), { send, picker, refuse: errors.show });
  const actions = createActions(actionsBox, { send, picker });
  const roundEnd = createRoundEnd($('round-end'), { send });
  const scores = createScores($('scores'), { rematch });
  const log = createLog($('uno-log'), $('uno-announce'));
  const clock = createClock($('clock-box'), { back: comeBack });
  const phrases = createPhrases($('phrase-box'), { id, token: () => held.token, rowOf: (seat) => table.row(seat) });
  request('GET', '/api/uno/options')
    .then((o) => phrases.offer(/** @type {import('./protocol').UnoOptions} */ (o).phrases || []))
    .catch(() => {
      /* no phrases offered: the table plays on */
    });

  /** The person whose seat a bot played while they were away plays it again. */
  async function comeBack() {
    if (!held.token) return;
    try {
      await request('POST', `/api/tables/${encodeURIComponent(id)}/back`, undefined, held.token);
      errors.show('');
    } catch (err) {
      errors.show(errorText(err));
    }
  }

  /** Resigns: a bot takes the seat for the rest of the game, and this page watches on. */
  async function resign() {
    if (!held.token) return;
    held.resigned = true;
    try {
      await request('POST', `/api/tables/${encodeURIComponent(id)}/resign`, undefined, held.token);
      $('resign-confirm').hidden = true;
    } catch (err) {
      held.resigned = false;
      errors.show(errorText(err));
    }
  }

  /** After a move the button pressed is gone: the keyboard goes to the next round's button,
   * else the first playable card, else the first action, else the hand's title, never to the
   * page body. */
  function keepFocus() {
    const target = roundEnd.focusTarget() || hand.playable() || actions.focusTarget() || hand.title();
    target.focus({ preventScroll: true });
  }

  /**
   * Sends the viewer's action: over the socket (its answer is the `update` every viewer gets,
   * so the change is drawn once), or while the socket is down over HTTP asking for no view.
   * @param {Action} action
   */
  async function send(action) {
    if (!held.view || !held.token) return;
    // A double click or a second tap must never act twice (a second UNO call costs cards).
    if (held.sending) return;
    held.sending = true;
    play.setAttribute('aria-busy', 'true');
    // Every action that leaves the page is counted: a test sees a double click send one.
    document.body.dataset.sent = String(Number(document.body.dataset.sent || '0') + 1);
    /** @type {ActRequest} */
    const body = { action, version: held.view.version };
    const ws = held.socket;
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ type: 'action', ...body }));
      return;
    }
    try {
      await request('POST', `/api/tables/${encodeURIComponent(id)}/actions`, body, held.token, { minimal: true });
      errors.show('');
    } catch (err) {
      refused(err instanceof ApiError ? err.code : '', errorText(err));
    } finally {
      answered();
    }
  }

  /** The action sent is answered: the buttons take clicks again. */
  function answered() {
    held.sending = false;
    play.removeAttribute('aria-busy');
  }

  /**
   * A refused action, in words; someone who moved first: the table as it is now, to choose again.
   * @param {string} code
   * @param {string} words
   */
  function refused(code, words) {
    errors.show(words);
    if (code === 'stale_state') refresh();
  }

  /** Reads the table again (after a refused stale action, or a missed update). */
  async function refresh() {
    try {
      render(/** @type {TableView} */ (await request('GET', `/api/tables/${encodeURIComponent(id)}`, undefined, held.token)));
    } catch {
      /* the WebSocket brings the next view */
    }
  }

  async function rematch() {
    try {
      const v = /** @type {TableView} */ (await request('POST', `/api/tables/${encodeURIComponent(id)}/rematch`, undefined, held.token));
      errors.show('');
      log.clear();
      render(v);
    } catch (err) {
      errors.show(errorText(err));
    }
  }

  /** @param {SubmitEvent} e */
  async function join(e) {
    e.preventDefault();
    const name = field('join-name').value.trim();
    if (!name) {
      showError($('join-error'), BLANK_NAME);
      return;
    }
    try {
      /** @type {JoinRequest} */
      const body = { name };
      const joined = /** @type {Joined} */ (await request('POST', `/api/tables/${encodeURIComponent(id)}/join`, body));
      saveName(name);
      saveSeat(id, joined.seat, joined.token);
      held.token = joined.token;
      $('join').hidden = true;
      render(joined.table);
      connect();
    } catch (err) {
      showError($('join-error'), errorText(err, { name: true }));
    }
  }

  function connect() {
    if (held.socket) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    // The token travels as a subprotocol, not in the URL (URLs end up in logs).
    const protocols = held.token ? ['tabletop', `bearer.${held.token}`] : [];
    const ws = new WebSocket(`${proto}://${location.host}/api/tables/${encodeURIComponent(id)}/ws`, protocols);
    held.socket = ws;
    setConnection(held.retry ? t('table.reconnecting') : t('table.connecting'));
    ws.addEventListener('open', () => {
      held.retry = 0;
      clearInterval(held.offlineTimer);
      setOffline(play, false);
      // A person who resigned watches on, and the page keeps saying why.
      setConnection(held.resigned ? t('resign.done') : '');
      // Whatever went wrong before the connection dropped is not news any more.
      errors.show('');
    });
    ws.addEventListener('message', (m) => {
      /** @type {(TableView & { type: 'state' }) | Update | SocketError | import('./protocol').PhraseSaid | { type: 'pong' }} the socket sends these */
      let msg;
      try {
        msg = JSON.parse(m.data);
      } catch {
        return;
      }
      if (msg.type === 'state') {
        answered();
        render(msg);
      } else if (msg.type === 'update') {
        answered();
        applyUpdate(msg);
      } else if (msg.type === 'phrase') {
        phrases.said(msg);
      } else if (msg.type === 'error') {
        answered();
        refused(msg.code, refusalText(msg.code, msg.message));
      }
    });
    ws.addEventListener('close', (ev) => {
      held.socket = null;
      answered();
      if (held.closedByUs) return;
      if (ev.code === 4001 && held.resigned) {
        // The seat is the bot's now: the page watches the rest of the game.
        forgetSeat(id);
        held.token = null;
        held.view = null;
        setConnection(t('resign.done'));
        connect();
        return;
      }
      if (ev.code === 4001) {
        setConnection(t('table.left'));
        forgetSeat(id);
        return;
      }
      // A dropped connection: try again, a little later each time, counting down; nothing can be
      // sent meanwhile (the buttons are off until the table is back).
      held.retry += 1;
      setOffline(play, true);
      const delay = Math.min(5000, 400 * 2 ** Math.min(held.retry, 4));
      const end = Date.now() + delay;
      const tick = () => {
        const left = Math.max(1, Math.ceil((end - Date.now()) / 1000));
        setConnection(t('table.dropped', { n: left }));
      };
      tick();
      clearInterval(held.offlineTimer);
      held.offlineTimer = setInterval(tick, 250);
      setTimeout(() => {
        clearInterval(held.offlineTimer);
        setConnection(t('table.reconnecting'));
        if (!held.socket) reconnectCheck();
      }, delay);
    });
  }

  /** Before reconnecting, make sure the seat still exists (a bad token goes back to joining). */
  async function reconnectCheck() {
    try {
      await request('GET', `/api/tables/${encodeURIComponent(id)}`, undefined, held.token);
      connect();
    } catch (err) {
      if (err instanceof ApiError && (err.status === 403 || err.status === 401)) {
        forgetSeat(id);
        held.token = null;
        setConnection(t('table.notYours'));
        offerSeat();
      } else if (err instanceof ApiError && err.status === 404) {
        await showGone();
      } else {
        connect();
      }
    }
  }

  /** @param {Update} u */
  function applyUpdate(u) {
    const merged = mergeUpdate(held.view, u);
    if (merged === 'shown') return;
    if (merged === 'gap') refresh();
    else render(merged);
  }

  /**
   * A person at a table of bots can bring a friend: a new table with the same rules, a seat for
   * a person in place of the first bot (the others stay), opened with its invite link. A table
   * in play takes nobody new, so it is a new table.
   * @param {TableView} v
   */
  function offerFriend(v) {
    const me = v.you;
    const seated = me !== null && me !== undefined;
    const bots = v.seats.filter((s) => s.kind === 'bot');
    const alone = seated && bots.length > 0 && v.seats.every((s, i) => i === me || s.kind === 'bot');
    $('with-friend').hidden = !alone || !v.view;
    if ($('with-friend').hidden) return;
    const n = names(v);
    $('with-friend-text').textContent =
      t('table.friend.about', { seat: n.seatName(bots[0].seat) });
  }

  async function openWithFriend() {
    const v = held.view;
    if (!v || !v.view || v.you === null || v.you === undefined) return;
    const me = v.you;
    const friend = v.seats.find((s) => s.kind === 'bot');
    /** @type {import('./protocol').SeatSpec[]} */
    const seats = v.seats.map((s) => (s.kind === 'bot' && s !== friend && s.bot ? { kind: 'bot', bot: s.bot } : { kind: 'human' }));
    const name = v.seats[me]?.name || savedName();
    /** @type {import('./protocol').CreateTable} */
    const body = { rules: v.view.rules, seats, creator_seat: me, name: name || undefined, spectators: v.spectators };
    if (v.turn_seconds) body.turn_seconds = v.turn_seconds;
    const button = /** @type {HTMLButtonElement} */ ($('with-friend-open'));
    button.disabled = true;
    try {
      const made = /** @type {import('./protocol').Created} */ (await request('POST', '/api/tables', body));
      if (made.token && made.seat !== null) saveSeat(made.id, made.seat, made.token);
      location.assign(`uno.html?table=${encodeURIComponent(made.id)}`);
    } catch (err) {
      showError($('with-friend-error'), errorText(err));
      button.disabled = false;
    }
  }

  /** @param {TableView} v */
  function render(v) {
    // Pushes and answers may cross: never go back to an older view.
    if (held.view && v.version < held.view.version && v.generation === held.view.generation) return;
    // A new view ends whatever motion the last one started: the page never lags behind the game.
    for (const a of document.getAnimations ? document.getAnimations() : []) if (a instanceof Animation && a.effect instanceof KeyframeEffect && a.effect.target) a.finish();
    const prev = held.view;
    const oldHand = prev && prev.view && v.view && prev.generation === v.generation ? (prev.view.hand || []).length : null;
    const hadFocus = document.activeElement;
    const focusInTable = !!hadFocus && play.contains(hadFocus);
    held.view = v;
    const n = names(v);
    const o = v.view;
    const turnKey = o ? `${v.generation}:${o.round}:${o.turns}:${o.current}:${o.phase.phase}` : `${v.generation}:waiting`;
    if (held.lastTurnKey !== null && turnKey !== held.lastTurnKey) errors.show('');
    held.lastTurnKey = turnKey;
    play.hidden = false;
    play.dataset.shown = 'true';
    $('join').hidden = true;
    const me = v.you;
    const seated = me !== null && me !== undefined;
    document.body.dataset.version = String(v.version);
    document.body.dataset.seat = seated ? String(me) : 'spectator';
    $('invite').hidden = !seated || !v.seats.some((s) => !s.taken);
    offerFriend(v);
    showStartedFrom(v);

    // Whose turn: nobody's before the deal.
    let turn;
    if (v.status === 'waiting') {
      const open = v.seats.filter((s) => !s.taken).length;
      turn = t('table.waiting', { n: open });
    } else if (!o || o.phase.phase === 'game_over') {
      turn = t('table.gameOver');
    } else if (o.phase.phase === 'round_over') {
      turn = t('table.roundOver');
    } else if (o.current === me) {
      turn = t('table.yourTurn', { phase: phaseWords(o.phase) });
    } else {
      turn = t('table.theirTurn', { name: n.seatName(o.current), phase: phaseWords(o.phase) });
    }
    if (!seated) turn = t('table.watching', { turn });
    $('turn').textContent = turn;
    // The tab title tells a player in another tab that it is their move.
    const playing = !!o && v.status === 'playing' && !['round_over', 'game_over'].includes(o.phase.phase);
    const mine = seated && !!o && o.current === me && playing;
    const name = tableName(v);
    $('page-title').textContent = `UNO · ${name}`;
    document.title = `${mine ? t('table.tabYourTurn') : ''}UNO · ${name} · tabletop`;
    document.body.dataset.myTurn = String(mine);
    turnChanged(mine);
    table.players(
      v.seats.map((s, i) => ({
        name: n.seatName(i),
        cards: o ? o.hand_sizes[i] : null,
        current: !!o && o.current === i && playing,
        me: me === i,
        uno: !!o && o.uno_called[i],
        tags: seatTags(s),
        after: profileLink(s),
      })),
      o ? o.direction : null,
    );
    for (const ev of v.events || []) {
      if (ev.event.type === 'card_played') held.topBy = ev.event.seat;
      if (ev.event.type === 'round_started' || ev.event.type === 'start_card') held.topBy = null;
    }
    // After a first-card wild nobody has chosen yet, the colour is null.
    table.pile(
      o && {
        top: o.top,
        color: o.color,
        undecided: t('pile.undecided', { who: o.current === me ? t('pile.youChoose') : t('pile.theyChoose', { name: n.who(o.current) }) }),
        drawPile: o.draw_pile_size,
        pendingDraw: o.pending_draw,
        by: held.topBy === null ? t('pile.first') : t('pile.by', { name: n.who(held.topBy) }),
      },
    );
    clock.render(v, n);
    phrases.render(v, n);
    const inPlay = seated && v.status !== 'finished' && !!o && o.phase.phase !== 'game_over';
    $('resign-box').hidden = !inPlay;
    if (!inPlay) $('resign-confirm').hidden = true;
    hand.render(v, n);
    actions.render(v, n);
    scores.render(v, n);
    roundEnd.render(v, n);
    animate(v, prev, oldHand, table, hand);
    // Redrawing replaced or hid the focused button: keep the keyboard near the hand, not on the body.
    const lost = !hadFocus || !hadFocus.isConnected || hadFocus.getClientRects().length === 0 || document.activeElement === document.body;
    if (focusInTable && lost && seated) keepFocus();
    // The log: every view carries events (recent ones on a full state, the change's on an
    // update or an answer); each is logged once.
    for (const ev of v.events || []) log.add(ev, n.eventWords(ev));
  }

  /**
   * The table is not on the server: no form to join and nothing to play, but what became of it.
   * A table whose game is kept (it finished) offers its replay; one this browser sat at ended;
   * of one it never knew, the server holds nothing (a wrong link, or one cleared long ago).
   */
  async function showGone() {
    const hadSeat = savedSeat(id) !== null;
    forgetSeat(id);
    held.token = null;
    for (const part of ['join', 'invite', 'play']) $(part).hidden = true;
    setConnection('');
    let kept = false;
    try {
      await request('GET', `/api/games/${encodeURIComponent(id)}/replay?view=all&ply=0`);
      kept = true;
    } catch {
      /* no game of it is kept */
    }
    const title = kept || hadSeat ? t('table.gone.ended') : t('table.gone.none');
    $('gone-title').textContent = title;
    $('page-title').textContent = 'UNO';
    document.title = `${title} · UNO · tabletop`;
    $('gone-text').textContent = kept
      ? t('table.gone.kept')
      : hadSeat
        ? t('table.gone.cleared')
        : t('table.gone.wrong');
    $('gone-replay').hidden = !kept;
    /** @type {HTMLAnchorElement} */ ($('gone-replay-link')).href = `replay.html?${new URLSearchParams({ game: id, view: 'all', ply: '0' })}`;
    $('gone').hidden = false;
  }

  /** No seat yet: read the table to offer a seat (or watching). */
  async function offerSeat() {
    try {
      const v = /** @type {TableView} */ (await request('GET', `/api/tables/${encodeURIComponent(id)}`));
      const open = v.seats.some((s) => !s.taken);
      $('join').hidden = false;
      $('join-button').hidden = !open;
      $('join-title').textContent = open ? t('table.join') : t('table.full');
      showStartedFrom(v);
      document.getElementById('join-seed')?.remove(); // not $(): absent until a chosen seed is noted
      if (v.chosen_seed) {
        const note = el('p', { id: 'join-seed', class: 'hint' }, t('table.beforeSit', { what: CHOSEN_SEED }));
        $('join-title').after(note);
      }
      field('join-name').value = savedName();
      field('join-name').required = open;
      const nameLabel = $('join-name').parentElement;
      if (nameLabel) nameLabel.hidden = !open;
      $('watch-button').hidden = !v.spectators;
      // Whoever opens an invite link is invited: inviting is for those seated.
      $('invite').hidden = true;
      const name = tableName(v);
      $('page-title').textContent = `UNO · ${name}`;
      document.title = `UNO · ${name} · tabletop`;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        await showGone();
        return;
      }
      $('join').hidden = false;
      $('join-button').hidden = true;
      $('watch-button').hidden = true;
      showError($('join-error'), errorText(err));
    }
  }

  $('table').hidden = false;
  // Named for people once the table is read (its host's name), never by its id.
  $('page-title').textContent = t('table.title');
  document.title = `${t('table.title')} · tabletop`;
  const invite = /** @type {HTMLInputElement} */ ($('invite-link'));
  invite.value = new URL(`uno.html?table=${encodeURIComponent(id)}`, location.href).href;
  $('copy-invite').addEventListener('click', () => copyInvite(invite));
  $('with-friend-open').addEventListener('click', openWithFriend);
  $('join-form').addEventListener('submit', join);
  $('watch-button').addEventListener('click', () => {
    $('join').hidden = true;
    connect();
  });
  setupTurnSound($('turn-sound'));
  $('resign').addEventListener('click', () => {
    $('resign-confirm').hidden = false;
    $('resign-no').focus();
  });
  $('resign-no').addEventListener('click', () => {
    $('resign-confirm').hidden = true;
  });
  $('resign-yes').addEventListener('click', resign);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && picker.cancellable()) {
      e.preventDefault();
      picker.close();
    }
  });
  window.addEventListener('pagehide', () => {
    held.closedByUs = true;
    if (held.socket) held.socket.close();
  });

  const saved = savedSeat(id);
  if (saved) {
    held.token = saved.token;
    connect();
    return Promise.resolve();
  }
  // From the lobby's games to watch: watching in one click.
  if (new URLSearchParams(location.search).has('watch')) {
    connect();
    return Promise.resolve();
  }
  return offerSeat();
}

// ---------------------------------------------------------------- start

async function init() {
  const id = new URLSearchParams(location.search).get('table');
  if (id) await openTable(id);
  else await showLobby();
}

init().then(() => {
  document.body.dataset.ready = 'true';
});
