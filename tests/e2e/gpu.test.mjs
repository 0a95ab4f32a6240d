// End-to-end tests of the compute backends: WebGPU (SwiftShader's software adapter in headless
// Chromium) against the CPU path, the fallback in a Chromium without WebGPU, a lost device, and
// the per-backend size limits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canvasBytes, canvasInk, open, origin, screenshotOf, setUp, stats, text,
} from './helpers.mjs';

// The file's browser has WebGPU; the fallback tests open their pages in one without.
setUp({ webgpu: true });

/** RGBA of every pixel of the heatmap's cell image. */
async function heatmapPixels(page) {
  return canvasBytes(page, 'heatmap', await page.evaluate(() => window.peLab.stats.heatmapImage));
}

function compareImages(a, b) {
  assert.equal(a.length, b.length, 'the two heatmaps have different sizes');
  let worst = 0;
  let off = 0;
  for (let k = 0; k < a.length; k += 1) {
    const diff = Math.abs(a[k] - b[k]);
    worst = Math.max(worst, diff);
    if (diff > 3) off += 1;
  }
  return { worst, offFraction: off / a.length };
}

async function assertDrawn(page) {
  for (const id of ['heatmap', 'curves', 'projection']) {
    const ink = await canvasInk(page, id);
    assert.ok(ink.colours > 20 && ink.ink > 0.01, `canvas #${id} looks blank: ${JSON.stringify(ink)}`);
  }
}

/** The WebGPU page and the CPU page show the same numbers, readouts and heatmap pixels. */
async function assertSamePage(gpuPage, cpuPage) {
  const [sg, sc] = [await stats(gpuPage), await stats(cpuPage)];
  assert.ok(sg.adapter.length > 0, 'the adapter is named');
  assert.deepEqual(sg.heatmapImage, sc.heatmapImage);
  assert.equal(sg.pMin, sc.pMin);
  assert.equal(sg.pMax, sc.pMax);
  assert.ok(Math.abs(sg.maxProjectionError - sc.maxProjectionError) < 2e-7,
    `projection error ${sg.maxProjectionError} (GPU) vs ${sc.maxProjectionError} (CPU)`);
  assert.ok(sg.maxProjectionError < 5e-7);
  for (const id of ['summary-p', 'curves-summary', 'm00', 'm01', 'm10', 'm11', 'projection-angle', 'projection-point']) {
    assert.equal(await text(gpuPage, id), await text(cpuPage, id), `#${id} differs`);
  }
  const { worst, offFraction } = compareImages(await heatmapPixels(gpuPage), await heatmapPixels(cpuPage));
  assert.ok(offFraction < 0.001 && worst <= 12, `heatmaps differ: worst ${worst}, ${(offFraction * 100).toFixed(3)}% of channels by > 3`);
}

