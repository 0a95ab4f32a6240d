// End-to-end: bursts of `peLab.set` calls, as a course page's script may make them, settle within
// 2 s with the last state drawn. A timing: scripts/e2e.sh runs this file alone (a second browser
// beside it would be part of what it measures); api.test.mjs has the rest of the contract.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drawn, open, setUp } from './helpers.mjs';

// A laptop's window, as a course page has (the other suites use a very tall one, in which every
// animation frame repaints a whole page of canvases in software).
setUp({ size: [1366, 768] });

describe('peLab.set under load', () => {
  for (const [label, start, burst, last, check] of [
    ['the default view', '', (k) => ({ d: 1 + (k % 1024) }), { d: 1000 }, (s) => s.columns === 1000],
    ['the largest CPU view (n = 2048, d = 1024)', '&n=2048&d=1024', (k) => ({ base: 100 + k }), { base: 5000 },
      (s) => Math.abs(s.longestPeriod - 2 * Math.PI * Math.pow(5000, (2 * 511) / 1024)) < 1e-6 * s.longestPeriod],
  ]) {
    test(`2,000 set() calls and one more settle within 2 s with the last state drawn: ${label}`, async () => {
      const { page, problems } = await open(start);
      await drawn(page);
      const ms = await page.evaluate(async ([burstSource, last]) => {
        const burst = eval(burstSource);
        const started = performance.now();
        for (let k = 0; k < 2000; k += 1) window.peLab.set(burst(k));
        window.peLab.set(last);
        await window.peLab.whenDrawn();
        return performance.now() - started;
      }, [burst.toString(), last]);
      const stats = await page.evaluate(() => window.peLab.stats);
      assert.ok(check(stats), `the last state is drawn: ${JSON.stringify({ columns: stats.columns, longestPeriod: stats.longestPeriod })}`);
      console.log(`burst of 2001 set() calls (${label}): settled in ${ms.toFixed(0)} ms, last frame ${stats.frameMs.toFixed(1)} ms`);
      assert.ok(ms < 2000, `burst took ${ms.toFixed(0)} ms`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

});
