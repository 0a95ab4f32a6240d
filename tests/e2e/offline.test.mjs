// The page without a network (the service worker, scripts/offline/): after one visit the lesson,
// the Chinese page and the training module (its wasm, catalog and workers) work offline, with the
// server gone; a new deploy is served from the first visit after the one that installed it once
// no page of the old version is open, never mixed with the old one; the model's files (minilm/)
// are cached as they are first fetched and outlive an app version; the worker that `trunk serve`
// gets (scripts/offline/dev-service-worker.js) hands an address that had the offline worker back
// to the network. Each test serves its own folder, so that it can stop or change it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { DIST, browser, drawn, open, setUp } from './helpers.mjs';
import { serve } from './serve.mjs';

setUp({ size: [1366, 900] });

const WRITE_WORKER = 'scripts/offline/write-service-worker.mjs';
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A server for `dir` that logs the paths it is asked for. */
async function serverFor(dir) {
  const server = await serve(dir, 0);
  const asked = [];
  server.on('request', (req) => asked.push(new URL(req.url, 'http://x').pathname));
  return { server, asked, base: `http://127.0.0.1:${server.address().port}` };
}

/** The files the worker precaches (all of `dir` but sw.js, minilm/ and dotfiles), by sha256. */
function versionOf(dir) {
  const files = new Map();
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      const name = relative(dir, path).split(sep).join('/');
      if (entry.isDirectory()) { if (name !== 'minilm') walk(path); } else if (name !== 'sw.js' && !name.endsWith('.map')) files.set(name, sha(readFileSync(path)));
    }
  };
  walk(dir);
  return files;
}

