// The training panel end to end: the worker's module is fetched only when training starts (the
// first load's bytes); a link reproduces a run bit for bit, natively and in the page; bad values
// are clamped with notices; the panel on a phone and a projector. The default run, timed on the
// main thread, is train-default-run.test.mjs (run alone).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzippedBytes, open, screenshotOf, setUp } from './helpers.mjs';

setUp({ size: [1366, 900] });

const trainStats = (page) => page.evaluate(() => window.peLab.stats.panels.train);


// What the page's first load fetched, in bytes of gzip -9 (zlib, level 9) of every file, at
// 1366 × 768 with ?compute=cpu: in the build just before the training lab (f36824f), and in this
// build (622,156 B when the training lab was merged). The training lab's targets are at most
// 10 KB more than before it and at most 530 KB in all; this build meets both (the workers'
// reports read without serde, one sort, no BTreeMap, WGSL without comments, one plotters
// instance for every chart and backend, minified HTML and glue, decimals read by the browser's
// own parser, no Unicode case tables, the math crates at opt-level 2). The first test holds the
// first load where it is now, so that it can only shrink; the second and third hold the targets.
// Choosing where a run trains (the link key `trainer`, the trial's report, the sentence and its
// numbers in the stats) took it from 526,132 B to 529,153 B. Training on several seeds (the
// stats' means, ranges and every seed, the verdict and its checks, the position-blind ceiling,
// bands and markers on the charts) and the trainer's portable libm took it to 545,424 B; the
// ceiling moved from 530 KB to 560 KB, the English first load's budget. Handing the stats'
// curves over as typed arrays and the conclusions computed once: 549,040 B. The lesson (a live
// takeaway per panel, the projection's label placement, the order panel's rounding bound, the
// tabs, the takeaways in the static page) took it to 604,046 B. The first screen's figure as a
// picture before the wasm has drawn it (a 7,353 B WebP), the GPU layer as its own crate and the
// settings' table: 616,346 B. (The math crate built for size took 18 KB off, but with it a fresh
// clone's run of the test below saw frames of 56–73 ms while training: see Cargo.toml.) The
// names the wasm imports and exports shortened in the wasm and its glue together (binaryen's
// minify pass, scripts/minify-wasm-names.mjs: 16 KB of hex hashes), the projector's type size
// read by the browser's parser and the heads takeaway's capital made in ASCII (Rust's float
// parser and Unicode's case tables had come back into the page with them: 24 KB), and the wasm's
// producers and target-features sections dropped: 576,058 B. The training panel's run (its
// workers, figures, findings and verdict) moved to a wasm module of its own, fetched when the
// panel is first needed (web/panels/train_loader.rs): 554,089 B. The projection's labels kept
// off its arrows, ALiBi's head names and the static page's measure of the figures' room before
// the first paint: 559,324 B. The language menu and the head script's choice of the page's
// language (the translated pages are other files): 559,813 B, under both targets below (187 B
// under 560 KB). Every sentence the wasm computes moved into message catalogs
// (locales/computed, src/model/messages: the English compiled in as Fluent text with short ids,
// and the runtime that formats it), so that the Chinese page computes them in Chinese: 580,865 B,
// over both targets (the catalog's text and its call sites cost more than the format strings
// they replaced). The math crate built for size in the page (the training module keeps it at
// opt-level 2, its own profile) and the stats before a run written from the settings alone
// (`TrainStats::before_run`, without the code that sums a run's reports up): 557,635 B, under
// both targets again.
const FIRST_LOAD_BEFORE_TRAINING = 561877;
// 2026-12-02: + about 1.6 KB for drawing only what the reader sees (two observers, the frame's
// budget, P and the heatmap on demand, the projection's obstacle grid): 561,672 B, over 560 KB.
// Then the takeaways that answer their questions (+ about 2.2 KB), with the posters at half the
// figure's resolution (the landing poster 7.4 -> 3.2 KB), the panic hook without
// console_error_panic_hook and wasm-opt --ignore-implicit-traps: 559,124 B. The catalogs' arguments
// under short names, the panels' titles as variants of one message (no table of composed names)
// and the posters at 0.4 of the figure's size: 558,282 B. The training verdict's headline slot
// (#train-headline and "The numbers behind the verdict", which the page writes before the training
// module is loaded) and the binary panel's paint of P's waiting cells: 559,130 B.
// The pipeline's projector layout (every token named at a room's type, its legend's pointer to
// the step that teaches √d), the multi-head maps' key indices, wasm-opt -Oz for the page, and
// the panels' keys part by part instead of by their settings' Debug text (model::inputs::KeyParts,
// 936 B less), the two draw functions split: 559,287 B. The panels in folders of their own, from
// one list (their mount inlined into its one match), the GPU kernels' hosts and the WGSL written
// once: 558,881 B. The pretrained panel (its section, its host and its link key) and the learned
// panel's trained table (its host), their loader written once; wasm-opt allowed to fold added
// constants into addresses (--low-memory-unused) and run once more over the renamed code
// (scripts/minify-wasm-names.mjs); the pretrained panel's definitions written by its module:
// 559,872 B.
const FIRST_LOAD_NOW = 559883;
const TARGET_GROWTH = 10 * 1024;
// 560 KB read as 560,000 B, the stricter of the two readings (560 KiB would be 573,440 B).
const TARGET_CEILING = 560 * 1000;

