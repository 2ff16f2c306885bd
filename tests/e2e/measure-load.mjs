// The lobby's first load, measured in Chromium against the real server: every request the page
// makes, the bytes each brought over the wire (headers and body, as sent: compressed or not),
// and the same for a second visit in the same browser, whose cache then holds what the first
// one was allowed to keep. docs/pages.md ("Fast pages") has the figures.
//
//   TABLETOP_BIN=target/debug/tabletop [LOCALE=ja-JP] node tests/e2e/measure-load.mjs [PAGE]
//
// PAGE defaults to /uno.html (the lobby); LOCALE, the browser's language, to Chromium's own
// (en-US). Not a test: it prints what it measured.
import { launchBrowser, startServer } from './harness.mjs';

const page = process.argv[2] || '/uno.html';

/** Loads `path` in `tab` and returns its requests: url, status, bytes, from the cache or not. */
async function visit(tab, base, path) {
  const cdp = await tab.context().newCDPSession(tab);
  await cdp.send('Network.enable');
  // The browser's own cache stays on (the point of the second visit).
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { url: e.request.url, status: 0, bytes: 0, cached: false, encoding: '' });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    r.cached ||= Boolean(e.response.fromDiskCache || e.response.fromMemoryCache);
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    r.encoding = headers['content-encoding'] || '';
  });
  // The status as sent: a revalidated copy is reported above as the cached 200, here as the 304.
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.wire = e.statusCode;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  await tab.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  await cdp.detach();
  return [...requests.values()];
}

function summary(name, requests) {
  const sent = requests.filter((r) => !r.cached);
  const bytes = sent.reduce((n, r) => n + r.bytes, 0);
  const notModified = sent.filter((r) => (r.wire || r.status) === 304).length;
  const encodings = [...new Set(sent.map((r) => r.encoding).filter(Boolean))].join(', ') || 'none';
  console.log(
    `${name}: ${requests.length} requests, ${sent.length} sent to the server (${notModified} answered 304), ` +
      `${requests.length - sent.length} from the cache; ${bytes} bytes over the wire; content encodings: ${encodings}`,
  );
  for (const r of requests) {
    const where = r.cached ? 'cache' : String(r.wire || r.status);
    console.log(`  ${where.padEnd(5)} ${String(r.bytes).padStart(7)}  ${r.encoding.padEnd(4)} ${new URL(r.url).pathname}`);
  }
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const context = await browser.newContext(process.env.LOCALE ? { locale: process.env.LOCALE } : {});
  const first = await visit(await context.newPage(), server.base, page);
  summary(`first visit of ${page}`, first);
  const second = await visit(await context.newPage(), server.base, page);
  summary(`second visit of ${page} (same browser)`, second);
} finally {
  await browser.close();
  await server.stop();
}
