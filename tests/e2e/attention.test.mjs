// End-to-end: self-attention as the chapter builds it — the projections W_q, W_k, W_v (`proj`,
// `seed`), the offset head (P alone must reach a hit rate of 1), np.tile's wrong maps (`tile`),
// d2l's masked softmax at valid_len = 0, the order panel with projections, and screenshots.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drawn, open, panels, reveal, screenshot, screenshotOf, setUp, waitForUrlParam } from './helpers.mjs';

setUp({ drawn: true });

describe('attention with projections', () => {
  test('random projections (default): no identity map, at the default d and at the multi-head preset', async () => {
    const { page, problems } = await open('');
    let p = await panels(page);
    assert.equal(p.attention.projection, 'random');
    assert.equal(p.attention.seed, 1);
    assert.equal(p.attention.warning, '');
    assert.ok(await page.locator('#attn-warning').isHidden());
    assert.ok(p.attention.meanSelfWeight < 0.5, `default: ${p.attention.meanSelfWeight}`);
    assert.ok(p.heads.meanSelfWeight < 0.5, `heads: ${p.heads.meanSelfWeight}`);
    assert.ok(p.attention.rowSumError < 1e-5);
    const defaults = { attention: p.attention.meanSelfWeight, heads: p.heads.meanSelfWeight };
    await screenshot(page, 'attention-random-default');
    await screenshotOf(page, '#panel-attention', 'panel-attention-random');
    await page.locator('#presets-menu').click();
    await page.locator('#preset-multi-head').click();
    await drawn(page);
    p = await panels(page);
    assert.equal(p.heads.heads, 5);
    assert.ok(p.attention.meanSelfWeight < 0.5, `d=100: ${p.attention.meanSelfWeight}`);
    assert.ok(p.heads.meanSelfWeight < 0.5, `d=100 heads: ${p.heads.meanSelfWeight}`);
    console.log(`mean self-weight, random projections: d=32 attention ${defaults.attention.toFixed(4)}, heads ${defaults.heads.toFixed(4)}; `
      + `d=100 attention ${p.attention.meanSelfWeight.toFixed(4)}, heads ${p.heads.meanSelfWeight.toFixed(4)}`);
    await screenshotOf(page, '#panel-heads', 'panel-heads-multi-head-preset');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('proj=identity: the diagonal dominates, and the page says why', async () => {
    const { page, problems } = await open('proj=identity&d=100');
    const a = (await panels(page)).attention;
    assert.equal(a.projection, 'identity');
    assert.ok(a.meanSelfWeight > 0.95, `${a.meanSelfWeight}`);
    assert.match(a.warning, /q_i·k_i = ‖z_i‖² averages/);
    assert.match(a.warning, /close to the identity/);
    // The warning sits behind More; the takeaway says the same in one sentence.
    assert.match(await page.locator('#attention-takeaway').textContent(), /: with Q = K = V = Z each word takes on average 9\d(\.\d+)?% of its output from itself, and /);
    assert.ok(await page.locator('#attn-warning').isHidden(), 'behind a closed More');
    await page.locator('#attention-more > summary').click();
    assert.ok(await page.locator('#attn-warning').isVisible());
    assert.match(await page.locator('#attn-warning').textContent(), /d = 100/);
    await screenshotOf(page, '#panel-attention', 'panel-attention-identity');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('proj=offset: the map (P alone) attends to i + δ visibly at the default κ; the sentence explains the tokens with its numbers', async () => {
    for (const [delta, beta] of [[1, null], [2, 4], [-3, 1]]) {
      const { page, problems } = await open(`proj=offset&delta=${delta}${beta === null ? '' : `&beta=${beta}`}`);
      const a = (await panels(page)).attention;
      assert.equal(a.projection, 'offset');
      assert.equal(a.input, 'positions');
      assert.equal(a.offsetDelta, delta);
      assert.equal(a.offsetHitRate, 1, `δ=${delta}`);
      assert.ok(a.offsetHitRateWithTokens >= 0 && a.offsetHitRateWithTokens <= 1);
      // The map is the head on P alone: its mean weight on i + δ is offsetMeanWeight.
      const n = a.weights.length;
      let sum = 0, count = 0;
      for (let i = 0; i < n; i += 1) {
        if (i + delta >= 0 && i + delta < n) { sum += a.weights[i][i + delta]; count += 1; }
      }
      assert.ok(Math.abs(sum / count - a.offsetMeanWeight) < 1e-6, `${sum / count} vs ${a.offsetMeanWeight}`);
      if (beta === null) {
        // The default κ: the figure shows what the control says (each row's brightest cell is
        // i + δ, with most of the row's weight), unlike κ = 1 (0.18 there).
        assert.ok(a.offsetMeanWeight > 0.5, `default κ: ${a.offsetMeanWeight}`);
        assert.ok(a.offsetMeanWeightWithTokens < a.offsetMeanWeight);
      }
      const text = await page.locator('#attn-offset').textContent();
      assert.match(await page.locator('#attention-takeaway').textContent(), new RegExp(`key i ${delta < 0 ? '−' : '\\+'} ${Math.abs(delta)} the strongest for 100% of the queries`));
      await page.locator('#attention-more > summary').click();
      assert.ok(await page.locator('#attn-offset').isVisible());
      assert.ok(text.includes(`strongest key for 100% of the ${n - Math.abs(delta)} queries that have a key i + δ`), text);
      assert.ok(text.includes(a.offsetMeanWeight.toFixed(4)) || text.includes(a.offsetMeanWeight.toFixed(3)), text);
      if (a.offsetMeanWeightWithTokens < 0.1) assert.match(text, /Why the content wins/);
      if (delta === 1) await screenshotOf(page, '#panel-attention', 'panel-attention-offset');
      console.log(`offset head δ=${delta} κ=${beta ?? 'default'}: P alone hit ${a.offsetHitRate}, weight ${a.offsetMeanWeight.toFixed(4)}; `
        + `X·√d+P hit ${a.offsetHitRateWithTokens}, weight ${a.offsetMeanWeightWithTokens.toExponential(2)}`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  test('seed: the same seed gives the same weights; Re-draw takes the next and the link follows', async () => {
    const one = await open('seed=7');
    const two = await open('seed=7');
    const w7 = (await panels(one.page)).attention.weights;
    assert.deepEqual((await panels(two.page)).attention.weights, w7);
    await two.page.close();
    await reveal(one.page, 'attn-redraw');
    await one.page.locator('#attn-redraw').click();
    await drawn(one.page);
    const a = (await panels(one.page)).attention;
    assert.equal(a.seed, 8);
    assert.notDeepEqual(a.weights, w7);
    await waitForUrlParam(one.page, 'seed', '8');
    await one.page.locator('#attn-proj').selectOption('identity');
    await drawn(one.page);
    await waitForUrlParam(one.page, 'proj', 'identity');
    assert.deepEqual(one.problems, []);
    await one.page.close();
  });

  test('tile=1 draws np.tile\'s wrong maps beside the right ones, with their count', async () => {
    const { page, problems } = await open('tile=1');
    const h = (await panels(page)).heads;
    assert.equal(h.showTile, true);
    // 4 heads, valid_lens [3, 2]: tile gives (3 2 3 2) to both sequences: 4 of 8 maps are wrong.
    assert.equal(h.wrongHeadsWithTile, 4);
    assert.deepEqual(h.tiledValidLens, [[3, 2, 3, 2], [3, 2, 3, 2]]);
    assert.deepEqual(h.perHeadValidLens, [[3, 3, 3, 3], [2, 2, 2, 2]]);
    await screenshotOf(page, '#panel-heads', 'panel-heads-tile');
    await page.locator('#heads-tile').uncheck();
    await drawn(page);
    assert.equal((await panels(page)).heads.showTile, false);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('valid_len = 0 follows d2l\'s masked_softmax: uniform rows, and the page says so', async () => {
    const { page, problems } = await open('valid=0');
    const a = (await panels(page)).attention;
    assert.equal(a.validLen, 0);
    for (const row of a.weights) for (const w of row) assert.ok(Math.abs(w - 1 / 8) < 1e-6, `${w}`);
    assert.equal(a.maskedWeightsZero, false);
    const summary = await page.locator('#attn-summary').textContent();
    assert.match(summary, /uniform row, not zeros/);
    assert.match(summary, /Every row sums to 1/);
    assert.doesNotMatch(summary, /exactly 0/);
    // The figure agrees with the numbers: no cell is hatched as "weight exactly 0", and every
    // cell's centre has the one colour of 1/8.
    assert.equal(a.hatchedCount, 0);
    const centres = async () => page.evaluate(() => {
      const s = window.peLab.stats.panels.attention;
      const canvas = document.getElementById('attn-heatmap');
      const [x0, y0, x1, y1] = s.image;
      const n = s.weights.length;
      const context = canvas.getContext('2d');
      const out = [];
      for (let r = 0; r < n; r += 1) {
        for (let c = 0; c < n; c += 1) {
          const x = Math.floor(x0 + (c + 0.5) * (x1 - x0) / n);
          const y = Math.floor(y0 + (r + 0.5) * (y1 - y0) / n);
          out.push(Array.from(context.getImageData(x, y, 1, 1).data).join(','));
        }
      }
      return out;
    });
    assert.equal(new Set(await centres()).size, 1);
    // With valid_len = 3 the masked keys are hatched: 8 × 5 cells, and their centres are not the
    // colours of the weights beside them.
    await reveal(page, 'valid-number');
    await page.locator('#valid-number').fill('3');
    await page.locator('#valid-number').press('Enter');
    await waitForUrlParam(page, 'valid', '3');
    await drawn(page);
    const masked = (await panels(page)).attention;
    assert.equal(masked.hatchedCount, 40);
    const colours = await centres();
    const unmasked = new Set(colours.filter((_, i) => i % 8 < 3));
    for (let i = 0; i < 64; i += 1) if (i % 8 >= 3) assert.ok(!unmasked.has(colours[i]), `cell ${i}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the order panel uses the same layer: equivariant without P for every projection', async () => {
    for (const proj of ['random', 'identity', 'offset']) {
      const { page, problems } = await open(`proj=${proj}`);
      const o = (await panels(page)).order;
      assert.equal(o.projection, proj);
      assert.ok(o.withoutPe < 1e-5, `${proj}: ${o.withoutPe}`);
      assert.ok(o.withPe > 1e-3, `${proj}: ${o.withPe}`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
});

describe('the encoding as the chapter\'s code computes it', () => {
  test('textbook=1: the float32 formula\'s projection error jumps from ~1e-7 to ~1e-4, and the page says why', async () => {
    const exact = await open('n=2048&d=1024&delta=1000');
    const exactError = (await exact.page.evaluate(() => window.peLab.stats)).maxProjectionError;
    assert.ok(exactError < 2e-7, `exact: ${exactError}`);
    await exact.page.locator('#textbook-check').check();
    await drawn(exact.page);
    const s = await exact.page.evaluate(() => window.peLab.stats);
    assert.equal(s.textbook, true);
    assert.ok(s.maxProjectionError > 1e-5 && s.maxProjectionError < 1e-3, `textbook: ${s.maxProjectionError}`);
    // The takeaway names the cause; the full reason is behind the panel's More.
    assert.match(await exact.page.locator('#projection-takeaway').textContent(), /textbook float32 angles/);
    await exact.page.locator('#projection-more > summary').click();
    assert.ok(await exact.page.locator('#projection-textbook').isVisible());
    assert.match(await exact.page.locator('#projection-textbook').textContent(), /24/);
    await waitForUrlParam(exact.page, 'textbook', '1');
    console.log(`projection error n=2048 d=1024 δ=1000: exact ${exactError.toExponential(2)}, textbook float32 ${s.maxProjectionError.toExponential(2)}`);
    await screenshotOf(exact.page, '#panel-projection', 'panel-projection-textbook');
    assert.deepEqual(exact.problems, []);
    await exact.page.close();
  });

  test('index=1 and the Julia figure preset: positions 1…60, the chapter\'s five 1-based columns', async () => {
    const { page, problems } = await open('preset=julia-curves');
    const state = await page.evaluate(() => window.peLab.state);
    assert.deepEqual(state.columns, [5, 6, 7, 8, 9]);
    assert.equal((await page.evaluate(() => window.peLab.stats)).firstPosition, 1);
    assert.match(await page.locator('#curves-summary').textContent(), /counted from 1/);
    await waitForUrlParam(page, 'index', '1');
    await screenshotOf(page, '#panel-curves', 'panel-curves-julia');
    await screenshotOf(page, '#panel-heatmap', 'panel-heatmap-index1');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