describe('WebGPU and CPU give the same page', () => {
  for (const query of ['', 'd=33&n=7&base=250&delta=-3&pair=5', 'd=512&n=1024&delta=9', 'n=1', 'd=1']) {
    test(`same pixels and readouts (${query || 'defaults'})`, async () => {
      // A laptop-high window: P's three panels, the ones compared, are drawn; the panels below
      // only compute their numbers (drawing all nineteen twice doubled this test's time).
      const gpu = await open(`compute=gpu&${query}`, [1400, 1400]);
      const cpu = await open(`compute=cpu&${query}`, [1400, 1400]);
      assert.equal(await gpu.page.evaluate(() => window.peLab.backend), 'webgpu');
      assert.equal(await cpu.page.evaluate(() => window.peLab.backend), 'cpu');
      await assertSamePage(gpu.page, cpu.page);
      await assertDrawn(gpu.page);
      if (!query) {
        await screenshotOf(gpu.page, '#panel-heatmap', 'backend-webgpu');
        await screenshotOf(cpu.page, '#panel-heatmap', 'backend-cpu');
      }
      assert.deepEqual(gpu.problems, []);
      assert.deepEqual(cpu.problems, []);
      await gpu.page.close();
      await cpu.page.close();
    });
  }

  test('the same after the controls move: a key on a slider, typed fields', async () => {
    const gpu = await open('compute=gpu', [1400, 1400]);
    const cpu = await open('compute=cpu', [1400, 1400]);
    for (const { page } of [gpu, cpu]) {
      await page.locator('#d-range').focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => window.peLab.state.d === 33);
      await page.evaluate(() => window.peLab.whenDrawn());
      for (const [field, value] of [['base', 12345.5], ['delta', -7], ['pair', 0]]) {
        await page.locator(`#${field}-number`).fill(String(value));
        await page.locator(`#${field}-number`).press('Enter');
        await page.waitForFunction(([key, v]) => window.peLab.state[key] === v, [field, value]);
        await page.evaluate(() => window.peLab.whenDrawn());
      }
    }
    assert.deepEqual(await gpu.page.evaluate(() => window.peLab.state), await cpu.page.evaluate(() => window.peLab.state));
    assert.equal(await gpu.page.evaluate(() => window.peLab.backend), 'webgpu');
    await assertSamePage(gpu.page, cpu.page);
    await assertDrawn(gpu.page);
    assert.deepEqual(gpu.problems, []);
    assert.deepEqual(cpu.problems, []);
    await gpu.page.close();
    await cpu.page.close();
  });

  test('the badge names the adapter; hovering reads one value back from the GPU', async () => {
    const { page, problems } = await open('compute=gpu');
    const s = await stats(page);
    assert.equal(await text(page, 'backend'), `WebGPU (${s.adapter})`);
    const [x0, y0, x1, y1] = s.heatmapImage;
    const box = await page.locator('#heatmap').boundingBox();
    const scale = box.width / (await page.evaluate(() => document.getElementById('heatmap').width));
    await page.mouse.move(box.x + (x0 + 1.5 * (x1 - x0) / 32) * scale, box.y + (y0 + 2.5 * (y1 - y0) / 60) * scale);
    await page.waitForFunction(() => /position 2, column 1/.test(document.getElementById('heatmap-hover').textContent));
    assert.match(await text(page, 'heatmap-hover'), new RegExp(`p = ${Math.cos(2).toFixed(4)}`));
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('the faster backend, automatically', () => {
  test('auto passes over a software WebGPU adapter (SwiftShader) and says why; compute=gpu still uses it', async () => {
    const auto = await open(`${origin}/`);
    assert.equal(await auto.page.evaluate(() => window.peLab.backend), 'cpu');
    const badge = await text(auto.page, 'backend');
    assert.match(badge, /^CPU · Rust → WebAssembly \(auto: the only WebGPU adapter is a software fallback, .*swiftshader.*\?compute=gpu uses it anyway\)$/i);
    await auto.page.evaluate(() => window.peLab.whenDrawn());
    assert.deepEqual(auto.problems, []);
    await auto.page.close();
    const forced = await open('compute=gpu');
    assert.equal(await forced.page.evaluate(() => window.peLab.backend), 'webgpu');
    assert.deepEqual(forced.problems, []);
    await forced.page.close();
  });
});

describe('limits per backend', () => {
  test('WebGPU takes n = 4096, d = 2048 and clamps beyond them; the CPU path clamps it with a notice', async () => {
    const gpu = await open('compute=gpu&n=4096&d=2048&delta=4095');
    const s = await stats(gpu.page);
    assert.equal(s.rows, 4096);
    assert.equal(s.columns, 2048);
    assert.ok(s.maxProjectionError < 5e-7, `${s.maxProjectionError}`);
    assert.ok(await gpu.page.locator('#notices').isHidden());
    await assertDrawn(gpu.page);
    const frameMs = await gpu.page.evaluate(() => window.peLab.lastFrameMs);
    console.log(`webgpu (SwiftShader) n=4096 d=2048: lastFrameMs ${frameMs.toFixed(0)}`);
    await screenshotOf(gpu.page, '#panel-heatmap', 'webgpu-largest');
    assert.deepEqual(gpu.problems, []);
    await gpu.page.close();

    // Beyond WebGPU's limits, a link and peLab.set are clamped to them with a notice. Small n
    // first: the largest view's frame on SwiftShader is what the page above already drew, and
    // the clamped set draws it once more.
    const over = await open('compute=gpu&d=99999999&n=16');
    assert.equal((await over.page.evaluate(() => window.peLab.state)).d, 2048);
    assert.ok(await over.page.locator('#notices').isVisible(), 'the notice must be visible');
    await over.page.evaluate(() => window.peLab.set({ d: 'abc', n: 1e9 }));
    await over.page.evaluate(() => window.peLab.whenDrawn());
    const clamped = await over.page.evaluate(() => window.peLab.state);
    assert.equal(clamped.d, 2048);
    assert.equal(clamped.n, 4096);
    assert.equal((await stats(over.page)).rows, 4096);
    await assertDrawn(over.page);
    assert.deepEqual(over.problems, []);
    await over.page.close();

    const cpu = await open('compute=cpu&n=4096&d=2048');
    const c = await stats(cpu.page);
    assert.equal(c.rows, 2048);
    assert.equal(c.columns, 1024);
    assert.ok(await cpu.page.locator('#notices').isVisible());
    assert.deepEqual(cpu.problems, []);
    await cpu.page.close();
  });
});

describe('falling back to the CPU', () => {
  test('a Chromium without WebGPU gets the CPU path, quietly in auto mode', async () => {
    const { page, problems } = await open(`${origin}/`, undefined, { webgpu: false });
    assert.equal(await page.evaluate(() => window.peLab.backend), 'cpu');
    assert.match(await text(page, 'backend'), /CPU · Rust → WebAssembly \(no WebGPU here\)/);
    assert.ok(await page.locator('#notices').isHidden());
    await assertDrawn(page);
    await screenshotOf(page, '#panel-heatmap', 'fallback-no-webgpu');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('asking for WebGPU where there is none says so and works on the CPU', async () => {
    const { page, problems } = await open('compute=gpu&n=3000', undefined, { webgpu: false });
    assert.equal(await page.evaluate(() => window.peLab.backend), 'cpu');
    assert.match(await text(page, 'notices-list'), /WebGPU was asked for/);
    assert.equal((await stats(page)).rows, 2048, 'n is clamped to the CPU limit');
    await assertDrawn(page);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a lost device switches to the CPU with a notice, and the page keeps working', async () => {
    const { page, problems } = await open('compute=gpu&n=3000&d=64');
    assert.equal(await page.evaluate(() => window.peLab.backend), 'webgpu');
    assert.equal(await page.evaluate(() => window.peLab.simulateDeviceLoss()), true);
    await page.waitForFunction(() => window.peLab.backend === 'cpu', null, { timeout: 10000 });
    await page.evaluate(() => window.peLab.whenDrawn());
    assert.match(await text(page, 'notices-list'), /WebGPU stopped working/);
    assert.match(await text(page, 'backend'), /^CPU/);
    assert.equal((await stats(page)).rows, 2048, 'n follows the CPU limit');
    await page.evaluate(() => window.peLab.set({ d: 40 }));
    await page.evaluate(() => window.peLab.whenDrawn());
    const s = await stats(page);
    assert.equal(s.columns, 40);
    assert.ok(s.maxProjectionError < 5e-7);
    await assertDrawn(page);
    await screenshotOf(page, '#panel-heatmap', 'fallback-device-lost');
    // The destroyed device may log its own loss; nothing else may go wrong.
    assert.deepEqual(problems.filter((p) => !/destroy|lost/i.test(p)), []);
    await page.close();
  });
});