describe('training panel', () => {
  /** The files the default page fetched on its first load, with their gzip -9 sizes. */
  async function firstLoad() {
    const { page, context, problems, requests } = await open();
    await page.evaluate(() => window.peLab.whenDrawn());
    await page.waitForTimeout(500);
    const files = gzippedBytes(requests);
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    assert.deepEqual(problems, []);
    await context.close();
    console.log(`# first load: ${files.map((f) => `${f.path} ${f.gzip}`).join(', ')}; total ${total} B gzip -9 (before the training lab ${FIRST_LOAD_BEFORE_TRAINING} B, ${total >= FIRST_LOAD_BEFORE_TRAINING ? '+' : ''}${total - FIRST_LOAD_BEFORE_TRAINING} B)`);
    return { files, total };
  }
  /** The first load, measured once for the three tests below. */
  let measured;
  const measureFirstLoad = async () => (measured ??= await firstLoad());

  test('the first load does not carry the training model or the training panel, and does not grow', async () => {
    const { files, total } = await measureFirstLoad();
    assert.ok(!files.some((f) => f.path.includes('train-')), files.map((f) => f.path).join(', '));
    // 2 KB of slack: compression moves a little with every build.
    assert.ok(total <= FIRST_LOAD_NOW + 2048, `first load ${total} B, more than ${FIRST_LOAD_NOW} B`);
  });

  test('the first load is within 10 KB of the page before the training lab', async () => {
    const { total } = await measureFirstLoad();
    assert.ok(total <= FIRST_LOAD_BEFORE_TRAINING + TARGET_GROWTH, `first load ${total} B`);
  });

  test('the first load is at most 560 KB', async () => {
    const { total } = await measureFirstLoad();
    assert.ok(total <= TARGET_CEILING, `first load ${total} B`);
  });

  test('the page trains a link to the bits a native build gives (tests/data/train_link_bits.json)', async () => {
    // The same link, trained natively by tests/train_link_bits.rs: every loss as its float32
    // bits, every accuracy as the same float64.
    const fixture = JSON.parse(readFileSync(new URL('../data/train_link_bits.json', import.meta.url)));
    const { page, context, problems } = await open(fixture.link.replace(/^\?/, ''));
    const stats = await page.evaluate(() => window.peLab.train());
    assert.equal(stats.done, true);
    assert.equal(stats.backend, 'cpu');
    const bits = (x) => new Uint32Array(new Float32Array([x]).buffer)[0];
    let compared = 0;
    for (const [name, seeds] of Object.entries(fixture.results)) {
      seeds.forEach((expected, k) => {
        const got = stats.results[name].bySeed[k];
        assert.equal(got.seed, expected.seed, name);
        const lossBits = got.loss.map(bits);
        const first = expected.lossBits.findIndex((b, step) => b !== lossBits[step]);
        assert.equal(first, -1, `${name} seed ${expected.seed}: step ${first} differs (page ${got.loss[first]}, native bits ${expected.lossBits[first]})`);
        assert.equal(lossBits.length, expected.lossBits.length, name);
        assert.deepEqual(got.accuracyByLength, expected.accuracyByLength, name);
        compared += lossBits.length;
      });
    }
    console.log(`# native = page: ${compared} losses and every accuracy of ${Object.keys(fixture.results).length} encodings × 2 seeds identical`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a link reproduces a run bit for bit, and peLab.train takes the same keys', async () => {
    const query = 'tenc=rope,none,learned&tsteps=40&tseed=7&tn=10&tk=2&tseeds=1';
    const runs = [];
    for (let k = 0; k < 2; k++) {
      const { page, context, problems } = await open(query);
      const stats = await page.evaluate(() => window.peLab.train());
      assert.equal(stats.done, true);
      assert.deepEqual(stats.encodings, ['none', 'learned', 'rope']);
      assert.equal(stats.seed, 7);
      runs.push(stats);
      if (k === 1) {
        // The same settings given to peLab.train on a default page: the same curves.
        const { page: other, context: otherContext } = await open();
        const again = await other.evaluate(() => window.peLab.train({ encodings: ['rope', 'none', 'learned'], steps: 40, seed: 7, seeds: 1, trainLength: 10, shiftK: 2 }));
        assert.deepEqual(again.results.rope.loss, stats.results.rope.loss);
        assert.ok(new URL(other.url()).search.includes('tseed=7'), other.url());
        await otherContext.close();
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
    for (const name of ['none', 'learned', 'rope']) {
      assert.deepEqual(runs[1].results[name].loss, runs[0].results[name].loss, name);
      assert.deepEqual(runs[1].results[name].accuracyByLength, runs[0].results[name].accuracyByLength, name);
    }
  });

  test('bad values are clamped with a notice; stop keeps what was measured', async () => {
    const { page, context, problems } = await open('tn=500&td=30&theads=4&tenc=rope,bogus&tlr=x');
    const state = await trainStats(page);
    assert.equal(state.trainLength, 64);
    assert.deepEqual(state.encodings, ['rope']);
    const notices = await page.evaluate(() => window.peLab.stats.notices.join('\n'));
    for (const expected of ['tn = 500', 'td = 30', "'bogus'", "tlr = 'x'"]) assert.ok(notices.includes(expected), `${expected} in ${notices}`);
    const pending = page.evaluate(() => window.peLab.train({ steps: 100000 }));
    await page.waitForFunction(() => window.peLab.stats.panels.train.steps >= 3, null, { timeout: 60000 });
    await page.evaluate(() => window.peLab.stopTraining());
    const stopped = await pending;
    assert.equal(stopped.done, false);
    assert.ok(stopped.results.rope.loss.length >= 3);
    assert.match(stopped.failure, /stopped/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the panel on a phone and a projector', async () => {
    for (const [name, view, query] of [['phone', [390, 844], 'tenc=rope,none,learned&tsteps=60'],
      ['proj1024', [1024, 768], 'present=1&tsteps=60'],
      ['dark', [1366, 900], 'theme=dark&tsteps=150']]) {
      const { page, context, problems } = await open(query, view);
      await page.evaluate(() => window.peLab.train());
      await page.locator('#panel-train').scrollIntoViewIfNeeded();
      await page.evaluate(() => window.peLab.whenDrawn());
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${name}: the page is ${overflow} px wider than the window`);
      if (name === 'proj1024') {
        // On a projector the results table of the default encodings fits without scrolling (a
        // lecturer does not scroll a table sideways); on a phone it scrolls in its own region.
        // The panel is drawn once its section is seen to be on screen (an observer's callback).
        await page.waitForFunction(() => document.querySelectorAll('#train-results tr').length === 7);
        const table = await page.evaluate(() => {
          const box = document.querySelector('#panel-train .table-scroll');
          return { box: box.clientWidth, table: box.scrollWidth, rows: document.querySelectorAll('#train-results tr').length };
        });
        assert.equal(table.rows, 7);
        assert.ok(table.table <= table.box + 1, `the results table scrolls: ${JSON.stringify(table)}`);
      }
      await screenshotOf(page, '#panel-train', `train-${name}`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  });

  test('the training embed keeps one height from load to verdict, its headline included', async () => {
    // At 800 px wide, as docs/embedding.md promises: the headline (the press-Train line, then the
    // verdict's first sentences) and the progress line have their room from the start, and the
    // verdict's numbers wait behind "more".
    const { page, context, problems } = await open('embed=train&tsteps=100', [800, 900]);
    const height = () => page.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    const heights = [await height()];
    await page.locator('#train-start').click();
    await page.waitForFunction(() => window.peLab.stats.panels.train.steps > 0, null, { timeout: 60000 });
    heights.push(await height());
    await page.waitForFunction(() => window.peLab.stats.panels.train.done, null, { timeout: 120000 });
    await page.evaluate(() => window.peLab.whenDrawn());
    heights.push(await height());
    const stats = await trainStats(page);
    // The embed shows the verdict's headline (the page shows it as the panel's takeaway).
    assert.equal(await page.locator('#train-headline').textContent(), stats.verdict[0]);
    assert.ok(await page.locator('#train-headline').isVisible());
    assert.deepEqual(await page.locator('#train-verdict-detail p').allTextContents(), stats.verdict.slice(1));
    assert.ok(heights.every((h) => h === heights[0]), `heights: ${heights.join(' → ')}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
