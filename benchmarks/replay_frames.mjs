// The replay route's speed: four heuristic bots play a 500-point game on a running server, then
// the replay page's requests are timed: the first frame with the timeline, and one frame per
// step to the end (seat 1's view). Usage (Node 20+):
//   tabletop serve --addr 127.0.0.1:18931 --db /tmp/bench.db --bot-delay-ms 0 &
//   node benchmarks/replay_frames.mjs http://127.0.0.1:18931
const base = process.argv[2] || 'http://127.0.0.1:8080';
const json = async (path, init) => (await fetch(base + path, init)).json();
const created = await json('/api/tables', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ preset: 'official', seed: 11, seats: Array(4).fill({ kind: 'bot', bot: 'heuristic' }) }),
});
for (;;) {
  const t = await json(`/api/tables/${created.id}`);
  if (t.status === 'finished') break;
  await new Promise((r) => setTimeout(r, 200));
}
const id = created.id;
let t0 = performance.now();
const first = await json(`/api/games/${id}/replay?view=seat1&ply=0&timeline=true`);
const firstMs = performance.now() - t0;
const n = first.plies;
const steps = [];
for (let k = 1; k <= n; k += 1) {
  t0 = performance.now();
  await json(`/api/games/${id}/replay?view=seat1&ply=${k}`);
  steps.push(performance.now() - t0);
}
steps.sort((a, b) => a - b);
const ms = (x) => Number(x.toFixed(2));
console.log(
  JSON.stringify({
    plies: n,
    first_frame_with_timeline_ms: ms(firstMs),
    step_mean_ms: ms(steps.reduce((a, b) => a + b, 0) / n),
    step_median_ms: ms(steps[n >> 1]),
    step_p95_ms: ms(steps[Math.floor(n * 0.95)]),
    step_max_ms: ms(steps[n - 1]),
  }),
);
