// The attention panels at the largest sizes on both compute paths: every panel draws and a
// lesson-only update stays live (within 3 s). A timing: scripts/e2e.sh runs this file alone (a
// second browser beside it would be part of what it measures); panels.test.mjs has the rest.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertCanvasesDrawn, drawn, open, panels, screenshot, setNumber, setUp, text,
} from './helpers.mjs';

setUp();

const BACKEND = { cpu: 'cpu', gpu: 'webgpu' };

for (const compute of ['cpu', 'gpu']) {
  const on = `compute=${compute}`;
  describe(`${compute}: the largest sizes`, () => {
    test('the largest sizes draw every panel and stay live', async () => {
      const query = compute === 'gpu' ? 'd=2048&n=4096' : 'd=1024&n=2048';
      const { page, problems } = await open(`${on}&${query}`);
      const p = await panels(page);
      const s = p.similarity;
      assert.ok(s.capped && s.heatmapRows >= 100, `Gram rows ${s.heatmapRows}`);
      assert.equal(s.heatmapSource, BACKEND[compute]);
      assert.match(await text(page, 'sim-heatmap-note'), /only/);
      assert.ok(p.order.withoutPe < 1e-5 && p.order.withPe > 1e-2);
      assert.equal(p.heads.maskedWeightsZero, true);
      const times = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Math.round(v.ms)]));
      const frame = await page.evaluate(() => window.peLab.lastFrameMs);
      // A panel-only change (the sentence) redraws only the panels that use it. Timed from a
      // settled page: `whenDrawn` waits for the first frame's GPU work (on SwiftShader the RoPE
      // heatmap alone runs for seconds after the frame is composed), which is not this update's.
      await drawn(page);
      const started = Date.now();
      await page.evaluate(() => window.peLab.set({ valid: 4 }));
      await drawn(page);
      const update = Date.now() - started;
      assert.equal((await panels(page)).attention.validLen, 4);
      // The complexity panel at the largest size: the CPU refuses to time it, the GPU may.
      if (compute === 'cpu') {
        await setNumber(page, 'cn-number', 4096);
        await setNumber(page, 'cd-number', 2048);
        await page.evaluate(() => { document.getElementById('complexity-more').open = true; });
        await page.locator('#measure-button').click();
        await page.waitForFunction(() => /too large for the CPU path at this size/.test(document.getElementById('complexity-measured').textContent));
      }
      await assertCanvasesDrawn(page);
      await screenshot(page, `panels-${compute}-largest`);
      console.log(`${compute} ${query}: first frame ${frame.toFixed(0)} ms, panel ms ${JSON.stringify(times)}, a lesson-only update ${update} ms`);
      assert.ok(update < 3000, `a lesson-only update took ${update} ms`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}