/** Waits until the page's registration has an activated worker (its precache done). */
const activated = (page) => page.evaluate(async () => {
  for (let k = 0; k < 1200; k++) {
    const registration = await navigator.serviceWorker.getRegistration();
    if (registration?.active?.state === 'activated') return registration.active.scriptURL;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no service worker activated within 60 s');
});

/** Waits until a new version has installed and waits beside the active one. */
const waiting = (page) => page.evaluate(async () => {
  for (let k = 0; k < 1200; k++) {
    const registration = await navigator.serviceWorker.getRegistration();
    if (registration?.waiting?.state === 'installed') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no new service worker installed within 60 s');
});

/** Waits until the service worker of `version` is the active one (read in the workers themselves:
 *  no page needs to be open). */
async function untilActive(context, version) {
  for (let k = 0; k < 600; k++) {
    for (const worker of context.serviceWorkers()) {
      const active = await worker.evaluate((v) => typeof VERSION !== 'undefined' && VERSION === v
        && self.registration.active?.state === 'activated' && !self.registration.waiting, version).catch(() => false);
      if (active) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`version ${version} did not become active within 60 s`);
}

/** The page's caches: name → the paths in it. */
const cachesOf = (page) => page.evaluate(async () => {
  const out = {};
  for (const name of await caches.keys()) {
    out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname.slice(1)).sort();
  }
  return out;
});

/** Another page in `context` at `url`, drawn, recording its problems and its responses. */
async function visit(context, url) {
  const page = await context.newPage();
  page.setDefaultTimeout(90_000);
  const problems = [];
  const responses = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { responses.push(r); if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  // Requests not answered yet: what a navigation that never reaches its load event waits for.
  const pending = new Set();
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  await page.goto(url);
  // The version each training worker's loader (train-worker.js) came from, as it says on a
  // channel (Chromium keeps no body of a worker's script to read).
  await page.evaluate(() => {
    window.loaderVersions = [];
    window.versionChannel = new BroadcastChannel('pe-lab-version');
    window.versionChannel.onmessage = (event) => window.loaderVersions.push(event.data);
  });
  await page.evaluate(() => window.peLab.ready);
  await drawn(page);
  return {
    page, problems, responses,
    loaderVersions: () => page.evaluate(() => window.loaderVersions),
    pending: () => [...pending].map((r) => `${r.url()}${r.serviceWorker() ? ' (from a worker)' : ''}`),
  };
}

/** A short run on the CPU: it loads the training module, its catalog and its workers. */
const trainBriefly = (page) => page.evaluate(() => window.peLab.train({ encodings: ['rope'], steps: 5, seeds: 1 }));

/** Every response of a version's file that `responses` hold, checked against `version`'s bytes
 *  (`changed`: the files that differ between the two versions, whose every response must be
 *  checked; Chromium keeps no body of some others, which are the same in both versions). Returns
 *  the paths checked. */
async function assertAllOf(responses, base, version, name, changed) {
  const checked = [];
  for (const response of responses) {
    if (!response.url().startsWith(`${base}/`) || response.status() !== 200) continue;
    const path = new URL(response.url()).pathname.slice(1) || 'index.html';
    if (!version.has(path)) continue;
    let body;
    try {
      body = await response.body();
    } catch (error) {
      assert.ok(!changed.has(path) || path === 'train-worker.js', `${name}: ${path}: ${error.message}`);
      continue;
    }
    assert.equal(sha(body), version.get(path), `${name}: ${path} is not version ${name}'s`);
    checked.push(path);
  }
  return checked;
}

describe('offline', () => {
  test('after one visit the page, the Chinese page and the training module work with the server gone', async () => {
    const { server, asked, base } = await serverFor(DIST);
    let context;
    try {
      const opened = await open(`${base}/?compute=cpu`, undefined, { drawn: true, serviceWorkers: 'allow' });
      ({ context } = opened);
      const { page, problems } = opened;
      const started = Date.now();
      const script = await activated(page);
      console.log(`# the worker ${script} activated ${Date.now() - started} ms after the first frame`);
      // Version A's every file is in its cache, and nothing else is (no source map, no minilm/).
      const version = versionOf(DIST);
      const appCaches = Object.entries(await cachesOf(page)).filter(([name]) => name.startsWith('pe-lab-app '));
      assert.equal(appCaches.length, 1, JSON.stringify(appCaches.map(([name]) => name)));
      assert.deepEqual(appCaches[0][1], [...version.keys()].sort());
      // The first visit's page was loaded before any worker: it stays the network's (see sw.js).
      assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);

      await context.setOffline(true);
      server.closeAllConnections();
      server.close();
      const before = asked.length;
      const fromWorker = [];
      page.on('response', (r) => { if (r.url().startsWith(`${base}/`)) fromWorker.push(r.fromServiceWorker()); });
      await page.reload();
      await page.evaluate(() => window.peLab.ready);
      await drawn(page);
      assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null));
      assert.equal(await page.evaluate(() => window.peLab.backend), 'cpu');
      // The Chinese page, through a link's query.
      await page.goto(`${base}/index.zh.html?compute=cpu&d=64`);
      await page.evaluate(() => window.peLab.ready);
      await drawn(page);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
      assert.equal(await page.evaluate(() => window.peLab.state.d), 64);
      // The training module, its Chinese catalog and the training worker, from the cache.
      const stats = await trainBriefly(page);
      assert.equal(stats.done, true, JSON.stringify(stats.failure));
      assert.match(stats.verdict.join(' '), /\p{Script=Han}/u);
      assert.equal(asked.length, before, 'nothing reached the server');
      assert.ok(fromWorker.length > 5 && fromWorker.every(Boolean), `${fromWorker.filter((f) => !f).length} of ${fromWorker.length} responses not from the worker`);
      assert.deepEqual(problems, []);
    } finally {
      await context?.close();
      server.closeAllConnections();
      server.close();
    }
  });

  test('a new version is served from the first visit after the one that installed it, never mixed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-lab-offline-'));
    let server;
    let asked;
    let base;
    let context;
    try {
      cpSync(DIST, dir, { recursive: true });
      // A model file beside the page (the pretrained panel's minilm/), fetched at run time.
      mkdirSync(join(dir, 'minilm'), { recursive: true });
      writeFileSync(join(dir, 'minilm/probe.bin'), Buffer.alloc(4096, 7));
      // The training worker's loader says which version it is (see `visit`).
      const loader = `${readFileSync(join(dir, 'train-worker.js'), 'utf8')}\nnew BroadcastChannel('pe-lab-version').postMessage('A');\n`;
      writeFileSync(join(dir, 'train-worker.js'), loader);
      execFileSync(process.execPath, [WRITE_WORKER, dir], { env: { ...process.env, PE_LAB_SERVICE_WORKER: 'offline' } });
      const A = versionOf(dir);
      ({ server, asked, base } = await serverFor(dir));
      const url = `${base}/?compute=cpu&tn=10&tk=2`;
      context = await browser.newContext({ viewport: { width: 1366, height: 900 } });

      // Visit 1: from the network; version A installs.
      const first = await visit(context, url);
      await activated(first.page);
      assert.deepEqual(first.problems, []);
      await first.page.close();

      // A deploy: the page, its Chinese twin, the training module's glue and the training worker's
      // loader change (names without a hash), and sw.js is written again.
      const workerA = readFileSync(join(dir, 'sw.js'), 'utf8');
      const mark = (name, version) => writeFileSync(join(dir, name),
        readFileSync(join(dir, name), 'utf8').replace('</body>', `<!-- version ${version} --></body>`));
      for (const name of ['index.html', 'index.zh.html']) mark(name, 'B');
      appendFileSync(join(dir, 'pe-lab-train-panel.js'), '\n// version B\n');
      writeFileSync(join(dir, 'train-worker.js'), loader.replace("postMessage('A')", "postMessage('B')"));
      execFileSync(process.execPath, [WRITE_WORKER, dir], { env: { ...process.env, PE_LAB_SERVICE_WORKER: 'offline' } });
      const B = versionOf(dir);
      const changed = new Set([...B.keys()].filter((path) => A.get(path) !== B.get(path)));
      assert.deepEqual([...changed].sort(), ['index.html', 'index.zh.html', 'pe-lab-train-panel.js', 'train-worker.js']);
      const versionName = (text) => /version (\w+)/.exec(text)[1];
      assert.notEqual(versionName(readFileSync(join(dir, 'sw.js'), 'utf8')), versionName(workerA));

      // Visit 2, online: still version A (from its cache), and B installs beside it and waits. A
      // second tab and the training module's lazy load stay on A while a page of A is open.
      const second = await visit(context, url);
      assert.ok(!(await second.page.content()).includes('version B'));
      // The model's file, fetched by a page of A: into the model's cache.
      assert.equal((await second.page.evaluate(() => fetch('minilm/probe.bin').then((r) => r.arrayBuffer()).then((b) => b.byteLength))), 4096);
      await waiting(second.page);
      const third = await visit(context, url);
      assert.equal((await trainBriefly(second.page)).done, true);
      const checkedA = await assertAllOf([...second.responses, ...third.responses], base, A, 'A', changed);
      for (const path of ['index.html', 'pe-lab-train-panel.js']) assert.ok(checkedA.includes(path), `${path} in ${checkedA}`);
      const workersA = await second.loaderVersions();
      assert.ok(workersA.length > 0 && workersA.every((v) => v === 'A'), `the training workers' loaders: ${workersA}`);
      assert.ok(second.responses.some((r) => r.url().endsWith('/pe-lab-train-panel.js') && r.fromServiceWorker()));
      assert.deepEqual([...second.problems, ...third.problems], []);
      await second.page.close();
      await third.page.close();

      // A visit at once: the browser lets the old worker go only once it has no page and no event
      // in flight, so this one may still be A's (its HTML from A's worker) or already B's; either
      // way every file it gets, its workers' too, is of the version its HTML came from.
      const racing = await visit(context, url);
      const html = racing.responses.find((r) => r.request().isNavigationRequest());
      const racingName = (await html.text()).includes('version B') ? 'B' : 'A';
      assert.equal((await trainBriefly(racing.page)).done, true);
      const checkedRacing = await assertAllOf(racing.responses, base, racingName === 'B' ? B : A, racingName, changed);
      assert.ok(checkedRacing.includes('pe-lab-train-panel.js'), `${checkedRacing}`);
      const workersRacing = await racing.loaderVersions();
      assert.ok(workersRacing.length > 0 && workersRacing.every((v) => v === racingName), `${racingName}'s page, its workers' loaders: ${workersRacing}`);
      assert.deepEqual(racing.problems, []);
      await racing.page.close();

      // Visit 3, once B is active (no page of A is open): version B, the training module and its
      // workers too; A's cache is gone, the model's cache (the model did not change) is kept and
      // answers without the server.
      const versionB = versionName(readFileSync(join(dir, 'sw.js'), 'utf8'));
      await untilActive(context, versionB);
      const fourth = await visit(context, url);
      assert.ok((await fourth.page.content()).includes('version B'));
      const modelAsked = asked.filter((path) => path === '/minilm/probe.bin').length;
      assert.equal((await fourth.page.evaluate(() => fetch('minilm/probe.bin').then((r) => r.arrayBuffer()).then((b) => b.byteLength))), 4096);
      assert.equal(asked.filter((path) => path === '/minilm/probe.bin').length, modelAsked);
      assert.equal((await trainBriefly(fourth.page)).done, true);
      const checkedB = await assertAllOf(fourth.responses, base, B, 'B', changed);
      for (const path of ['index.html', 'pe-lab-train-panel.js']) assert.ok(checkedB.includes(path), `${path} in ${checkedB}`);
      const workersB = await fourth.loaderVersions();
      assert.ok(workersB.length > 0 && workersB.every((v) => v === 'B'), `the training workers' loaders: ${workersB}`);
      assert.ok(fourth.responses.some((r) => r.url().endsWith('/pe-lab-train-panel.js') && r.fromServiceWorker()));
      const names = Object.keys(await cachesOf(fourth.page));
      assert.equal(names.filter((name) => name.startsWith('pe-lab-app ')).length, 1, names.join(', '));
      assert.ok(names.includes(`pe-lab-app ${base}/ ${versionB}`), names.join(', '));
      assert.equal(names.filter((name) => name.startsWith('pe-lab-model ')).length, 1, names.join(', '));
      assert.deepEqual(fourth.problems, []);
      console.log(`# visit 2 and a second tab: ${checkedA.length} responses, all version A's (${[...new Set(checkedA)].join(', ')}); the visit right after their close: version ${racingName}'s; visit 3: ${checkedB.length}, all version B's (${[...new Set(checkedB)].join(', ')})`);
      await fourth.page.close();

      // `trunk serve` on the same address: its worker takes over at once and drops the versions;
      // with no fetch handler, every request goes to the network, so a page loaded after the
      // takeover is the rebuilt one. (A reload of the tab that was open during the takeover showed
      // the old page once in a CI run, and not in 12 runs here under load: not checked here.)
      execFileSync(process.execPath, [WRITE_WORKER, dir], { env: { ...process.env, PE_LAB_SERVICE_WORKER: 'dev' } });
      mark('index.html', 'C');
      const fifth = await visit(context, url);
      // The development worker active and done activating (its caches deleted), nothing
      // installing or waiting behind it.
      await fifth.page.waitForFunction(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state === 'activated' && !registration.installing && !registration.waiting
          && !(await caches.keys()).some((name) => name.startsWith('pe-lab-app '));
      });
      assert.deepEqual(fifth.problems, []);
      await fifth.page.close();
      const sixth = await visit(context, url);
      const navigation = sixth.responses.find((r) => r.request().isNavigationRequest());
      const shown = (await sixth.page.content()).match(/version \w+/g) ?? [];
      assert.ok(shown.includes('version C'), `the page after the takeover shows ${shown.join(', ') || 'no version'}; its HTML came ${navigation?.fromServiceWorker() ? 'from a worker' : 'from the network'}`);
      assert.equal(navigation.fromServiceWorker(), false);
      assert.deepEqual(sixth.problems, []);
    } finally {
      await context?.close();
      server?.closeAllConnections();
      server?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the hook precaches every file but sw.js, source maps and minilm/, and hashes them all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-lab-sw-'));
    try {
      mkdirSync(join(dir, 'minilm'));
      mkdirSync(join(dir, 'posters'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html><p>pe-lab</p>');
      writeFileSync(join(dir, 'app.js'), 'export {}');
      writeFileSync(join(dir, 'app.js.map'), '{}');
      writeFileSync(join(dir, 'posters/a b.webp'), 'x');
      writeFileSync(join(dir, 'minilm/manifest.json'), '{"model":1}');
      const write = () => {
        execFileSync(process.execPath, [WRITE_WORKER, dir], { env: { ...process.env, PE_LAB_SERVICE_WORKER: 'offline' } });
        const text = readFileSync(join(dir, 'sw.js'), 'utf8');
        const constants = /const VERSION="(\w+)",FILES=(\[.*?\]\]),MODEL="(\w+)"/.exec(text);
        return { version: constants[1], files: JSON.parse(constants[2]).map(([path]) => path), model: constants[3] };
      };
      const first = write();
      assert.deepEqual(first.files, ['app.js', 'index.html', 'posters/a%20b.webp']);
      assert.notEqual(first.model, '0');
      assert.deepEqual(write(), first, 'sw.js itself is not hashed: writing it again changes nothing');
      writeFileSync(join(dir, 'app.js'), 'export {};');
      const second = write();
      assert.notEqual(second.version, first.version);
      assert.equal(second.model, first.model);
      writeFileSync(join(dir, 'minilm/manifest.json'), '{"model":2}');
      const third = write();
      assert.notEqual(third.model, second.model);
      assert.notEqual(third.version, second.version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
