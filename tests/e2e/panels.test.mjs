// End-to-end tests of the attention panels on both compute paths: each panel's controls
// are driven, the numbers in peLab.stats.panels are checked against the seeds and the chapter,
// canvases must not be blank, extreme settings must draw, and screenshots (panels-*) are saved.
// The largest sizes, which are timed, are panels-largest.test.mjs (scripts/e2e.sh runs it alone).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PANEL_CANVASES, assertCanvasesDrawn, drawn, open, panels, reveal, screenshot, setNumber, setUp, text,
  waitForUrlParam,
} from './helpers.mjs';

setUp();

const BACKEND = { cpu: 'cpu', gpu: 'webgpu' };
const close = (a, b, tol) => Math.abs(a - b) <= tol;
const repeat = (value, times) => Array.from({ length: times }, () => value);
/** The RGB at the centre of cell (row, column) of the attention heatmap (`stats…attention.image`). */
function attentionCell(page, row, column) {
  return page.evaluate(([row, column]) => {
    const a = window.peLab.stats.panels.attention;
    const [x0, y0, x1, y1] = a.image;
    const n = a.tokens.length;
    const x = Math.floor(x0 + (column + 0.5) * (x1 - x0) / n);
    const y = Math.floor(y0 + (row + 0.5) * (y1 - y0) / n);
    const c = document.getElementById('attn-heatmap');
    return Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
  }, [row, column]);
}

