// The end-to-end tests' fixture, the one harness of every tests/e2e/*.test.mjs: the built dist/
// served on 127.0.0.1, headless Chromium driven by playwright-core (Debian's /usr/bin/chromium;
// never a downloaded browser), `open` for a page that records its problems, the readers of
// `window.peLab`, screenshots, pixels and axe-core. A file calls `setUp()` once at its top.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { panelList } from '../../scripts/page/panel-list.mjs';
import { serve } from './serve.mjs';

// The lesson's sections in page order: the one list of panels (model::panels), as the page is
// assembled from it.
export const LESSON = panelList().map((panel) => panel.name);

export const DIST = process.env.PE_LAB_DIST || 'dist';
export const SCREENSHOTS = process.env.PE_LAB_SCREENSHOTS || 'tests/e2e/screenshots';
mkdirSync(SCREENSHOTS, { recursive: true });

// The flag set that gives headless Chromium a software WebGPU adapter (docs/TOOLCHAIN.md).
export const WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];
const QUIET_FLAGS = [
  '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export async function startServer() {
  const server = await serve(DIST, 0);
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

export async function launch({ webgpu = false } = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    // Playwright gives every launch a fresh, empty profile directory itself.
    args: [...QUIET_FLAGS, ...(webgpu ? WEBGPU_FLAGS : [])],
  });
}

// The fixture of a test file. Every file runs in its own process (node --test), so these are the
// file's own: one server and one browser for all its tests, started before the first test and
// closed after the last. `origin` and `browser` are live bindings, set once `setUp`'s hook ran.
export let origin;
export let browser;
let server;
let defaults = {};
// Browsers other than the file's own, launched on first use (see `open`'s `webgpu`).
const others = new Map();

/**
 * Registers the file's before/after hooks: the built page served on 127.0.0.1 and one headless
 * Chromium. `webgpu` gives that browser SwiftShader's WebGPU adapter; without it, pages that ask
 * for `compute=gpu` still get a browser with WebGPU (launched on first use), and the others are
 * spared SwiftShader's Vulkan, through which that browser also composites every page (a
 * `compute=cpu` page took about twice as long to open and draw there). The other options (`size`
 * and `open`'s options) are the file's defaults for `open`.
 */
export function setUp({ webgpu = false, ...openDefaults } = {}) {
  defaults = openDefaults;
  before(async () => {
    ({ server, origin } = await startServer());
    browser = await launch({ webgpu });
    others.set(webgpu, Promise.resolve(browser));
  });
  after(async () => {
    for (const launched of others.values()) await (await launched.catch(() => null))?.close();
    server?.close();
  });
}

/** The page's URL with `query` (keys joined by `&`; a stray leading or doubled `&` is dropped),
 *  computed on the CPU unless the query names `compute`, and an optional `#hash`. */
export function at(query = '', hash = '') {
  const keys = query.replace(/^\?/, '').split('&').filter(Boolean);
  if (!keys.some((key) => key.startsWith('compute='))) keys.unshift('compute=cpu');
  return `${origin}/?${keys.join('&')}${hash}`;
}

/**
 * Opens a page (in its own browser context) at `target`, a query for `at` or a whole URL, in a
 * window of `size` [width, height] (tall enough by default that every panel is on screen:
 * off-screen panels are only drawn once scrolled to). It records `problems` (page errors, console
 * errors, HTTP errors, failed requests: they must stay empty for a test to pass) and every
 * request's URL, then waits for `peLab.ready` and, with `drawn`, for the first frame. Options:
 *   scale: the device pixel ratio;
 *   ready: false waits for the navigation alone (a page without the app, or before it starts);
 *   holdWasm: the page as painted before the wasm starts: the wasm's request is answered only once
 *     the returned `release()` is called (implies ready: false);
 *   html: written into a blank page instead of navigating to `target`;
 *   init: a function run in the page before its own scripts;
 *   scrollTo: a selector brought into view and drawn before returning;
 *   waitUntil: the navigation's end ('load' by default, Playwright's names);
 *   webgpu: open it in a browser with (true) or without (false) WebGPU instead of the file's own
 *     (a URL with `compute=gpu` gets one with WebGPU by default);
 *   browser: another browser (for scripts outside node --test);
 *   any other option is a Playwright context option (colorScheme, permissions, …).
 */
