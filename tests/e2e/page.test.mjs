// End-to-end: the real `trunk build --release` output, served on 127.0.0.1, driven in headless
// Chromium. Moves each slider, reads the readouts and the URL, checks pixels, tries bad URLs and
// saves screenshots to tests/e2e/screenshots/. The controls, links and notices are one code path
// whichever backend computes, so they are driven here on the CPU path; what only the WebGPU path
// does (its numbers and pixels against the CPU's, before and after the controls move, its
// read-back, its limits) is in gpu.test.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  canvasInk, heatmapCell, open, screenshot, setUp, state, stats, text, waitForUrlParam,
} from './helpers.mjs';

setUp();

// The CPU path's largest sizes (WebGPU's are checked in gpu.test.mjs).
const LIMITS = { d: 1024, n: 2048 };

// The diverging colour map's stops, read from the one table the CPU path and the GPU shader both
// draw with (crates/pe-lab-math/src/colormap.rs): white at 0, dark red at +1, dark blue at -1.
const COLORMAP_RS = new URL('../../crates/pe-lab-math/src/colormap.rs', import.meta.url);
const DIVERGING = [...readFileSync(COLORMAP_RS, 'utf8')
  .match(/pub const DIVERGING_STOPS: \[\[u8; 3\]; \d+\] = \[([^;]*)\];/)[1]
  .matchAll(/\[(\d+), (\d+), (\d+)\]/g)].map((m) => m.slice(1).map(Number));
const [BLUE, WHITE, RED] = [DIVERGING[0], DIVERGING[(DIVERGING.length - 1) / 2], DIVERGING.at(-1)];
const near = (a, b, tol = 4) => a.every((v, k) => Math.abs(v - b[k]) <= tol);

async function assertPanelsDrawn(page) {
  for (const id of ['heatmap', 'curves', 'projection']) {
    const ink = await canvasInk(page, id);
    assert.ok(ink.colours > 20 && ink.ink > 0.01, `canvas #${id} looks blank: ${JSON.stringify(ink)}`);
  }
}

// The page's controls, computed on the CPU path.
const compute = 'cpu';
const on = `compute=${compute}`;