for (const compute of ['cpu', 'gpu']) {
  const on = `compute=${compute}`;
  // The attention, heads and order panels compute on the CPU on either backend (WebGPU draws P,
  // the similarity Gram, the RoPE and ALiBi scores and times the complexity panel's Measure): a
  // test that drives only them runs once, on the CPU path; on SwiftShader it took 100 s more and
  // tested nothing the CPU run had not. gpu.test.mjs compares the two backends' pages.
  const onTheCpuPathOnly = compute === 'cpu' ? test : () => {};

  describe(`${compute}: the attention panels at the default settings`, () => {
    test('every panel shows its number, as the seeds and the chapter say', async () => {
      const { page, problems } = await open(on);
      assert.equal(await page.evaluate(() => window.peLab.backend), BACKEND[compute]);
      const p = await panels(page);

      // 1. Attention weights: 8 tokens of the seeds' sentence, rows sum to 1, no mask.
      const a = p.attention;
      assert.deepEqual(a.tokens, ['I', 'would', 'like', '3', 'oranges', 'and', '4', 'bananas']);
      assert.equal(a.weights.length, 8);
      for (const row of a.weights) assert.ok(close(row.reduce((s, w) => s + w, 0), 1, 1e-5));
      assert.equal(a.validLen, undefined);
      assert.ok(a.rowSumError < 1e-6);
      assert.ok(a.diagonalMean > 0 && a.diagonalMean < 1);

      // 2. Multi-head: each sequence's length in all of its heads (repeat, not tile).
      assert.equal(p.heads.heads, 4);
      assert.deepEqual(p.heads.divisors, [1, 2, 4, 8, 16, 32]);
      assert.deepEqual(p.heads.perHeadValidLens, [repeat(3, 4), repeat(2, 4)]);
      assert.deepEqual(p.heads.tiledValidLens, [[3, 2, 3, 2], [3, 2, 3, 2]]);
      assert.equal(p.heads.maskedWeightsZero, true);
      assert.match(await text(page, 'heads-readout'), /sequence 0: heads 0–3 use valid_len 3 \(np\.tile would have given 3, 2, 3, 2\); sequence 1: heads 0–3 use valid_len 2/);

      // 3. Order: the seeds' swap; without P only rounding, with P large; masked: not equivariant.
      const o = p.order;
      assert.equal(o.permutedTokens.join(' '), 'I would like 4 oranges and 3 bananas');
      assert.ok(o.withoutPe < 1e-5, `without P: ${o.withoutPe}`);
      assert.ok(o.withPe > 1e-2, `with P: ${o.withPe}`);
      assert.ok(o.maskedWithoutPe > 1e-2, `masked: ${o.maskedWithoutPe}`);
      assert.equal(await text(page, 'order-without'), o.withoutPe.toExponential(2));
      assert.match(await text(page, 'order-masked'), /not equivariant/);

      // 4. Similarity: the forum's numbers at d = 16; constant diagonals; the curves coincide.
      const s = p.similarity;
      assert.equal(s.forum.p5p6.toFixed(4), '7.4852');
      assert.equal(s.forum.p105p106.toFixed(4), '7.4852');
      assert.equal(s.forum.p5p10.toFixed(4), '6.1370');
      assert.match(await text(page, 'sim-forum'), /p₅·p₆ = 7\.4852, p₁₀₅·p₁₀₆ = 7\.4852, p₅·p₁₀ = 6\.1370/);
      assert.ok(close(s.p5p6, s.p105p106, 1e-5), `${s.p5p6} vs ${s.p105p106}`);
      assert.equal(s.heatmapSource, BACKEND[compute]);
      assert.equal(s.heatmapRows, 60);
      assert.equal(s.capped, false);
      assert.ok(s.diagonalSpread < 1e-5, `diagonal spread ${s.diagonalSpread}`);
      assert.ok(s.curveMaxDifference < 1e-5);
      assert.ok(s.normalizedShort > s.normalizedLong * 3.9, 'i/n similarity changes with n');
      assert.ok(close(s.distance01, s.distance4041, 1e-5));

      // 5. Binary: 6 bits for 0…59, periods 2…64; the fastest pair's period is 2π.
      assert.equal(p.binary.bits, 6);
      assert.deepEqual(p.binary.bitPeriods, [2, 4, 8, 16, 32, 64]);
      assert.ok(close(p.binary.pairPeriods[0], 2 * Math.PI, 1e-12));
      assert.equal(p.binary.pSource, BACKEND[compute]);

      // 6. Complexity at n = 60, d = 32, k = 3; the crossover n = d.
      const c = p.complexity;
      assert.deepEqual([c.n, c.d, c.k], [60, 32, 3]);
      assert.equal(c.cnn.operations, 3 * 60 * 32 * 32);
      assert.equal(c.rnn.operations, 60 * 32 * 32);
      assert.equal(c.selfAttention.operations, 60 * 60 * 32);
      assert.deepEqual([c.rnn.sequentialOperations, c.rnn.maxPathLength, c.selfAttention.maxPathLength], [60, 60, 1]);
      assert.equal(c.crossoverN, 32);
      // Small sizes are measured by themselves right after the frame that shows them, and
      // `whenDrawn` waits for that timing: no polling, no timer.
      await page.evaluate(() => window.peLab.whenDrawn());
      const measured = (await panels(page)).complexity;
      // The clock ticks in 0.1 ms steps and one run of this size takes less: the CPU repeats the
      // runs until they can be read and gives the mean.
      assert.ok(measured.measuredAttentionMs > 0, `no automatic timing: ${JSON.stringify(measured)}`);
      assert.ok(measured.measuredRuns >= 1);
      if (compute === 'cpu') assert.match(measured.measureNote, /mean of \d+ runs?/);
      assert.deepEqual([measured.measuredN, measured.measuredD, measured.measuredOn], [60, 32, BACKEND[compute]]);

      // 7. Scale and add vs concatenate.
      const sc = p.scaling;
      assert.ok(close(sc.encodingRms, Math.SQRT1_2, 1e-6));
      assert.ok(close(sc.embeddingRms, 1 / Math.sqrt(32), 0.05));
      assert.ok(close(sc.scaledEmbeddingRms, 1, 0.1));
      assert.deepEqual(sc.pair.tokens, ['3', '4']);
      assert.ok(close(sc.pair.concatenated, sc.pair.xx + sc.pair.pp, 1e-4));
      assert.ok(close(sc.pair.added, sc.pair.xx + sc.pair.crossTerms + sc.pair.pp, 1e-4));

      await assertCanvasesDrawn(page);
      assert.ok(await page.locator('#notices').isHidden());
      assert.ok(await page.locator('#error').isHidden());
      await screenshot(page, `panels-${compute}-default`);
      console.log(`${compute} defaults: attention diagonal mean ${a.diagonalMean.toFixed(4)}, strongest other ${a.tokens[a.strongestOther[0]]}→${a.tokens[a.strongestOther[1]]} ${a.strongestOtherWeight.toFixed(4)}; `
        + `order without P ${o.withoutPe.toExponential(2)}, with P ${o.withPe.toFixed(4)}, masked ${o.maskedWithoutPe.toFixed(4)}; `
        + `similarity p5p6 ${s.p5p6.toFixed(4)} (forum ${s.forum.p5p6.toFixed(4)}/${s.forum.p105p106.toFixed(4)}/${s.forum.p5p10.toFixed(4)}), spread ${s.diagonalSpread.toExponential(1)}; `
        + `attention kernel ${measured.measuredAttentionMs.toFixed(2)} ms; scaling x ${sc.embeddingRms.toFixed(4)}, x√d ${sc.scaledEmbeddingRms.toFixed(4)}, P ${sc.encodingRms.toFixed(4)}, cross ${sc.pair.crossTerms.toFixed(4)}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });

  describe(`${compute}: driving the panels' controls`, () => {
    onTheCpuPathOnly('sentence, valid_len (masked weights exactly 0, hatched), toggles, hover, URL', async () => {
      const { page, problems } = await open(on);
      // valid_len = 5: keys 5–7 masked in every row, exactly 0.
      await setNumber(page, 'valid-number', 5);
      // Drawn (not only computed) with the mask: the panel is on screen, its image has a place.
      await page.locator('#attn-heatmap').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const a = window.peLab.stats.panels.attention;
        return a.validLen === 5 && a.image[2] > 0;
      });
      let a = (await panels(page)).attention;
      assert.equal(a.maskedWeightsZero, true);
      assert.equal(a.maskedCount, 8 * 3);
      for (const row of a.weights) {
        assert.deepEqual(row.slice(5), [0, 0, 0]);
        assert.ok(close(row.reduce((s, w) => s + w, 0), 1, 1e-5));
      }
      // A masked cell is one of the two hatching greys (not on viridis); a valid one is not grey.
      const masked = await attentionCell(page, 2, 6);
      assert.ok(masked[0] === masked[1] && masked[1] === masked[2] && [150, 226].includes(masked[0]), `masked cell ${masked}`);
      const valid = await attentionCell(page, 2, 2);
      assert.ok(!(valid[0] === valid[1] && valid[1] === valid[2]), `valid cell ${valid} is grey`);
      await waitForUrlParam(page, 'valid', '5');
      assert.equal(await page.locator('#valid-range').inputValue(), '5');

      // Hover: the weight of a cell, and "masked" for a masked key.
      await page.locator('#attn-heatmap').scrollIntoViewIfNeeded();
      const box = await page.locator('#attn-heatmap').boundingBox();
      const scale = box.width / (await page.evaluate(() => document.getElementById('attn-heatmap').width));
      const [x0, y0, x1, y1] = a.image;
      const hover = async (row, column) => {
        await page.mouse.move(box.x + (x0 + (column + 0.5) * (x1 - x0) / 8) * scale, box.y + (y0 + (row + 0.5) * (y1 - y0) / 8) * scale);
      };
      await hover(3, 1);
      await page.waitForFunction(() => /query “3” \(row 3\) → key “would” \(column 1\): weight/.test(document.getElementById('attn-hover').textContent));
      assert.match(await text(page, 'attn-hover'), new RegExp(`weight ${a.weights[3][1].toFixed(4)}`));
      assert.ok(await page.locator('#attn-tooltip').isVisible());
      await hover(3, 7);
      await page.waitForFunction(() => /masked \(key 7 ≥ valid_len 5\), weight exactly 0/.test(document.getElementById('attn-hover').textContent));
      await screenshot(page, `panels-${compute}-valid-len-hover`);

      // The sentence: typing redraws the panels; without P the same word gives the same row.
      await page.locator('#attn-text').fill('a b a c');
      await page.waitForFunction(() => window.peLab.stats.panels.attention.tokens.join() === 'a,b,a,c');
      await page.locator('#attn-pe').uncheck();
      await page.waitForFunction(() => window.peLab.stats.panels.attention.positionalEncoding === false);
      a = (await panels(page)).attention;
      assert.equal(a.validLen, undefined, 'valid_len 5 ≥ 4 tokens: no mask');
      // Query "a" (rows 0 and 2) sees the same keys: identical rows.
      assert.deepEqual(a.weights[0], a.weights[2]);
      await page.locator('#attn-pe').check();
      await page.waitForFunction(() => window.peLab.stats.panels.attention.positionalEncoding === true);
      a = (await panels(page)).attention;
      assert.notDeepEqual(a.weights[0], a.weights[2], 'with P the two "a" differ');
      const scaledDiagonal = a.diagonalMean;
      await reveal(page, 'attn-scale');
      await page.locator('#attn-scale').uncheck();
      await page.waitForFunction(() => window.peLab.stats.panels.attention.scaleEmbeddings === false);
      assert.notEqual((await panels(page)).attention.diagonalMean, scaledDiagonal);
      await waitForUrlParam(page, 'text', 'a b a c');
      await waitForUrlParam(page, 'pe', '1');
      await waitForUrlParam(page, 'sqrtd', '0');
      assert.deepEqual(await page.evaluate(() => window.peLab.lesson.tokens), ['a', 'b', 'a', 'c']);
      // The same view from its link.
      const link = await page.evaluate(() => location.href);
      const again = await open(link);
      assert.deepEqual((await panels(again.page)).attention.weights, (await panels(page)).attention.weights);
      assert.deepEqual(again.problems, []);
      await again.page.close();
      await assertCanvasesDrawn(page);
      assert.deepEqual(problems, []);
      await page.close();
    });

    onTheCpuPathOnly('heads select (divisors of d), valid_lens, and a d the heads do not divide', async () => {
      const { page, problems } = await open(on);
      const options = await page.locator('#heads-select option').evaluateAll((o) => o.map((e) => e.value));
      assert.deepEqual(options, ['1', '2', '4', '8', '16', '32']);
      await page.locator('#heads-select').selectOption('8');
      await page.waitForFunction(() => window.peLab.stats.panels.heads.heads === 8);
      assert.deepEqual((await panels(page)).heads.perHeadValidLens, [repeat(3, 8), repeat(2, 8)]);
      await setNumber(page, 'lens0', 1);
      await setNumber(page, 'lens1', 4);
      await page.waitForFunction(() => window.peLab.stats.panels.heads.validLens.join() === '1,4');
      const h = (await panels(page)).heads;
      assert.deepEqual(h.perHeadValidLens, [repeat(1, 8), repeat(4, 8)]);
      assert.deepEqual(h.tiledValidLens, [[1, 4, 1, 4, 1, 4, 1, 4], [1, 4, 1, 4, 1, 4, 1, 4]]);
      assert.equal(h.maskedWeightsZero, true);
      // Sequence 0 masks keys 1–3 in every head.
      for (const map of h.weights[0]) for (const row of map) assert.deepEqual(row.slice(1), [0, 0, 0]);
      await waitForUrlParam(page, 'heads', '8');
      await waitForUrlParam(page, 'lens', '1,4');
      // d = 33: 8 does not divide it; the nearest divisor (11) with a notice; the select follows.
      await setNumber(page, 'd-number', 33);
      await page.waitForFunction(() => window.peLab.stats.panels.heads.heads === 11);
      assert.match(await text(page, 'notices-list'), /heads = 8 does not divide d = 33; using heads = 11/);
      const odd = await page.locator('#heads-select option').evaluateAll((o) => o.map((e) => e.value));
      assert.deepEqual(odd, ['1', '3', '11', '33']);
      assert.equal(await page.locator('#heads-select').inputValue(), '11');
      await assertCanvasesDrawn(page);
      await screenshot(page, `panels-${compute}-heads-d33`);
      assert.deepEqual(problems, []);
      await page.close();
    });

    onTheCpuPathOnly('shuffle, the seeds\' swap, no permutation; the masked variant', async () => {
      const { page, problems } = await open(on);
      const before = (await panels(page)).order;
      await page.locator('#order-shuffle').click();
      await page.waitForFunction((prev) => window.peLab.stats.panels.order.permutation.join() !== prev, before.permutation.join());
      let o = (await panels(page)).order;
      assert.equal(o.movesTokens, true);
      assert.deepEqual([...o.permutation].sort((x, y) => x - y), [0, 1, 2, 3, 4, 5, 6, 7]);
      assert.ok(o.withoutPe < 1e-5, `shuffle without P ${o.withoutPe}`);
      assert.ok(o.withPe > 1e-2, `shuffle with P ${o.withPe}`);
      await waitForUrlParam(page, 'perm', '1');
      await page.locator('#order-shuffle').click();
      await page.waitForFunction(() => window.peLab.lesson.permutation === '2');
      await page.locator('#order-reset').click();
      await page.waitForFunction(() => window.peLab.stats.panels.order.movesTokens === false);
      o = (await panels(page)).order;
      assert.equal(o.withoutPe, 0);
      assert.equal(o.withPe, 0);
      await page.locator('#order-swap').click();
      await page.waitForFunction(() => window.peLab.stats.panels.order.permutedTokens.join(' ') === 'I would like 4 oranges and 3 bananas');
      // The other sentence of the seeds' pair, swapped back.
      await page.locator('#attn-text').fill('I would like 4 oranges and 3 bananas');
      await page.waitForFunction(() => window.peLab.stats.panels.order.permutedTokens.join(' ') === 'I would like 3 oranges and 4 bananas');
      o = (await panels(page)).order;
      assert.ok(o.withoutPe < 1e-5 && o.withPe > 1e-2);
      // A sentence without "3" and "4": the first and last tokens, said so.
      await page.locator('#attn-text').fill('the river bank');
      await page.waitForFunction(() => window.peLab.stats.panels.order.permutedTokens.join(' ') === 'bank river the');
      assert.match(await text(page, 'order-description'), /first and last tokens/);
      await assertCanvasesDrawn(page, ['order-chart']);
      await screenshot(page, `panels-${compute}-order`);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('similarity: the forum numbers live at d = 16, i and k, the distance view', async () => {
      const { page, problems } = await open(on);
      await page.evaluate(() => window.peLab.set({ d: 16 }));
      await drawn(page);
      let s = (await panels(page)).similarity;
      assert.equal(s.d, 16);
      assert.equal(s.p5p6.toFixed(4), '7.4852');
      assert.equal(s.p105p106.toFixed(4), '7.4852');
      assert.equal(s.p5p10.toFixed(4), '6.1370');
      assert.match(await text(page, 'sim-live'), /At d = 16, base 10000: p₅·p₆ = 7\.4852, p₁₀₅·p₁₀₆ = 7\.4852, p₅·p₁₀ = 6\.1370/);
      assert.equal(s.curve[1].toFixed(4), '7.4852');
      assert.equal(s.curve[5].toFixed(4), '6.1370');
      await setNumber(page, 'simi-number', 100);
      await setNumber(page, 'simk-number', 200);
      await page.waitForFunction(() => window.peLab.stats.panels.similarity.maxOffset === 200);
      s = (await panels(page)).similarity;
      assert.equal(s.position, 100);
      assert.equal(s.curve.length, 201);
      assert.ok(s.curveMaxDifference < 1e-5);
      assert.match(await text(page, 'sim-norm-readout'), /not inside|no neighbour/);
      await page.locator('#simview-select').selectOption('dist');
      await page.waitForFunction(() => window.peLab.stats.panels.similarity.view === 'dist');
      s = (await panels(page)).similarity;
      assert.equal(s.heatmapSource, 'cpu', 'distances come from the CPU on both backends');
      await waitForUrlParam(page, 'simview', 'dist');
      await waitForUrlParam(page, 'simi', '100');
      await assertCanvasesDrawn(page, ['sim-heatmap', 'sim-curve', 'sim-norm']);
      await screenshot(page, `panels-${compute}-similarity-dist`);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('complexity sliders, the crossover n = d, Measure; scaling token selects', async () => {
      const { page, problems } = await open(on);
      await setNumber(page, 'cd-number', 128);
      await setNumber(page, 'cn-number', 256);
      await setNumber(page, 'k-number', 5);
      await page.waitForFunction(() => window.peLab.stats.panels.complexity.k === 5);
      let c = (await panels(page)).complexity;
      assert.deepEqual([c.n, c.d, c.k], [256, 128, 5]);
      assert.equal(c.crossoverN, 128);
      assert.equal(c.crossoverNCnn, 640);
      assert.equal(c.selfAttention.operations, 256 * 256 * 128);
      // Stacked width-k convolutions connect positions 0 and n − 1 after ⌈(n−1)/(k−1)⌉ layers
      // (d2l's table writes O(n/k)).
      assert.equal(c.cnn.maxPathLength, Math.ceil(255 / 4));
      assert.match(await text(page, 'cx-sa-ops'), /8\D?388\D?608/);
      // The takeaway answers why self-attention is slow at this panel's n = 256, d = 128, k = 5
      // (n²·d, past n = d and n = k·d), with no path length (the path figure draws 16 positions).
      const complexityTakeaway = await text(page, 'complexity-takeaway');
      assert.match(complexityTakeaway, /^Long sequences are slow because self-attention scores every pair of positions: n²·d = 8\D?388\D?608 operations at n = 256, d = 128, /);
      assert.match(complexityTakeaway, /past n = d = 128, than the CNN past n = k·d = 640\.$/);
      assert.doesNotMatch(complexityTakeaway, /path/);
      // The timing is a developer's read-out: behind More.
      assert.ok(await page.locator('#measure-button').isHidden());
      await page.locator('#complexity-more > summary').click();
      await page.locator('#measure-button').click();
      await page.waitForFunction(() => {
        const c = window.peLab.stats.panels.complexity;
        return c.measuredN === 256 && c.measuredD === 128 && c.measuredAttentionMs > 0;
      }, null, { timeout: 30000 });
      c = (await panels(page)).complexity;
      assert.equal(c.measuredOn, BACKEND[compute]);
      assert.equal(c.measuredCurrent, true);
      // Three significant figures, never a small time rounded to "0.00 ms".
      assert.match(await text(page, 'complexity-measured'), /Measured: (?!0\.00 )\d+(\.\d+)? ms/);
      assert.ok(c.measuredRuns >= 1);
      await waitForUrlParam(page, 'cn', '256');
      // Back to the global n and d.
      await page.locator('#cx-follow').click();
      await page.waitForFunction(() => window.peLab.stats.panels.complexity.n === 60);
      await page.waitForFunction(() => !new URL(location.href).searchParams.has('cn'));

      // Scaling: the add-vs-concatenate pair.
      await page.locator('#ti-select').selectOption('0');
      await page.locator('#tj-select').selectOption('7');
      await page.waitForFunction(() => window.peLab.stats.panels.scaling.pair.j === 7);
      const pair = (await panels(page)).scaling.pair;
      assert.deepEqual(pair.tokens, ['I', 'bananas']);
      assert.ok(close(pair.concatenated, pair.xx + pair.pp, 1e-4));
      await assertCanvasesDrawn(page, ['complexity-chart', 'scale-chart', 'scale-dots']);
      await screenshot(page, `panels-${compute}-complexity-measured`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });

  describe(`${compute}: extreme settings`, () => {
    onTheCpuPathOnly('an empty sentence, then 70 words (64 kept), then bad links: notices, no errors', async () => {
      const { page, problems } = await open(on);
      await page.locator('#attn-text').fill('');
      await page.waitForFunction(() => window.peLab.stats.panels.attention.tokens.length === 0);
      let p = await panels(page);
      assert.deepEqual(p.order.permutation, []);
      assert.equal(p.scaling.pair, undefined);
      assert.ok(p.heads.sequences.flat().every((t) => t === '<pad>'));
      assert.match(await text(page, 'attn-summary'), /No tokens/);
      await assertCanvasesDrawn(page);
      await screenshot(page, `panels-${compute}-empty-sentence`);
      const words = Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ');
      await page.locator('#attn-text').fill(words);
      await page.waitForFunction(() => window.peLab.stats.panels.attention.tokens.length === 64);
      assert.match(await text(page, 'notices-list'), /70 words; the attention panels use the first 64/);
      await setNumber(page, 'valid-number', 10);
      await page.waitForFunction(() => window.peLab.stats.panels.attention.validLen === 10);
      p = await panels(page);
      assert.equal(p.attention.maskedWeightsZero, true);
      assert.equal(p.attention.maskedCount, 64 * 54);
      assert.ok(p.order.withoutPe < 1e-5);
      await assertCanvasesDrawn(page);
      await screenshot(page, `panels-${compute}-64-tokens`);
      assert.deepEqual(problems, []);
      await page.close();

      const bad = await open(`${on}&valid=abc&pe=maybe&heads=5&lens=9,x&perm=banana&simk=0&k=NaN&cn=0`);
      const lesson = await bad.page.evaluate(() => window.peLab.lesson);
      assert.equal(lesson.heads, 4);
      assert.deepEqual(lesson.validLens, [4, 2]);
      assert.equal(lesson.permutation, 'swap');
      assert.equal(lesson.simMaxOffset, 1);
      assert.equal(lesson.complexityN, 1);
      assert.ok(await bad.page.locator('#notices').isVisible());
      const notices = await text(bad.page, 'notices-list');
      for (const word of ['valid_len', 'pe', 'heads = 5', 'valid_lens[0]', 'perm', 'simk', 'k =', 'cn']) {
        assert.ok(notices.includes(word), `no notice about ${word}: ${notices}`);
      }
      await assertCanvasesDrawn(bad.page);
      assert.deepEqual(bad.problems, []);
      await bad.page.close();
    });

    test('n = 1, d = 1 (one head, no pairs) and odd d draw every panel', async () => {
      const { page, problems } = await open(`${on}&n=1&d=1`);
      const p = await panels(page);
      assert.equal(p.heads.heads, 1);
      assert.deepEqual(p.heads.divisors, [1]);
      assert.equal(p.similarity.heatmapRows, 1);
      assert.equal(p.binary.bits, 1);
      assert.equal(p.complexity.crossoverN, 1);
      assert.ok(p.order.withoutPe < 1e-5);
      assert.match(await text(page, 'sim-norm-readout'), /no neighbour/);
      await assertCanvasesDrawn(page, PANEL_CANVASES.filter((id) => id !== 'sim-norm'));
      await screenshot(page, `panels-${compute}-n1-d1`);
      await page.evaluate(() => window.peLab.set({ n: 100, d: 33 }));
      await drawn(page);
      const odd = await panels(page);
      assert.equal(odd.heads.heads, 3, 'heads follow d silently when not chosen');
      assert.ok(odd.similarity.diagonalSpread > 1e-5, 'odd d: diagonals vary');
      assert.match(await text(page, 'sim-heatmap-note'), /odd d/);
      await assertCanvasesDrawn(page);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

// The projection panel (issue 31): its own δ beside the figure, bound to the bar's δ, and labels
// that are placed (model::projection_figure) so that none covers another label, a point, an arrow
// or the plot's edge. The placed boxes come from `stats.panels.projection` at device pixel ratio 2, on a
// laptop, a phone and both projectors, at the settings where they used to collide or be cut.
describe('the projection panel: its own δ and labels that never collide', () => {
  const VIEWS = [
    ['laptop', 1366, 768, ''],
    ['phone', 390, 844, ''],
    ['projector 1024', 1024, 768, '&present=1'],
    ['projector 1920', 1920, 1080, '&present=1'],
  ];
  const SETTINGS = [{}, { pos: 9 }, { delta: -30 }, { pair: 0, delta: 5 }, { n: 2048, pos: 2000 }, { delta: 0 }, { pair: 15 }];
  const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const touches = ([x0, y0, x1, y1], [cx, cy, r]) => {
    const dx = cx - Math.min(Math.max(cx, x0), x1);
    const dy = cy - Math.min(Math.max(cy, y0), y1);
    return dx * dx + dy * dy < r * r;
  };
  // A stroke (x0, y0, x1, y1, half width) reaches into a box: sampled every half pixel along it.
  const crosses = (box, [ax, ay, bx, by, half]) => {
    const steps = Math.max(1, Math.ceil(2 * Math.hypot(bx - ax, by - ay)));
    for (let k = 0; k <= steps; k += 1) {
      if (touches(box, [ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps, half])) return true;
    }
    return false;
  };

  for (const [view, width, height, query] of VIEWS) {
    test(`${view}: every label inside the plot, apart from the others and off every point`, async () => {
      const { page, problems } = await open(query, [width, height], { scale: 2 });
      await page.locator('#panel-projection').scrollIntoViewIfNeeded();
      for (const setting of SETTINGS) {
        await page.evaluate((s) => window.peLab.set({ delta: 1, pos: 0, pair: 3, n: 60, ...s }), setting);
        await drawn(page);
        const p = (await panels(page)).projection;
        const where = `${view} ${JSON.stringify(setting)}`;
        const [px0, py0, px1, py1] = p.plot;
        assert.ok(px1 > px0 && py1 > py0 && px1 <= p.canvas[0] && py1 <= p.canvas[1], `${where}: plot ${p.plot} in ${p.canvas}`);
        assert.equal(p.labelBoxes.length, setting.delta === 0 ? 1 : 2, `${where}: ${p.labels}`);
        assert.equal(p.arrows, setting.delta === 0 ? 0 : (setting.n ?? 60) - Math.abs(setting.delta ?? 1), where);
        assert.ok(p.points.length >= (setting.n ?? 60), `${where}: ${p.points.length} points`);
        // Every arrow's shaft at least, and the two radii.
        assert.ok(p.lines.length >= p.arrows + 2, `${where}: ${p.lines.length} lines`);
        p.labelBoxes.forEach((box, k) => {
          const [x0, y0, x1, y1] = box;
          assert.ok(x0 >= px0 && y0 >= py0 && x1 <= px1 && y1 <= py1, `${where}: “${p.labels[k]}” ${box} leaves the plot ${p.plot}`);
          for (const other of p.labelBoxes.slice(k + 1)) {
            assert.ok(!overlap(box, other), `${where}: labels overlap ${box} / ${other}`);
          }
          const covered = p.points.find((point) => touches(box, point));
          assert.equal(covered, undefined, `${where}: “${p.labels[k]}” ${box} covers the point ${covered}`);
          const crossed = p.lines.find((line) => crosses(box, line));
          assert.equal(crossed, undefined, `${where}: “${p.labels[k]}” ${box} covers the line ${crossed}`);
        });
      }
      // Its own δ and the bar's are one value.
      await page.evaluate(() => window.peLab.set({ pair: 3, n: 60, pos: 0 }));
      await drawn(page);
      await setNumber(page, 'proj-delta-number', 5);
      await page.waitForFunction(() => window.peLab.stats.panels.projection?.delta === 5);
      assert.equal(await page.locator('#delta-number').inputValue(), '5');
      assert.match((await panels(page)).projection.takeaway, /same δ·ω_3 = 0\.8891 rad \(50\.9°\).* all 55 positions i/);
      // (A field being typed in is never overwritten: leave it first.)
      await page.locator('#proj-delta-number').blur();
      await page.evaluate(() => window.peLab.set({ delta: -3 }));
      await drawn(page);
      assert.equal(await page.locator('#proj-delta-number').inputValue(), '-3');
      assert.equal(await page.locator('#proj-delta-range').inputValue(), '-3');
      assert.ok(await page.locator('#proj-delta-range').isVisible(), `${view}: the panel's δ is on screen without the parameter sheet`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
