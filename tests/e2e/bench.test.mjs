// The in-page benchmark (`peLab.bench()`): P, the Gram matrix and the attention weights in this
// page's WebAssembly and in plain JavaScript doing the same work in the same page. A benchmark, not
// a timed test: it writes the figures to tests/e2e/results/bench.json and prints them; it only
// checks that both sides computed the same numbers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { launch, openPage, startServer } from './helpers.mjs';

const RESULTS = process.env.PE_LAB_RESULTS || 'tests/e2e/results';

let server, origin, browser;
before(async () => {
  ({ server, origin } = await startServer());
  browser = await launch({ webgpu: false });
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('peLab.bench(): wasm against plain JavaScript, same page, same results', async () => {
  const { page, problems } = await openPage(browser, `${origin}/?compute=cpu`, { width: 1366, height: 768 });
  await page.evaluate(() => window.peLab.whenDrawn());
  const result = await page.evaluate(() => window.peLab.bench());
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(`${RESULTS}/bench.json`, `${JSON.stringify(result, null, 2)}\n`);
  for (const line of result.lines) {
    console.log(`# bench ${line.work} ${line.n}×${line.d}: wasm ${line.wasmMs.toFixed(1)} ms, JS ${line.jsMs.toFixed(1)} ms, `
      + `${line.speedup.toFixed(1)}× (max |difference| ${line.maxDifference.toExponential(1)})`);
  }
  assert.equal(result.lines.length, 3);
  for (const line of result.lines) {
    assert.ok(line.wasmMs > 0 && line.jsMs > 0, JSON.stringify(line));
    // Both computed the same numbers. The wasm side sums d = 512 products in float32, the
    // JavaScript side in float64: they differ by at most γ_d·Σ_k|p_ik p_jk| with γ_d ≈ d·2⁻²⁴, so
    // ≤ 512·6e-8·512 ≈ 1.6e-2 in the Gram matrix (entries of P are at most 1 in size); P and the
    // weights (softmax is well conditioned, weights ≤ 1) much less.
    assert.ok(line.maxDifference <= 1.6e-2, `${line.work}: the two results differ by ${line.maxDifference}`);
  }
  // Bad options are clamped, never a frozen tab.
  const small = await page.evaluate(() => window.peLab.bench({ n: 8, d: -4, runs: 'x' }));
  assert.deepEqual([small.lines[1].n, small.lines[1].d, small.runs], [8, 1, 5]);
  assert.deepEqual(problems, []);
  await page.close();
});