describe(`${compute}: the default view`, () => {
  test('is the chapter figure, drawn, with the live readouts', async () => {
    const { page, problems } = await open(on);
    assert.deepEqual(await state(page), { d: 32, n: 60, base: 10000, delta: 1, pair: 3, position: 0, columns: [6, 7, 8, 9] });
    const s = await stats(page);
    assert.equal(await page.evaluate(() => window.peLab.backend), 'cpu');
    assert.match(await text(page, 'backend'), /^CPU · Rust → WebAssembly/);
    assert.ok(s.maxProjectionError > 0 && s.maxProjectionError < 5e-7, `projection error ${s.maxProjectionError}`);
    assert.equal(await text(page, 'projection-error'), s.maxProjectionError.toExponential(2).replace('e-', 'e-'));
    assert.ok(await page.evaluate(() => window.peLab.lastFrameMs) > 0);
    assert.equal(s.pMin, -1);
    assert.equal(s.pMax, 1);
    await assertPanelsDrawn(page);
    // Row 0: sin 0 = 0 (white) in even columns, cos 0 = 1 (red) in odd columns.
    assert.ok(near(await heatmapCell(page, 0, 0), WHITE), 'p[0,0] = 0 should be white');
    assert.ok(near(await heatmapCell(page, 0, 1), RED), 'p[0,1] = 1 should be red');
    // p[3,1] = cos 3 ≈ −0.99: blue.
    assert.ok(near(await heatmapCell(page, 3, 1), BLUE, 12), 'p[3,1] = cos 3 should be blue');
    // The 2×2 matrix of pair 3 (ω = 10000^(−6/32)) for δ = 1.
    const w = Math.pow(10000, -6 / 32);
    assert.equal(await text(page, 'm00'), Math.cos(w).toFixed(4));
    assert.equal(await text(page, 'm01'), Math.sin(w).toFixed(4));
    assert.equal(await text(page, 'm10'), (-Math.sin(w)).toFixed(4));
    assert.match(await text(page, 'summary-p'), /P is 60 × 32 \(1920 values\)/);
    assert.match(await text(page, 'curves-summary'), /Columns 6 \(sin\), 7 \(cos\), 8 \(sin\), 9 \(cos\)/);
    await waitForUrlParam(page, 'd', '32');
    assert.ok(await page.locator('#notices').isHidden());
    assert.ok(await page.locator('#error').isHidden());
    await screenshot(page, `${compute}-default`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('hovering a cell shows position, column, value and sin/cos', async () => {
    const { page, problems } = await open(on);
    const s = await stats(page);
    const [x0, y0, x1, y1] = s.heatmapImage;
    const box = await page.locator('#heatmap').boundingBox();
    const canvasWidth = await page.evaluate(() => document.getElementById('heatmap').width);
    const scale = box.width / canvasWidth;
    // Centre of cell (row 2, column 1).
    const cx = x0 + 1.5 * (x1 - x0) / 32;
    const cy = y0 + 2.5 * (y1 - y0) / 60;
    await page.mouse.move(box.x + cx * scale, box.y + cy * scale);
    await page.waitForFunction(() => /position 2, column 1/.test(document.getElementById('heatmap-hover').textContent));
    const hover = await text(page, 'heatmap-hover');
    assert.match(hover, /position 2, column 1 \(cos, pair j = 0/);
    assert.match(hover, new RegExp(`p = ${Math.cos(2).toFixed(4)}`));
    assert.ok(await page.locator('#heatmap-tooltip').isVisible());
    await screenshot(page, `${compute}-hover`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe(`${compute}: moving the controls`, () => {
  test('d: the slider, its field, the URL and the panels follow (odd d)', async () => {
    const { page, problems } = await open(on);
    await page.locator('#d-range').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.peLab.state.d === 33);
    // The state changes at once; the field follows in the next frame.
    await page.evaluate(() => window.peLab.whenDrawn());
    assert.equal(await page.locator('#d-number').inputValue(), '33');
    await page.waitForFunction(() => window.peLab.stats.columns === 33);
    await waitForUrlParam(page, 'd', '33');
    assert.match(await text(page, 'summary-p'), /d = 33 is odd: the last column \(32\) is a sine/);
    // The last column of row 0 is sin(0) = 0: white; the one before is cos(0) = 1: red.
    assert.ok(near(await heatmapCell(page, 0, 32), WHITE));
    assert.ok(near(await heatmapCell(page, 0, 31), RED));
    assert.ok((await stats(page)).maxProjectionError < 5e-7);
    await assertPanelsDrawn(page);
    await screenshot(page, `${compute}-odd-d-33`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('n, base and δ sliders; exact fields; live updates while dragging', async () => {
    const { page, problems } = await open(on);
    // Dragging the n slider with the mouse produces `input` events before any `change`. (Its
    // scale is logarithmic: n = 60 sits at 54% of the track, 70% is about 200.)
    const box = await page.locator('#n-range').boundingBox();
    await page.mouse.move(box.x + 4, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 5 });
    await page.waitForFunction(() => window.peLab.state.n > 60);
    const during = (await state(page)).n;
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const released = (await state(page)).n;
    assert.ok(released > during, `n should keep following the drag (${during} → ${released})`);
    await page.waitForFunction((n) => window.peLab.stats.rows === n, released);
    await waitForUrlParam(page, 'n', String(released));

    // base: log slider at 2 → 100; then the exact field.
    await page.locator('#base-range').fill('2');
    await page.waitForFunction(() => window.peLab.state.base === 100);
    await page.evaluate(() => window.peLab.whenDrawn());
    assert.equal(await page.locator('#base-number').inputValue(), '100');
    await waitForUrlParam(page, 'base', '100');
    await page.locator('#base-number').fill('12345.5');
    await page.locator('#base-number').press('Enter');
    await page.waitForFunction(() => window.peLab.state.base === 12345.5);
    assert.ok((await stats(page)).maxProjectionError < 5e-7);

    // δ: keyboard on the slider, then the exact field; the matrix follows.
    // (The drag started at n = 1, which clamped δ to 0 on the way.)
    const deltaBefore = (await state(page)).delta;
    await page.locator('#delta-range').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((v) => window.peLab.state.delta === v + 1, deltaBefore);
    await page.locator('#delta-number').fill('-7');
    await page.locator('#delta-number').press('Enter');
    await page.waitForFunction(() => window.peLab.state.delta === -7);
    await waitForUrlParam(page, 'delta', '-7');
    const w = Math.pow(12345.5, -6 / 32);
    await page.waitForFunction((v) => document.getElementById('m01').textContent === v, Math.sin(-7 * w).toFixed(4));

    // pair j and position i of the projection panel.
    await page.locator('#pair-number').fill('0');
    await page.locator('#pair-number').press('Enter');
    await page.waitForFunction(() => window.peLab.state.pair === 0);
    // The panels redraw on the next animation frame.
    await page.waitForFunction((v) => document.getElementById('m00').textContent === v, Math.cos(-7).toFixed(4));
    const minPos = await page.locator('#pos-range').getAttribute('min');
    assert.equal(minPos, '7', 'with δ = −7, i must be at least 7');

    // Columns of the curves panel.
    await page.locator('#cols-input').fill('0, 1, 30');
    await page.locator('#cols-input').press('Enter');
    await page.waitForFunction(() => window.peLab.state.columns.join() === '0,1,30');
    await page.locator('#cols-lower').click();
    await page.waitForFunction(() => window.peLab.state.columns.join() === '1,2,31');
    await waitForUrlParam(page, 'cols', '1,2,31');
    await assertPanelsDrawn(page);
    await screenshot(page, `${compute}-moved`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a value typed beyond its range shows, once its field is left, as the value in use', async () => {
    const { page, problems } = await open(on);
    // A slider's exact field, a panel setting's and a training setting's (the training panel's
    // fields are rows' controls like the others).
    for (const [id, typed, used, read] of [
      ['d-number', '5000', String(LIMITS.d), 'window.peLab.state.d'],
      ['clip-number', '100', '64', 'window.peLab.lesson.clip'],
      ['train-tn', '500', '64', 'window.peLab.stats.panels.train.trainLength'],
    ]) {
      const field = page.locator('#' + id);
      await field.scrollIntoViewIfNeeded();
      await field.fill(typed);
      await field.press('Enter');
      await page.waitForFunction(`String(${read}) === '${used}'`);
      // Leaving the field (a click elsewhere) shows the value the state clamped it to.
      await page.locator('h1').first().click();
      await page.evaluate(() => window.peLab.whenDrawn());
      assert.equal(await field.inputValue(), used, `#${id} after typing ${typed}`);
    }
    // The last change's notice says what was used.
    assert.match(await text(page, 'notices'), /tn = 500\b.*64/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('n = 1 still draws every panel', async () => {
    const { page, problems } = await open(on);
    await page.locator('#n-number').fill('1');
    await page.locator('#n-number').press('Enter');
    await page.waitForFunction(() => window.peLab.stats.rows === 1);
    assert.equal((await state(page)).delta, 0, 'δ is clamped into the 1-row sequence');
    assert.ok(await page.locator('#delta-range').isDisabled());
    assert.match(await text(page, 'summary-p'), /P is 1 × 32/);
    assert.ok(near(await heatmapCell(page, 0, 1), RED));
    await assertPanelsDrawn(page);
    await screenshot(page, `${compute}-n-1`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe(`${compute}: links and the JS API`, () => {
  test('a link reproduces a view', async () => {
    const { page, problems } = await open(`${on}&d=33&n=7&base=250&delta=-3&pair=5&pos=4&cols=0,1,32`);
    assert.deepEqual(await state(page), { d: 33, n: 7, base: 250, delta: -3, pair: 5, position: 4, columns: [0, 1, 32] });
    assert.ok(await page.locator('#notices').isHidden());
    assert.equal(await page.locator('#base-number').inputValue(), '250');
    await assertPanelsDrawn(page);
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const [query, check] of [
    ['d=0', (s) => s.d === 1],
    ['d=99999999', (s) => s.d === LIMITS.d],
    ['n=-5', (s) => s.n === 1],
    ['base=abc', (s) => s.base === 10000],
    ['delta=NaN', (s) => s.delta === 1],
    ['d=0&n=-5&base=abc&delta=NaN&cols=zz', (s) => s.d === 1 && s.n === 1 && s.base === 10000 && s.delta === 0],
  ]) {
    test(`a bad link (${query}) is clamped with a visible notice`, async () => {
      const { page, problems } = await open(`${on}&${query}`);
      assert.ok(check(await state(page)), JSON.stringify(await state(page)));
      assert.ok(await page.locator('#notices').isVisible(), 'the notice must be visible');
      assert.ok((await text(page, 'notices-list')).length > 10);
      assert.ok(await page.locator('#error').isHidden());
      await assertPanelsDrawn(page);
      if (query.startsWith('d=0&')) await screenshot(page, `${compute}-bad-url`);
      if (query === 'd=99999999') await screenshot(page, `${compute}-largest-d`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('peLab.set changes the view and stats at once; bad input gives notices, not exceptions', async () => {
    const { page, problems } = await open(on);
    const result = await page.evaluate(() => window.peLab.set({ d: 16, n: 120, columns: [0, 1] }));
    await page.evaluate(() => window.peLab.whenDrawn());
    assert.equal(result.d, 16);
    const s = await stats(page);
    assert.equal(s.columns, 16);
    assert.equal(s.rows, 120);
    assert.equal(await page.locator('#d-number').inputValue(), '16');
    await page.evaluate(() => window.peLab.set({ d: 'abc', n: 1e9 }));
    await page.evaluate(() => window.peLab.whenDrawn());
    const after = await state(page);
    assert.equal(after.d, 16);
    assert.equal(after.n, LIMITS.n);
    assert.ok(await page.locator('#notices').isVisible());
    const thrown = await page.evaluate(() => { try { window.peLab.set(42); return null; } catch (e) { return String(e.message); } });
    assert.match(thrown, /expects an object/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the largest sizes stay interactive', async () => {
    const { page, problems } = await open(`${on}&d=1024&n=2048&delta=2047`);
    const s = await stats(page);
    assert.equal(s.rows * s.columns, 2048 * 1024);
    assert.ok(s.maxProjectionError < 5e-7, `${s.maxProjectionError}`);
    const ms = await page.evaluate(() => window.peLab.lastFrameMs);
    // Not a timing test (the figure is printed below; bench.test.mjs measures): this only
    // catches a frozen tab, with room for a loaded 2-core CI machine.
    assert.ok(ms < 10000, `a full update took ${ms} ms: the tab froze`);
    await assertPanelsDrawn(page);
    await screenshot(page, `${compute}-largest`);
    console.log(`${compute}: largest CPU-size view (n=2048, d=1024): lastFrameMs = ${ms.toFixed(1)}`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
