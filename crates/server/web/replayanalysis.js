// @ts-check
// The replay page's analysis panel: asks the server to value one seat's decisions
// (`GET /api/games/{id}/analysis`, by playouts or, quicker, by the value network:
// `method=value`), then shows the summary, the graph (analysisgraph.js) and the decision of the
// shown position with every legal move, as the server valued them, and says which method the
// server named in its answer.
import { capitalize, el, request } from './api.js';
import { bindGraphKeys, markShown, renderGraph } from './analysisgraph.js';
import { errorText } from './refusals.js';
import { cardWords } from './unocards.js';

/** @typedef {import('./analysisgraph.js').Decision} Decision */
/** @typedef {import('./protocol').AnalysisAnswer} Analysis the server's answer */
/** @typedef {import('./protocol').AnalysisMethod} Method */
/**
 * What the panel needs of the page.
 * @typedef {object} Host
 * @property {string} id the table
 * @property {string | null} g which kept game, or null
 * @property {() => number} ply the shown position
 * @property {() => number | null} seat the seat seen by, or null
 * @property {() => boolean} live
 * @property {(i: number) => string} seatName
 * @property {(ply: number) => void} go
 * @property {() => void} changed the analysis shown changed (the timeline marks its mistakes)
 */

/** @param {number} x */
export const pct = (x) => `${(100 * x).toFixed(1)}%`;
/** @param {number} x */
export const points = (x) => (100 * x).toFixed(1);
/** @param {number} x */
const signed = (x) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${points(Math.abs(x))}`;
/** @param {unknown} a @param {unknown} b */
const sameAction = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** @param {Decision} d */
const chosenValue = (d) => d.values.find((v) => sameAction(v.action, d.chosen));

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** How each method is named where an analysis is shown (the answer's `method` picks one). */
const BY = {
  playouts: {
    name: 'playouts',
    graph: 'by playouts (rounds played out by bots in worlds sampled from what the seat knew)',
    worlds: (/** @type {number} */ n) => `${n} sampled worlds each; 95% intervals`,
  },
  value: {
    name: 'the value network',
    graph: 'by the value network (a learned estimate: quick, a few points from the playouts)',
    worlds: (/** @type {number} */ n) => `the value network's estimate; intervals over the cards a draw could bring, up to ${n} worlds`,
  },
};

/**
 * @param {Host} host
 */
