// Where the training panel trains: the link key `trainer` (auto, cpu, gpu), the trial that times
// both trainers when the choice is the page's, training on the GPU in the worker (SwiftShader's
// WebGPU here), and the fall-back to the CPU when the GPU trainer cannot run. The sentence the
// page shows is `stats.panels.train.trainerReason`, written from the trial's numbers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, setUp } from './helpers.mjs';

// Pages with compute=gpu open in a browser with WebGPU, the others in one without.
setUp({ size: [1366, 900], scrollTo: '#panel-train' });

const trainStats = (page) => page.evaluate(() => window.peLab.stats.panels.train);
async function deviceLine(page) {
  await page.evaluate(() => window.peLab.whenDrawn());
  return page.locator('#train-device').textContent();
}
/** A steps-per-second figure as the page writes it. */
const rate = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

// Small runs: SwiftShader's WebGPU computes every dispatch on the CPU, about a step a second.
// One seed: the GPU path is the same code for every seed.
const SMALL = 'tenc=sinusoidal&tsteps=12&tseed=3&tseeds=1';

describe('where the training panel trains', () => {
  test('with the page on the CPU, auto trains on the CPU without a trial and says why', async () => {
    const { page, context, problems } = await open(`compute=cpu&${SMALL}`);
    const idle = await trainStats(page);
    assert.equal(idle.trainer, 'auto');
    assert.equal(idle.backend, 'cpu');
    assert.match(idle.trainerReason, /page computes on the CPU \(chosen by \?compute=cpu\)/);
    assert.equal(await deviceLine(page), idle.trainerReason);
    const stats = await page.evaluate(() => window.peLab.train());
    assert.equal(stats.done, true);
    assert.equal(stats.backend, 'cpu');
    assert.equal(stats.trial, null);
    // A bad value keeps auto, with a notice; the link writes what it reads.
    const bad = await open('compute=cpu&trainer=tpu');
    const notices = await bad.page.evaluate(() => window.peLab.stats.notices.join('\n'));
    assert.ok(notices.includes("trainer = 'tpu' is not auto, cpu or gpu"), notices);
    assert.equal((await trainStats(bad.page)).trainer, 'auto');
    await bad.context.close();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('with the page on WebGPU, a trial times both trainers and the faster trains', async () => {
    const { page, context, problems } = await open(`compute=gpu&${SMALL}`);
    assert.equal(await page.evaluate(() => window.peLab.backend), 'webgpu');
    assert.equal((await trainStats(page)).backend, 'auto');
    const pending = page.evaluate(() => window.peLab.train());
    await page.waitForFunction(() => window.peLab.stats.panels.train.backend === 'measuring', null, { timeout: 10000 });
    assert.match(await deviceLine(page), /^Timing the GPU and the CPU trainer/);
    const stats = await pending;
    assert.equal(stats.done, true);
    const trial = stats.trial;
    console.log(`# trial on SwiftShader: CPU ${trial.cpuStepsPerSecond.toFixed(1)} steps/s, GPU ${trial.gpuStepsPerSecond?.toFixed(2)} steps/s (set-up ${trial.gpuSetupSeconds?.toFixed(1)} s${trial.gpuFirstStepOnly ? ', first step only' : ''}); trained on ${stats.backend}`);
    assert.equal(trial.encoding, 'sinusoidal');
    assert.ok(trial.cpuStepsPerSecond > 0 && trial.gpuStepsPerSecond > 0, JSON.stringify(trial));
    // The decision is the one the numbers make, and the sentence quotes them.
    const gpuFaster = trial.gpuStepsPerSecond >= 1.25 * trial.cpuStepsPerSecond;
    assert.equal(stats.backend, gpuFaster ? 'gpu' : 'cpu');
    assert.ok(stats.trainerReason.includes(`${rate(trial.cpuStepsPerSecond)} steps a second`), stats.trainerReason);
    assert.ok(stats.trainerReason.includes(trial.gpuFirstStepOnly
      ? `${(1 / trial.gpuStepsPerSecond).toFixed(2)} s for its first step`
      : rate(trial.gpuStepsPerSecond)), stats.trainerReason);
    assert.equal(await deviceLine(page), stats.trainerReason);
    await page.evaluate(() => window.peLab.whenDrawn());
    assert.match(await page.locator('#train-progress').textContent(), new RegExp(`on the ${stats.backend.toUpperCase()}\\)\\.$`));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('trainer=gpu trains on the GPU: the same curves again, and the CPU\'s to float rounding', async () => {
    const runs = [];
    for (let k = 0; k < 2; k++) {
      const { page, context, problems } = await open(`compute=gpu&trainer=gpu&${SMALL}`);
      const stats = await page.evaluate(() => window.peLab.train());
      assert.equal(stats.done, true);
      assert.equal(stats.backend, 'gpu');
      assert.equal(stats.trainer, 'gpu');
      assert.match(stats.trainerReason, /^Training on the GPU \(WebGPU\), as the link asks/);
      assert.ok(new URL(page.url()).search.includes('trainer=gpu'), page.url());
      await page.evaluate(() => window.peLab.whenDrawn());
      assert.match(await page.locator('#train-progress').textContent(), /on the GPU\)\.$/);
      runs.push(stats);
      assert.deepEqual(problems, []);
      await context.close();
    }
    const gpu = runs[0].results.sinusoidal;
    assert.deepEqual(runs[1].results.sinusoidal.loss, gpu.loss, 'the same link, the same GPU: the same bits');
    assert.deepEqual(runs[1].results.sinusoidal.accuracyByLength, gpu.accuracyByLength);
    const { page, context } = await open(`compute=cpu&trainer=cpu&${SMALL}`);
    const cpu = (await page.evaluate(() => window.peLab.train())).results.sinusoidal;
    await context.close();
    assert.equal(gpu.loss.length, 12);
    const worst = Math.max(...gpu.loss.map((g, k) => Math.abs(g - cpu.loss[k]) / Math.abs(cpu.loss[k])));
    console.log(`# GPU against CPU trainer, 12 steps: largest relative loss difference ${worst.toExponential(2)}`);
    assert.ok(worst < 1e-3, `${worst}`);
  });

  test('where the GPU trainer cannot run, the run falls back to the CPU and says why', async () => {
    const { page, context, problems } = await open(`compute=cpu&trainer=gpu&${SMALL}`);
    const stats = await page.evaluate(() => window.peLab.train());
    assert.equal(stats.done, true);
    assert.equal(stats.backend, 'cpu');
    assert.match(stats.trainerReason, /^Training on the CPU: the GPU trainer failed \(.+\), so its encodings started again on the CPU from step 0\.$/);
    assert.equal(await deviceLine(page), stats.trainerReason);
    // Started again from step 0 on the CPU: exactly trainer=cpu's curve.
    const cpu = await open(`compute=cpu&trainer=cpu&${SMALL}`);
    const reference = await cpu.page.evaluate(() => window.peLab.train());
    assert.deepEqual(stats.results.sinusoidal.loss, reference.results.sinusoidal.loss);
    await cpu.context.close();
    assert.deepEqual(problems, []);
    await context.close();
  });
});
