// End-to-end: what a lecturer's audit checks, that every sentence agrees with the numbers it
// describes. The probe is out of sample, the stacking verdict follows the measured residual,
// warnings follow the measured weights, the Julia preset counts from 1 everywhere a reader looks,
// a learned table shorter than the sentence still draws, and exercise 3's shift test per family.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, panels, setUp, text } from './helpers.mjs';

setUp({ drawn: true });

describe('a second audit: sentences agree with their numbers', () => {
  test('the stacking probe is out of sample: no position, no score; the page says what it measures', async () => {
    // n = 10 ≤ d + 1: an in-sample fit read R² = 1.0000 here with no position anywhere.
    let { page, problems } = await open('preset=rank-collapse&inject=none');
    let s = (await panels(page)).stacking;
    assert.equal(s.injection, 'none');
    assert.ok(s.probeR2.every((r) => r < 0.5), `no position: ${s.probeR2}`);
    assert.match(await text(page, 'stack-readout'), /held-out/);
    assert.deepEqual(problems, []);
    await page.close();
    // n = 60, d = 32: P added after every layer is read again; never added, it is not.
    ({ page, problems } = await open('n=60&d=32&layers=4&inject=every'));
    s = (await panels(page)).stacking;
    assert.ok(s.probeR2.at(-1) > 0.5, `re-injected: ${s.probeR2}`);
    await page.evaluate(() => window.peLab.set({ inject: 'none' }));
    await page.evaluate(() => window.peLab.whenDrawn());
    s = (await panels(page)).stacking;
    assert.ok(s.probeR2.every((r) => r < 0.1), `never added: ${s.probeR2}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('skip connections: the verdict follows the measured residual, not the setting', async () => {
    for (const query of ['layers=48&skip=1', 'layers=48&skip=1&ln=1', 'layers=4&skip=1']) {
      const { page, problems } = await open(query);
      const s = (await panels(page)).stacking;
      const last = s.rankResidual.at(-1);
      const readout = await text(page, 'stack-readout');
      if (last < 1e-3) {
        assert.match(readout, /collapsed/, `${query}: r = ${last}`);
        assert.match(readout, /still collapse/);
        assert.doesNotMatch(readout, /stay apart/);
      } else {
        assert.doesNotMatch(readout, /have collapsed/, `${query}: r = ${last}`);
      }
      assert.match(readout, /nothing guarantees it/);
      console.log(`${query}: r_L = ${last.toExponential(2)}, probe ${s.probeR2.at(-1).toFixed(3)}`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  test('the identity warning gives the measured reason and follows the measured weights', async () => {
    const { page, problems } = await open('proj=identity&valid=3');
    const a = (await panels(page)).attention;
    assert.ok(a.meanSelfWeight < 0.8, `${a.meanSelfWeight}`);
    assert.doesNotMatch(a.warning, /close to the identity/);
    assert.doesNotMatch(a.warning, /stays near 0/);
    assert.match(a.warning, /5 of the 8 rows have their own key masked/);
    assert.ok(a.warning.includes(a.meanSelfWeight.toFixed(4)), a.warning);
    assert.deepEqual(problems, []);
    await page.close();
    // valid_len = 0 masks every key, yet each row gives itself 1/8: no row "cannot attend to
    // itself".
    const zero = await open('proj=identity&valid=0');
    const z = (await panels(zero.page)).attention;
    z.weights.forEach((row, i) => assert.ok(Math.abs(row[i] - 1 / 8) < 1e-6));
    assert.doesNotMatch(z.warning, /cannot attend to themselves/);
    assert.deepEqual(zero.problems, []);
    await zero.page.close();
  });

  test('a learned table shorter than the sentence: every panel draws, and says what the positions past it get', async () => {
    const { page, problems } = await open('enc=learned&lmax=4');
    const p = await panels(page);
    for (const id of ['attn-summary', 'order-with', 'pipeline-summary']) {
      const t = await text(page, id);
      assert.doesNotMatch(t ?? '', /could not be drawn/, `${id}: ${t}`);
    }
    assert.equal(p.attention.encoding, 'learned');
    assert.ok(p.attention.rowSumError < 1e-5);
    assert.ok(p.order.withoutPe < 1e-5, `no-P baseline: ${p.order.withoutPe}`);
    assert.match(await text(page, 'attn-summary'), /positions ≥ L_max have no row and get nothing added/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the Julia preset counts from 1 wherever a reader looks, and maps the chapter\'s sentence', async () => {
    const { page, problems } = await open('preset=julia-curves');
    assert.equal(await page.locator('#cols-input').inputValue(), '6, 7, 8, 9, 10');
    const summary = await text(page, 'curves-summary');
    assert.match(summary, /^Columns 6 \(cos\), 7 \(sin\), 8 \(cos\), 9 \(sin\), 10 \(cos\) against position 1…60/);
    assert.match(summary, /columns 7, 8 and 9, 10 here/);
    // Typing in the field counts from 1 too: 7, 8 are the link's cols 6, 7.
    await page.locator('#cols-input').fill('7, 8');
    await page.locator('#cols-input').press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('cols') === '6,7');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('claims follow their numbers at the extremes: a zero mask gap, a tie, ALiBi\'s causal zeros', async () => {
    let { page, problems } = await open('valid=0');
    const o = (await panels(page)).order;
    const masked = await text(page, 'order-masked');
    if (o.maskedWithoutPe < 1e-5) {
      assert.match(masked, /cannot show/);
      assert.doesNotMatch(masked, /so the masked layer is not equivariant/);
    }
    // Every weight is 1/8: no pair is "the strongest".
    const summary = await text(page, 'attn-summary');
    assert.match(summary, /Every weight is equal: no token stands out/);
    assert.doesNotMatch(summary, /Strongest attention to another token/);
    assert.deepEqual(problems, []);
    await page.close();
    // ALiBi's causal mask gives the keys after each query weight exactly 0: hatched like
    // valid_len's, as the legend says.
    ({ page, problems } = await open('enc=alibi'));
    const a = (await panels(page)).attention;
    const n = a.weights.length;
    const zerosAfter = a.weights.flatMap((row, i) => row.filter((w, j) => j > i && w === 0)).length;
    assert.equal(zerosAfter, (n * (n - 1)) / 2);
    assert.equal(a.hatchedCount, zerosAfter);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('exercise 3: shifting the sentence changes no weight for relative schemes, and the page says so from the numbers', async () => {
    const { page, problems } = await open('');
    const o = (await panels(page)).order;
    assert.equal(o.shift, 100);
    const g = o.shiftGap;
    for (const family of ['alibi', 't5', 'shaw', 'none']) assert.equal(g[family], 0, family);
    assert.ok(g.rope < 1e-5, `RoPE: ${g.rope}`);
    assert.ok(g.sinusoidal > 1e-3 && g.learned > 1e-4, JSON.stringify(g));
    const t = await text(page, 'order-shift');
    assert.match(t, /exactly 0 for ALiBi, T5's buckets, Shaw's relative embeddings, no position/);
    assert.match(t, /not 0 for added P/);
    console.log('shift gaps:', JSON.stringify(g));
    assert.deepEqual(problems, []);
    await page.close();
  });
});