export function analysisPanel(host) {
  /** Analyses fetched, by `seat/method/samples`. */
  /** @type {Map<string, Analysis>} */
  const fetched = new Map();
  /** The method and samples last asked for: another seat is shown its analysis by these. */
  let asked = { method: /** @type {Method} */ ('playouts'), samples: '' };
  /** @param {number | null} seat */
  const keyOf = (seat) => `${seat}/${asked.method}/${asked.samples}`;
  /** @type {Analysis | null} the analysis shown: of the seat seen by */
  let shown = null;
  /** @type {Analysis | null} the analysis the graph was drawn for */
  let drawn = null;

  /**
   * A legal move as an option ("play Blue 7 and choose red"), where the timeline tells what a
   * seat did.
   * @param {any} a
   */
  function optionWords(a) {
    switch (a.type) {
      case 'play':
        return `play ${cardWords(a.card)}${a.color ? ` and choose ${a.color}` : ''}`;
      case 'draw':
        return 'draw';
      case 'pass':
        return 'keep the card and pass';
      case 'declare_color':
        return `choose ${a.color}`;
      case 'challenge':
        return 'challenge the Wild Draw Four';
      case 'accept':
        return 'take the Wild Draw Four';
      case 'swap_hands':
        return `swap hands with ${host.seatName(a.with)}`;
      case 'call_uno':
        return 'call UNO';
      case 'catch_uno':
        return `catch ${host.seatName(a.seat)}`;
      default:
        return String(a.type);
    }
  }

  /**
   * Asks the server for the analysis of the seat seen by (once per seat, method and sample
   * count): by playouts with the chosen worlds per move, or by the value network (the server's
   * own number of worlds).
   * @param {Method} method
   */
  async function analyse(method) {
    const seat = host.seat();
    if (seat === null) return;
    const samples = method === 'playouts' ? /** @type {HTMLSelectElement} */ ($('samples')).value : '';
    asked = { method, samples };
    const key = keyOf(seat);
    const buttons = [$('analyse'), $('analyse-value')].map((b) => /** @type {HTMLButtonElement} */ (b));
    for (const b of buttons) b.disabled = true;
    $('analysis-status').textContent =
      method === 'playouts'
        ? `Analysing ${host.seatName(seat)}'s decisions with ${samples} worlds per move…`
        : `Analysing ${host.seatName(seat)}'s decisions with the value network…`;
    try {
      if (!fetched.has(key)) {
        const q = new URLSearchParams({ seat: String(seat) });
        if (samples) q.set('samples', samples);
        if (method !== 'playouts') q.set('method', method);
        if (host.g !== null) q.set('game', host.g);
        fetched.set(key, /** @type {Analysis} */ (await request('GET', `/api/games/${encodeURIComponent(host.id)}/analysis?${q}`)));
      }
      if (host.seat() !== seat) return;
      const a = fetched.get(key);
      if (!a) return;
      shown = a;
      const took = a.cached ? 'made earlier' : a.ms < 1000 ? `took ${a.ms} ms` : `took ${(a.ms / 1000).toFixed(1)} s`;
      const how = a.method === 'playouts' ? `by playouts, ${a.samples} worlds per move` : `by ${BY[a.method].name}`;
      $('analysis-status').textContent = `Analysis of ${host.seatName(seat)} ready (${how}; ${took}).`;
      host.changed();
      render();
    } catch (err) {
      $('analysis-status').textContent = errorText(err, { game: true });
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  }

  /** The decision of the move that led to the shown position, or else the one to take in it.
   * @param {Analysis} a */
  function shownDecision(a) {
    const ply = host.ply();
    return a.decisions.find((d) => d.ply + 1 === ply) || a.decisions.find((d) => d.ply === ply) || null;
  }

  /** @param {Analysis} a */
  function renderDecision(a) {
    const d = shownDecision(a);
    if (!d) {
      return el('p', { class: 'hint' }, `${host.seatName(a.seat)} had no choice to make here. Step to one of its moves, or select a point of the graph.`);
    }
    const best = d.values[0];
    const chosen = chosenValue(d);
    const verdict =
      d.loss > 0
        ? `The best was to ${optionWords(best.action)} (${pct(best.win)}): the win chance ${points(d.loss)}% lower${d.mistake ? ', a mistake' : ''}.`
        : 'That was the best move.';
    const rows = d.values.map((v) =>
      el(
        'tr',
        { class: sameAction(v.action, d.chosen) ? 'chosen' : '' },
        el('td', {}, capitalize(optionWords(v.action)), sameAction(v.action, d.chosen) ? ' (chosen)' : ''),
        el('td', {}, pct(v.win)),
        el('td', {}, `${pct(v.ci95[0])} – ${pct(v.ci95[1])}`),
      ),
    );
    return el(
      'div',
      { dataset: { decision: d.ply } },
      el('p', {}, `Action ${d.ply + 1} (round ${d.round}, turn ${d.turn}): ${host.seatName(a.seat)} chose to ${optionWords(d.chosen)}, ${chosen ? pct(chosen.win) : '-'} to win the round. ${verdict}`),
      el(
        'table',
        { class: 'analysis-moves' },
        el('caption', {}, `Every legal move, best first, valued by ${BY[a.method].name} (${BY[a.method].worlds(a.samples)})`),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Move'), el('th', { scope: 'col' }, 'Win chance'), el('th', { scope: 'col' }, 'Interval'))),
        el('tbody', {}, ...rows),
      ),
    );
  }

  /** The panel: offered for a seat of a finished game; filled once analysed. The graph is drawn
   * once per analysis (a focused point keeps its focus while the replay steps). */
  function render() {
    $('analysis-section').hidden = host.live() || host.seat() === null;
    const a = shown;
    $('analysis-result').hidden = !a;
    if (!a) return;
    const mistakes = a.decisions.filter((d) => d.mistake).length;
    $('analysis-method').textContent = BY[a.method].graph;
    $('analysis-result').dataset.method = a.method;
    $('analysis-summary').textContent =
      `By ${BY[a.method].name}: ${a.decisions.length} decisions, ${mistakes} mistake${mistakes === 1 ? '' : 's'} (a choice whose win chance is at least ${points(a.mistake_threshold)}% below the best's, clear of the noise). ` +
      `Win chance from skill ${signed(a.skill)}% (${host.seatName(a.seat)}'s own choices), from luck ${signed(a.luck)}% (the cards and the others' play).`;
    if (drawn !== a) {
      const words = (/** @type {Decision} */ d, /** @type {number} */ win) =>
        `Action ${d.ply + 1}: ${optionWords(d.chosen)}, ${pct(win)} to win${d.mistake ? ' (a mistake)' : ''}`;
      $('analysis-graph').replaceChildren(renderGraph(a, words, (d) => chosenValue(d)?.win ?? 0, BY[a.method].graph));
      drawn = a;
    }
    const d = shownDecision(a);
    markShown(/** @type {Element} */ ($('analysis-graph').firstElementChild), d ? a.decisions.indexOf(d) : null);
    $('analysis-decision').replaceChildren(renderDecision(a));
  }

  /** The seat seen by changed: its analysis, if fetched already. */
  function seatChanged() {
    shown = fetched.get(keyOf(host.seat())) || null;
    $('analysis-status').textContent = '';
  }

  $('analyse').addEventListener('click', () => analyse('playouts'));
  $('analyse-value').addEventListener('click', () => analyse('value'));
  $('analysis-graph').addEventListener('click', (e) => {
    const p = e.target instanceof Element && e.target.closest('[data-ply]');
    if (p instanceof SVGElement) host.go(Number(p.dataset.ply));
  });
  bindGraphKeys($('analysis-graph'), host.go);

  return { render, seatChanged, current: () => shown };
}
