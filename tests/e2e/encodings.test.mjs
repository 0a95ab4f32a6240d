// End-to-end tests of the encodings beyond sinusoidal: every `enc` drives the attention panels
// (weights, heads, pipeline, order), each family panel's numbers against independent float64
// computations here in JavaScript, their controls and URL keys, bad input, and screenshots
// (encodings-*).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertCanvasesDrawn, canvasBytes, drawn, open, panels, reveal, screenshotOf, setUp, showAndDraw,
  waitForUrlParam,
} from './helpers.mjs';

setUp();

const ENCODINGS = ['sinusoidal', 'rope', 'alibi', 't5', 'shaw', 'learned', 'none'];
const FAMILY_PANELS = ['rope', 'extension', 'alibi', 't5', 'shaw', 'learned', 'nope', 'stacking'];
const FAMILY_CANVASES = [
  'rope-residuals', 'rope-decay', 'rope-scores', 'alibi-heatmap', 'ext-ratios', 'ext-wavelengths', 'alibi-biases', 'alibi-weights',
  't5-chart', 'shaw-logits', 'shaw-table', 'learned-table', 'nope-chart', 'stack-residuals',
  'stack-probe',
];
const rowSums = (w) => w.map((row) => row.reduce((a, b) => a + b, 0));

/** T5's relative_position_bucket, bidirectional, 32 buckets, max_distance 128, written anew here. */
function t5Bucket(k) {
  const perDirection = 16;
  const maxExact = 8;
  const offset = k > 0 ? perDirection : 0;
  const n = Math.abs(k);
  if (n < maxExact) return offset + n;
  const large = maxExact + Math.floor(Math.log(n / maxExact) / Math.log(128 / maxExact) * (perDirection - maxExact));
  return offset + Math.min(large, perDirection - 1);
}

/** ALiBi's get_slopes from the paper's code, written anew here. */
function alibiSlopes(heads) {
  const powerOfTwo = (h) => {
    const start = 2 ** (-(2 ** -(Math.log2(h) - 3)));
    return Array.from({ length: h }, (_, i) => start * start ** i);
  };
  if (Number.isInteger(Math.log2(heads))) return powerOfTwo(heads);
  const lower = 2 ** Math.floor(Math.log2(heads));
  return powerOfTwo(lower).concat(powerOfTwo(2 * lower).filter((_, i) => i % 2 === 0).slice(0, heads - lower));
}