export async function open(target = '', size = undefined, options = {}) {
  const { size: defaultSize = [1400, 9000], ...defaultOptions } = defaults;
  const {
    scale = 1, ready = true, drawn: waitDrawn = false, holdWasm, html, init, scrollTo, waitUntil,
    webgpu, browser: within, ...contextOptions
  } = { ...defaultOptions, ...options };
  const [width, height] = size ?? defaultSize;
  const url = /^[a-z]+:/.test(target) ? target : at(target);
  // A page asked to compute on the GPU gets a browser with WebGPU unless the test says otherwise.
  const withWebgpu = webgpu ?? (/[?&]compute=gpu(&|#|$)/.test(url) || undefined);
  // The page's service worker (scripts/offline/) fetches and hash-checks every file of the site a
  // few seconds after the page starts: offline.test.mjs tests it; elsewhere it would only load the
  // machine under the test (a timed update at the largest sizes saw it).
  const page = await (within ?? await browserFor(withWebgpu)).newPage({
    viewport: { width, height }, deviceScaleFactor: scale, serviceWorkers: 'block', ...contextOptions,
  });
  // Waits are for conditions, never for a time: on a 2-core machine running two files side by
  // side (SwiftShader's WebGPU among them), Playwright's default of 30 s has run out.
  page.setDefaultTimeout(90_000);
  const problems = [];
  const requests = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => requests.push(r.url()));
  if (init) await page.addInitScript(init);
  let release;
  if (holdWasm) {
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  }
  if (html !== undefined) await page.setContent(html);
  else await page.goto(url, waitUntil && { waitUntil });
  const opened = { page, context: page.context(), problems, requests, release };
  if (!ready || holdWasm || html !== undefined) return opened;
  await page.evaluate(() => window.peLab.ready);
  if (scrollTo) await page.locator(scrollTo).scrollIntoViewIfNeeded();
  if (waitDrawn || scrollTo) await drawn(page);
  return opened;
}

function browserFor(webgpu) {
  if (webgpu === undefined) return browser;
  if (!others.has(webgpu)) others.set(webgpu, launch({ webgpu }));
  return others.get(webgpu);
}

/**
 * The files of dist/ a page fetched (`open`'s `requests`; query strings ignored, a directory read
 * as its index.html), each with its gzip -9 size: what a first load costs.
 */
export function gzippedBytes(requests) {
  const files = [...new Set(requests.filter((u) => u.startsWith(origin)).map((u) => {
    const path = new URL(u).pathname;
    return path.endsWith('/') ? `${path}index.html` : path;
  }))];
  return files.map((path) => ({ path, gzip: gzipSync(readFileSync(join(DIST, path)), { level: 9 }).length }));
}

// Readers of the page's state, shared by every file.
export const drawn = (page) => page.evaluate(() => window.peLab.whenDrawn());
export const state = (page) => page.evaluate(() => window.peLab.state);
export const stats = (page) => page.evaluate(() => window.peLab.stats);
export const panels = (page) => page.evaluate(() => window.peLab.stats.panels);
export const lesson = (page) => page.evaluate(() => window.peLab.lesson);
export const text = (page, id) => page.locator(`#${id}`).textContent();

/** Waits until what came on screen is drawn: the panels' intersection observer reports in the
 *  next rendering step, then `whenDrawn` waits for the frame that draws them. */
export async function settle(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await drawn(page);
}

/** Scrolls `selector` into view and waits until it is drawn. */
export async function showAndDraw(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await settle(page);
}

/** Records the page's layout shifts from its first paint on (an `init` for `open`); `cls` sums them. */
export function recordLayoutShifts() {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) window.__shifts.push(entry.value);
    }
  }).observe({ type: 'layout-shift', buffered: true });
}
/** The sum of the layout shifts so far (Chromium's cumulative layout shift, one session). */
export const cls = (page) => page.evaluate(() => window.__shifts.reduce((a, b) => a + b, 0));

