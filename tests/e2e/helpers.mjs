// Shared set-up for the end-to-end tests: the built dist/ served on 127.0.0.1, headless Chromium
// driven by playwright-core (Debian's /usr/bin/chromium; never a downloaded browser).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

// The lesson's sections in page order (model::panels::LESSON; a native test holds the page to it).
export const LESSON = ['attention', 'pipeline', 'heads', 'complexity', 'order', 'heatmap', 'curves',
  'binary', 'projection', 'similarity', 'scaling', 'rope', 'extension', 'alibi', 't5', 'shaw',
  'learned', 'nope', 'stacking', 'train'];

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

export async function launch({ webgpu = true } = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    // Playwright gives every launch a fresh, empty profile directory itself.
    args: [...QUIET_FLAGS, ...(webgpu ? WEBGPU_FLAGS : [])],
  });
}

/** A page that records errors; `problems` must stay empty for a test to pass. */
// Tall enough that every panel is on screen: off-screen panels are only drawn once scrolled to
// (classroom.test.mjs tests that with a short viewport).
export async function openPage(browser, url, { width = 1400, height = 9000, deviceScaleFactor = 1 } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(url);
  await page.evaluate(() => window.peLab.ready);
  return { page, problems };
}

export async function screenshot(page, name) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
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