describe('enc drives the attention panels', () => {
  for (const enc of ENCODINGS) {
    test(`enc=${enc}: weights, heads, pipeline and order use it; rows sum to 1`, async () => {
      const { page, problems } = await open(`&enc=${enc}`);
      await drawn(page);
      const p = await panels(page);
      assert.equal(p.attention.encoding, enc);
      assert.equal(await page.evaluate(() => window.peLab.lesson.encoding), enc);
      assert.equal(await page.locator('#attn-enc').inputValue(), enc);
      for (const s of rowSums(p.attention.weights)) assert.ok(Math.abs(s - 1) < 1e-5, `row sum ${s}`);
      assert.ok(p.attention.rowSumError < 1e-5);
      assert.ok(p.pipeline.rowSumError < 1e-5);
      assert.ok(p.heads.meanSelfWeight > 0 && p.heads.meanSelfWeight < 1);
      // Without a position the layer is permutation-equivariant (float32 rounding); with one it is not.
      assert.ok(p.order.withoutPe < 1e-5, `${p.order.withoutPe}`);
      assert.equal(p.order.encoding, enc === 'none' ? 'sinusoidal' : enc);
      if (enc !== 'learned') assert.ok(p.order.withPe > 1e-3, `${enc}: ${p.order.withPe}`);
      if (enc === 'alibi') {
        // The causal mask ALiBi was defined with: keys after the query weigh exactly 0.
        p.attention.weights.forEach((row, i) => row.forEach((w, j) => { if (j > i) assert.equal(w, 0); }));
      }
      if (enc === 'sinusoidal') {
        assert.equal(new URL(page.url()).searchParams.get('enc'), null, 'the default is not written');
      } else {
        await waitForUrlParam(page, 'enc', enc);
      }
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('the menu switches the family; pe=0 is none; a bad value keeps it with a notice', async () => {
    const { page, problems } = await open('');
    await reveal(page, 'attn-enc');
    await page.locator('#attn-enc').selectOption('rope');
    await waitForUrlParam(page, 'enc', 'rope');
    await page.waitForFunction(() => window.peLab.stats.panels.attention.encoding === 'rope');
    const rope = (await panels(page)).attention.weights;
    await page.locator('#attn-enc').selectOption('alibi');
    await page.waitForFunction(() => window.peLab.stats.panels.attention.encoding === 'alibi');
    assert.notDeepEqual((await panels(page)).attention.weights, rope);
    await page.locator('#attn-pe').uncheck();
    await page.waitForFunction(() => window.peLab.stats.panels.attention.encoding === 'none');
    await page.locator('#attn-pe').check();
    await page.waitForFunction(() => window.peLab.stats.panels.attention.encoding === 'alibi');
    await page.evaluate(() => window.peLab.set({ enc: 'xpos' }));
    await drawn(page);
    assert.equal((await panels(page)).attention.encoding, 'alibi');
    assert.match(await page.locator('#notices-list').textContent(), /enc = 'xpos' is not sinusoidal, rope, alibi, t5, shaw, learned or none/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('the family panels', () => {
  test('RoPE: float64 residual at rounding, float32 growing with Δ, the layouts agree', async () => {
    const { page, problems } = await open('&d=64');
    await drawn(page);
    const r = (await panels(page)).rope;
    assert.equal(r.d, 64);
    assert.ok(r.shiftResidualF64 < 1e-11 && r.shiftResidualF64 >= 0, `${r.shiftResidualF64}`);
    const deltas = r.shiftResidualF32.map(([delta]) => delta);
    assert.deepEqual(deltas, [...deltas].sort((a, b) => a - b));
    assert.equal(deltas[0], 1);
    assert.equal(deltas.at(-1), 100000);
    const at = (delta) => r.shiftResidualF32.find(([x]) => x === delta)[1];
    assert.ok(at(10) > 1e-9 && at(10) < 1e-6, `Δ = 10: ${at(10)}`);
    assert.ok(at(100000) > 10 * at(10), `grows: ${at(10)} → ${at(100000)}`);
    assert.ok(r.layoutDifference < 1e-10);
    // The bound at r = 0 is (d/2 + 1)/2; the mean random score stays far below the bound.
    assert.ok(Math.abs(r.decayBound[0][1] - (32 + 1) / 2) < 1e-9);
    for (const [, mean] of r.meanRandomScore) assert.ok(Math.abs(mean) < r.decayBound[0][1] / 2);
    // The chart's bound is on the score's scale: every pair's |score| lies below it, and it is
    // the relative curve times (d/2)·(the pairs' mean max |h_(j+1) − h_j|), the same factor at
    // every r.
    const factor = r.scoreBound[0][1] / r.decayBound[0][1];
    r.scoreBound.forEach(([x, b], i) => {
      assert.equal(x, r.decayBound[i][0]);
      assert.ok(Math.abs(b / r.decayBound[i][1] - factor) < 1e-9 * factor);
    });
    for (const [x, abs] of r.meanAbsScore) {
      const bound = r.scoreBound.find(([y]) => y === x)[1];
      assert.ok(abs < bound, `r = ${x}: ${abs} vs ${bound}`);
    }
    // The takeaway quotes the main chart's points: float64's largest mean residual, float32's
    // at the first and the last shift, as the page writes numbers (format_number).
    const written = (x) => (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e6 ? x.toExponential(2) : Math.abs(x) < 1 ? x.toFixed(4) : x.toFixed(3));
    const f64Max = Math.max(...r.shiftResidualF64Curve.map((p) => p[1]));
    const [f32First, f32Last] = [r.shiftResidualF32[0][1], r.shiftResidualF32.at(-1)[1]];
    assert.equal(await page.locator('#rope-takeaway').textContent(), `Yes: rotating query and key by their positions' angles leaves only the angles' difference in the score: moving both by Δ changes it by at most ${written(f64Max)} in float64 (blue); float32 rounding (orange) grows from ${written(f32First)} at Δ\u00a0=\u00a01 to ${written(f32Last)} at Δ\u00a0=\u00a01e5.`);
    const text = await page.locator('#rope-decay-readout').textContent();
    assert.match(text, /not a score/);
    assert.doesNotMatch(text, /decay bound \(upper bound\)/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('context extension: NTK base and ratios, PI, YaRN temperature, with scale and ctx', async () => {
    const { page, problems } = await open('&d=128&scale=8&ctx=4096');
    await drawn(page);
    const e = (await panels(page)).extension;
    assert.equal(e.scale, 8);
    assert.equal(e.trainingContext, 4096);
    const d = 128;
    assert.ok(Math.abs(e.ntkBase / (10000 * 8 ** (d / (d - 2))) - 1) < 1e-12, `${e.ntkBase}`);
    assert.equal(e.ntkRatios.length, d / 2);
    e.ntkRatios.forEach((ratio, j) => assert.ok(Math.abs(ratio - 8 ** (-2 * j / (d - 2))) < 1e-12));
    assert.equal(e.ntkRatios[0], 1);
    assert.ok(Math.abs(e.ntkRatios.at(-1) - 1 / 8) < 1e-12);
    assert.equal(e.piRatio, 1 / 8);
    assert.ok(Math.abs(e.yarnTemperature - (0.1 * Math.log(8) + 1)) < 1e-12);
    // Pairs whose wavelength 2π·base^(2j/d) is shorter than L.
    const within = Array.from({ length: d / 2 }, (_, j) => 2 * Math.PI * 10000 ** (2 * j / d)).filter((w) => w < 4096).length;
    assert.equal(e.pairsWithinContext, within);
    assert.equal(e.yarnKept + e.yarnInterpolated + e.yarnRamped, d / 2);
    assert.equal(e.yarnRatiosPaper.length, d / 2);
    // The slider and the field write the URL.
    await page.locator('#scale-number').fill('2.5');
    await page.locator('#scale-number').press('Enter');
    await waitForUrlParam(page, 'scale', '2.5');
    await page.waitForFunction(() => window.peLab.stats.panels.extension.scale === 2.5);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('YaRN as models run it: the ratios of Hugging Face transformers, the paper\'s ramp beside them', async () => {
    // transformers 5.24.0, ROPE_INIT_FUNCTIONS["yarn"], d = 32, base 10000, factor 4,
    // original_max_position_embeddings 2048 (its float32 inv_freq over base^(−2j/d)).
    const { page, problems } = await open('&d=32&scale=4&ctx=2048');
    await drawn(page);
    const e = (await panels(page)).extension;
    const transformers = [1, 1, 1, 1, 1, 0.89285705, 0.78571437, 0.678571433, 0.571428565, 0.464285708,
      0.357142885, 0.250000003, 0.250000012, 0.24999999, 0.250000016, 0.249999999];
    e.yarnRatios.forEach((r, j) => assert.ok(Math.abs(r - transformers[j]) < 2e-7, `pair ${j}: ${r}`));
    // The paper's ramp, linear in r = L/λ between α = 1 and β = 32, differs inside the ramp.
    e.yarnRatiosPaper.forEach((r, j) => {
      const turns = 2048 / (2 * Math.PI * 10000 ** (2 * j / 32));
      const gamma = Math.min(1, Math.max(0, (turns - 1) / 31));
      assert.ok(Math.abs(r - ((1 - gamma) / 4 + gamma)) < 1e-12, `paper pair ${j}`);
    });
    assert.equal(e.yarnConventionGapPair, 7);
    assert.ok(Math.abs(e.yarnConventionGap - (0.678571429 - 0.366039267)) < 1e-6, `${e.yarnConventionGap}`);
    assert.deepEqual([e.yarnKept, e.yarnRamped, e.yarnInterpolated], [5, 6, 5]);
    // The takeaway says what the methods do, then reads the main chart's two ends: pair 15
    // (every method at 1/s), pair 0.
    assert.equal(await page.locator('#extension-takeaway').textContent(), 'To read s·L positions with angles the model has seen, the methods lower frequencies: at pair 15, the slowest (right), all three multiply its frequency by 0.2500; at pair 0, the fastest, NTK-aware and YaRN keep it (1), PI multiplies it by 0.2500 too.');
    const text = await page.locator('#ext-readout').textContent();
    assert.match(text, /as models run it/);
    assert.ok(text.includes(`keeps the 5 pairs up to index 4`), text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('ALiBi: slopes for H = 1…64 and the paper\'s H = 12; spans equal past the training length', async () => {
    const { page, problems } = await open('&aheads=12&enc=alibi');
    await drawn(page);
    const a = (await panels(page)).alibi;
    assert.equal(a.heads, 12);
    const expected = [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256, 0.70711, 0.35355, 0.17678, 0.08839];
    a.slopes.forEach((m, h) => assert.ok(Math.abs(m - expected[h]) < 1e-5, `head ${h}: ${m}`));
    // Head 0 (m = 1/2) looks back the same 5 keys at every position beyond its span.
    assert.deepEqual(a.spans[0], [5, 5, 5, 5]);
    // Past the training length L the far keys get biases never seen in training: their total
    // weight (bias alone) at i = 2L, summed here term by term.
    const L = a.trainingContext;
    a.slopes.forEach((m, h) => {
      let total = 0, far = 0;
      for (let t = 0; t <= 2 * L; t += 1) {
        const w = Math.exp(-m * t);
        total += w;
        if (t > L) far += w;
      }
      assert.ok(Math.abs(a.weightBeyondTraining[h] - far / total) < 1e-9 * (1 + far / total), `head ${h}`);
    });
    // The takeaway reads the main figure, the bias matrices: −m·11 at the 12th position.
    const takeaway = await page.locator('#alibi-takeaway').textContent();
    assert.ok(takeaway.includes(`head 0 (m = 0.5000) falls to −5.500 at 11 keys back, head 11 (m = 0.0884) only to −${(11 * a.slopes[11]).toFixed(4)}: it reads farther.`), takeaway);
    const beyond = await page.locator('#alibi-beyond').textContent();
    assert.doesNotMatch(beyond, /nothing new appears/);
    assert.match(beyond, /below any seen in training/);
    for (const heads of [1, 2, 3, 5, 6, 7, 8, 12, 16, 24, 31, 64]) {
      await page.evaluate((h) => window.peLab.set({ aheads: h }), heads);
      await drawn(page);
      const got = (await panels(page)).alibi.slopes;
      const want = alibiSlopes(heads);
      assert.equal(got.length, heads);
      got.forEach((m, h) => assert.ok(Math.abs(m - want[h]) < 1e-12 * want[h], `H = ${heads}, head ${h}`));
    }
    await waitForUrlParam(page, 'aheads', '64');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('T5: buckets[k + range] for every k in ±range, and the last bucket from 91', async () => {
    const { page, problems } = await open('&trange=200');
    await drawn(page);
    const t = (await panels(page)).t5;
    assert.equal(t.range, 200);
    assert.equal(t.buckets.length, 401);
    for (let k = -200; k <= 200; k += 1) assert.equal(t.buckets[k + 200], t5Bucket(k), `k = ${k}`);
    assert.deepEqual(t.buckets.slice(190, 211), [8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 0, 17, 18, 19, 20, 21, 22, 23, 24, 24, 24]);
    assert.equal(t.firstInLastBucket, 91);
    assert.equal(t.buckets[200 - 90], 14);
    assert.equal(t.buckets[200 - 91], 15);
    assert.equal(await page.locator('#t5-takeaway').textContent(), `Yes: T5 learns one number per offset bucket, one per distance below 8, wider buckets farther out: over δ = −200 … 200 the encoder uses ${t.distinctBuckets} of its 32 buckets; every distance ≥ 91 shares its direction's last bucket (15 before the query, 31 after).`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('Shaw: a (2k + 1)-row table, the sentence\'s logits, naive n²d against skewed nd', async () => {
    const { page, problems } = await open('&clip=3&n=100&d=64');
    await drawn(page);
    const s = (await panels(page)).shaw;
    assert.equal(s.clip, 3);
    assert.equal(s.tableRows, 7);
    assert.equal(s.naiveMemory, 100 * 100 * 64);
    assert.equal(s.skewedMemory, 100 * 64);
    assert.equal(s.logits.length, s.tokens.length);
    assert.equal(s.distinctOffsetsUsed, Math.min(2 * s.tokens.length - 1, 7));
    assert.equal(await page.locator('#shaw-takeaway').textContent(), 'Yes: one learned vector per offset, added to the keys: the table has 2k + 1 = 7 rows, one per offset −3 … 3, and every offset beyond ±3 reuses an end row, so any length works.');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('learned: no row past L_max; the sinusoid has one', async () => {
    const { page, problems } = await open('&lmax=40&n=60&d=32');
    await drawn(page);
    const l = (await panels(page)).learned;
    assert.equal(l.maxLen, 40);
    assert.equal(l.positionsWithRow, 40);
    assert.equal(l.positionsBeyond, 20);
    assert.match(l.lookupBeyond, /position 40 is beyond the table, which has rows for positions 0 to 39 only/);
    assert.ok(Math.abs(l.entryStd - 0.02) < 0.003, `${l.entryStd}`);
    assert.ok(Math.abs(l.sinusoidRowNormAtMax - 4) < 1e-6, 'd = 32: ‖p_i‖ = √16');
    assert.equal(await page.locator('#learned-takeaway').textContent(), 'Yes, up to a length: E has rows for positions 0–39 only, so of the page\'s n = 60 positions 20 have none, from position 40 on; the sinusoid gives every position a row.');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('NoPE: the causal output is 1/t at position t, the bidirectional one 1/n', async () => {
    const { page, problems } = await open('&n=300');
    await drawn(page);
    const z = (await panels(page)).nope;
    assert.equal(z.n, 300);
    assert.equal(z.causalOutputs.length, 300);
    z.causalOutputs.forEach((v, i) => assert.ok(Math.abs(v - 1 / (i + 1)) < 1e-15, `t = ${i + 1}`));
    z.bidirectionalOutputs.forEach((v) => assert.ok(Math.abs(v - 1 / 300) < 1e-15));
    assert.equal(z.causalDistinct, true);
    assert.equal(await page.locator('#nope-takeaway').textContent(), 'Yes, in principle: with the causal mask position t sees only t tokens and can count them, outputting 1/t (1.000 at t = 1 down to 0.0033 at t = 300), a different value at each; without the mask every position gets 1/300 = 0.0033.');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('stacking: pure attention collapses, with skip connections the residual stays above 0.05 at 6 layers; the switches are links', async () => {
    const { page, problems } = await open('&n=10&d=32&layers=6');
    await drawn(page);
    let s = (await panels(page)).stacking;
    assert.equal(s.rankResidual.length, 7);
    assert.equal(s.probeR2.length, 7);
    assert.ok(s.rankResidual[0] > 0.5);
    assert.ok(s.rankResidual[6] < 1e-9, `${s.rankResidual}`);
    for (let L = 1; L < 4; L += 1) assert.ok(s.rankResidual[L] < s.rankResidual[L - 1]);
    await page.locator('#stack-skip').check();
    await waitForUrlParam(page, 'skip', '1');
    await page.waitForFunction(() => window.peLab.stats.panels.stacking.skip === true);
    s = (await panels(page)).stacking;
    assert.ok(s.rankResidual[6] > 0.05, `with skip: ${s.rankResidual}`);
    await page.locator('#stack-inject').selectOption('every');
    await waitForUrlParam(page, 'inject', 'every');
    await page.locator('#stack-ln').check();
    await waitForUrlParam(page, 'ln', '1');
    await page.locator('#stack-causal').check();
    await waitForUrlParam(page, 'causal', '1');
    await page.waitForFunction(() => {
      const t = window.peLab.stats.panels.stacking;
      return t.causal && t.layerNorm && t.injection === 'every';
    });
    // The link reproduces the view.
    const again = await open(page.url());
    assert.deepEqual((await panels(again.page)).stacking.rankResidual, (await panels(page)).stacking.rankResidual);
    await again.page.close();
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('every family canvas is drawn; screenshots at a laptop, a phone and a projector', async () => {
    for (const [size, look, query] of [
      [[1366, 768], 'laptop', ''], [[390, 844], 'phone', '&theme=dark'], [[1920, 1080], 'projector', '&present=1'],
    ]) {
      const { page, problems } = await open(`&enc=rope${query}`, size);
      for (const name of FAMILY_PANELS) {
        await showAndDraw(page, `#panel-${name}`);
        await screenshotOf(page, `#panel-${name}`, `encodings-${name}-${look}`);
      }
      await assertCanvasesDrawn(page, FAMILY_CANVASES, { tries: 50, label: look });
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
});

describe('WebGPU kernels in the page', () => {
  test('RoPE scores and ALiBi weights: the WebGPU kernels draw what the CPU twins draw', async () => {
    const pictures = {};
    for (const compute of ['gpu', 'cpu']) {
      const { page, problems } = await open(`compute=${compute}&n=300&d=64`, [1366, 2000], { webgpu: true });
      // Off-screen panels draw once they come into view.
      for (const [name, rows] of [['rope', 'scoresN'], ['alibi', 'weightsN']]) {
        await page.locator(`#panel-${name}`).scrollIntoViewIfNeeded();
        await page.waitForFunction(([n, r]) => window.peLab.stats.panels[n][r] > 0, [name, rows]);
      }
      await drawn(page);
      const p = await panels(page);
      const backend = compute === 'gpu' ? 'webgpu' : 'cpu';
      assert.equal(await page.evaluate(() => window.peLab.stats.backend), backend);
      assert.deepEqual([p.rope.scoresN, p.rope.scoresBackend, p.rope.scoresGpuError ?? null], [300, backend, null]);
      assert.deepEqual([p.alibi.weightsN, p.alibi.weightsBackend, p.alibi.weightsGpuError ?? null], [300, backend, null]);
      assert.ok(p.rope.scoreDiagonalSpread < 1e-4 * p.rope.scoreMaxAbs, `${p.rope.scoreDiagonalSpread}`);
      assert.ok(p.alibi.weightsRowSumError < 1e-5 && p.alibi.weightsFutureZero);
      pictures[compute] = [await canvasBytes(page, 'rope-scores'), await canvasBytes(page, 'alibi-heatmap')];
      assert.deepEqual(problems, []);
      await page.close();
    }
    // float32 scores summed in another order, and the same colour map: within 3 of 255 per channel.
    for (const k of [0, 1]) {
      const [gpu, cpu] = [pictures.gpu[k], pictures.cpu[k]];
      assert.equal(gpu.length, cpu.length);
      let worst = 0;
      for (let i = 0; i < gpu.length; i += 1) worst = Math.max(worst, Math.abs(gpu[i] - cpu[i]));
      assert.ok(worst <= 3, `canvas ${k}: largest channel difference ${worst}`);
    }
  });
});

describe('bad input', () => {
  test('out-of-range family settings are clamped with notices; scale is the extension factor only', async () => {
    const { page, problems } = await open('&scale=-3&ctx=2&aheads=0&clip=1e9&lmax=abc&layers=999&trange=5&inject=twice');
    await drawn(page);
    const lesson = await page.evaluate(() => window.peLab.lesson);
    assert.equal(lesson.extensionScale, 1);
    assert.equal(lesson.trainingContext, 8);
    assert.equal(lesson.alibiHeads, 1);
    assert.equal(lesson.clip, 64);
    assert.equal(lesson.learnedMax, 512);
    assert.equal(lesson.layers, 48);
    assert.equal(lesson.t5Range, 8);
    assert.equal(lesson.injection, 'once');
    const notices = await page.locator('#notices-list').textContent();
    for (const key of ['scale', 'ctx', 'aheads', 'clip', 'lmax', 'layers', 'trange', 'inject']) {
      assert.match(notices, new RegExp(`${key} = `), key);
    }
    assert.equal((await panels(page)).stacking.rankResidual.length, 49);
    assert.deepEqual(problems, []);
    await page.close();
    // `scale` means the context-extension factor only: scale=0 is clamped to 1 with a notice and
    // leaves the √d switch (sqrtd) alone.
    const clamped = await open('&scale=0');
    await drawn(clamped.page);
    assert.equal(await clamped.page.evaluate(() => window.peLab.lesson.scaleEmbeddings), true);
    assert.equal((await panels(clamped.page)).extension.scale, 1);
    assert.match(await clamped.page.locator('#notices-list').textContent(), /scale = 0 is outside/);
    await clamped.page.close();
  });
});