/** A screenshot of the whole page (`fullPage: false`: of the window) in SCREENSHOTS. */
export async function screenshot(page, name, { fullPage = true } = {}) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** A screenshot of the element `selector` alone in SCREENSHOTS. */
export async function screenshotOf(page, selector, name) {
  await page.locator(selector).screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

// axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA, and its best practices.
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** axe-core's violations of the page as it is now. */
export async function axeViolations(page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(
    (values) => window.axe.run(document, { runOnly: { type: 'tag', values } }),
    AXE_TAGS,
  );
  return result.violations;
}

/** Distinct colours and the fraction of non-white pixels of a canvas. */
export function canvasInk(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let ink = 0;
    for (let k = 0; k < data.length; k += 4) {
      colours.add((data[k] << 16) | (data[k + 1] << 8) | data[k + 2]);
      if (data[k] < 240 || data[k + 1] < 240 || data[k + 2] < 240) ink += 1;
    }
    return { colours: colours.size, ink: ink / (data.length / 4) };
  }, id);
}

/**
 * The RGBA bytes of a canvas, or of `rect` ([x0, y0, x1, y1]) of it, as a Buffer. They come back
 * as base64: Playwright takes tens of seconds to hand over an array of millions of numbers, and a
 * fraction of one for a string of the same bytes.
 */
export async function canvasBytes(page, id, rect = null) {
  const b64 = await page.evaluate(([id, rect]) => {
    const c = document.getElementById(id);
    const [x0, y0, x1, y1] = rect ?? [0, 0, c.width, c.height];
    const bytes = c.getContext('2d').getImageData(x0, y0, x1 - x0, y1 - y0).data;
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }, [id, rect]);
  return Buffer.from(b64, 'base64');
}

/** The RGB of the centre of cell (row, column) of the heatmap, located by `stats.heatmapImage`. */
export function heatmapCell(page, row, column) {
  return page.evaluate(([row, column]) => {
    const [x0, y0, x1, y1] = window.peLab.stats.heatmapImage;
    const { rows, columns } = window.peLab.stats;
    const x = Math.floor(x0 + (column + 0.5) * (x1 - x0) / columns);
    const y = Math.floor(y0 + (row + 0.5) * (y1 - y0) / rows);
    const c = document.getElementById('heatmap');
    return Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
  }, [row, column]);
}

/** Waits until the address bar carries `key=value`. */
export async function waitForUrlParam(page, key, value) {
  await page.waitForFunction(([k, v]) => new URL(location.href).searchParams.get(k) === v, [key, value], { timeout: 5000 });
}

/** The attention panels' canvases, in page order. */
export const PANEL_CANVASES = [
  'attn-heatmap', 'pipeline-canvas', 'heads-canvas', 'order-chart', 'sim-heatmap', 'sim-curve',
  'sim-norm', 'binary-bits', 'binary-p', 'complexity-chart', 'complexity-paths', 'scale-chart',
  'scale-dots',
];

/** Scrolls to each canvas (panels off screen are drawn once they come into view) and checks ink,
 *  waiting up to `tries` × 100 ms for each. */
export async function assertCanvasesDrawn(page, ids = PANEL_CANVASES, { tries = 100, label = 'canvas' } = {}) {
  for (const id of ids) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    let ink;
    for (let k = 0; k < tries; k += 1) {
      ink = await canvasInk(page, id);
      if (ink.colours > 3 && ink.ink > 0.002) break;
      await page.waitForTimeout(100);
    }
    assert.ok(ink.colours > 3 && ink.ink > 0.002, `${label} #${id} looks blank: ${JSON.stringify(ink)}`);
  }
}

/** Sets a number field and commits it (Enter fires `change`). */
/**
 * Opens the closed disclosures around element `id` as a reader does (a click on their summary):
 * a panel keeps its further settings behind "More settings".
 */
export async function reveal(page, id) {
  const closed = await page.evaluate((id) => {
    const out = [];
    for (let at = document.getElementById(id)?.parentElement; at; at = at.parentElement) {
      if (at.tagName === 'DETAILS' && !at.open && at.id) out.unshift(at.id);
    }
    return out;
  }, id);
  for (const details of closed) await page.locator(`#${details} > summary`).click();
}

export async function setNumber(page, id, value) {
  await reveal(page, id);
  await page.locator(`#${id}`).fill(String(value));
  await page.locator(`#${id}`).press('Enter');
}
