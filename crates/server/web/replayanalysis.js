// @ts-check
// The replay page's analysis panel: asks the server to value one seat's decisions
// (`GET /api/games/{id}/analysis`, by playouts or, quicker, by the value network:
// `method=value`), then shows the summary, the graph (analysisgraph.js) and the decision of the
// shown position with every legal move, as the server valued them, and says which method the
// server named in its answer.
import { $, capitalize, el, request } from './api.js';
import { bindGraphKeys, markShown, renderGraph } from './analysisgraph.js';
import { errorText } from './refusals.js';
import { t } from './i18n.js';
import { cardWords, colorWords } from './unocards.js';

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


/** How each method is named where an analysis is shown (the answer's `method` picks one). */
const BY = {
  playouts: {
    name: t('an.by.playouts'),
    graph: t('an.graph.playouts'),
    worlds: (/** @type {number} */ n) => t('an.worlds.playouts', { n }),
  },
  value: {
    name: t('an.by.value'),
    graph: t('an.graph.value'),
    worlds: (/** @type {number} */ n) => t('an.worlds.value', { n }),
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
        return a.color ? t('an.opt.playColor', { card: cardWords(a.card), color: colorWords(a.color) }) : t('an.opt.play', { card: cardWords(a.card) });
      case 'draw':
        return t('an.opt.draw');
      case 'pass':
        return t('an.opt.pass');
      case 'declare_color':
        return t('an.opt.color', { color: colorWords(a.color) });
      case 'challenge':
        return t('an.opt.challenge');
      case 'accept':
        return t('an.opt.accept');
      case 'swap_hands':
        return t('an.opt.swap', { name: host.seatName(a.with) });
      case 'call_uno':
        return t('an.opt.uno');
      case 'catch_uno':
        return t('an.opt.catch', { name: host.seatName(a.seat) });
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
        ? t('an.running', { name: host.seatName(seat), n: samples })
        : t('an.running.value', { name: host.seatName(seat) });
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
      const took = a.cached ? t('an.earlier') : t('an.took', { t: a.ms < 1000 ? `${a.ms} ms` : `${(a.ms / 1000).toFixed(1)} s` });
      const how = a.method === 'playouts' ? t('an.how.playouts', { n: a.samples }) : t('an.how.by', { name: BY[a.method].name });
      $('analysis-status').textContent = t('an.ready', { name: host.seatName(seat), how, took });
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
      return el('p', { class: 'hint' }, t('an.noChoice', { name: host.seatName(a.seat) }));
    }
    const best = d.values[0];
    const chosen = chosenValue(d);
    const verdict =
      d.loss > 0
        ? t('an.best', { what: optionWords(best.action), win: pct(best.win), loss: points(d.loss), mistake: d.mistake ? t('an.aMistake') : '' })
        : t('an.bestMove');
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
      el('p', {}, t('an.decision', { ply: d.ply + 1, round: d.round, turn: d.turn, name: host.seatName(a.seat), what: optionWords(d.chosen), win: chosen ? pct(chosen.win) : '-', verdict })),
      el(
        'table',
        { class: 'analysis-moves' },
        el('caption', {}, t('an.table', { by: BY[a.method].name, worlds: BY[a.method].worlds(a.samples) })),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('an.col.move')), el('th', { scope: 'col' }, t('an.col.win')), el('th', { scope: 'col' }, t('an.col.interval')))),
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
    const rounds = a.rounds.length === 1 ? t('an.theRound') : t('an.rounds', { n: a.rounds.length });
    $('analysis-method').textContent = BY[a.method].graph;
    $('analysis-result').dataset.method = a.method;
    $('analysis-summary').textContent =
      t('an.summary1', { by: BY[a.method].name, n: a.decisions.length, mistakes: t('an.mistakes', { n: mistakes }), threshold: points(a.mistake_threshold) }) +
      t('an.summary2', { skill: signed(a.skill), name: host.seatName(a.seat), rounds, luck: signed(a.luck) });
    if (drawn !== a) {
      const words = (/** @type {Decision} */ d, /** @type {number} */ win) =>
        t('an.point', { ply: d.ply + 1, what: optionWords(d.chosen), win: pct(win), mistake: d.mistake ? t('an.point.mistake') : '' });
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
