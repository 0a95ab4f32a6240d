// The learned panel's trained table: all-MiniLM-L6-v2's 512 × 384 position table beside the
// sinusoid. It is fetched only when the panel is on screen (from the pretrained panel's module,
// one file of at most 400 KB); its mean cosine similarity at each offset matches the float32
// reference (tests/fixtures/minilm/learned-trained.json, which the native test
// panels::learned::trained::tests::real_table holds to target/minilm/model.safetensors) within
// 2e-3; the figure is drawn; `peLab.whenDrawn()` waits for it; a table that cannot be fetched says
// why and leaves the seeded table working. Screenshots of the panel (light and dark, laptop and
// phone) go to PE_LAB_SCREENSHOTS.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, canvasInk, open, panels, screenshotOf, setUp } from './helpers.mjs';

setUp({ size: [1366, 768] });

const FIXTURE = JSON.parse(readFileSync('tests/fixtures/minilm/learned-trained.json', 'utf8'));
const TOLERANCE = 2e-3;
const TABLE_BUDGET = 400_000;

const modelRequests = (requests) => requests.filter((u) => new URL(u).pathname.includes('/minilm/'));
const moduleRequests = (requests) => requests.filter((u) => u.includes('pe-lab-pretrained-panel'));

/** The learned panel's stats once the page's numbers are in. */
async function learned(page) {
  await page.evaluate(() => window.peLab.whenDrawn());
  return (await panels(page)).learned;
}

function assertTrained(trained) {
  assert.equal(trained.status, 'ready', trained.error ?? '');
  assert.equal(trained.model, 'all-MiniLM-L6-v2');
  assert.equal(trained.rows, 512);
  assert.equal(trained.columns, 384);
  const offsets = Object.keys(FIXTURE.meanCosineAtOffset);
  assert.deepEqual(Object.keys(trained.meanCosineAtOffset).sort(), [...offsets].sort());
  let largest = 0;
  for (const k of offsets) {
    const difference = Math.abs(trained.meanCosineAtOffset[k] - FIXTURE.meanCosineAtOffset[k]);
    largest = Math.max(largest, difference);
    assert.ok(difference <= TOLERANCE, `k = ${k}: ${trained.meanCosineAtOffset[k]} against ${FIXTURE.meanCosineAtOffset[k]}`);
  }
  return largest;
}

describe('the learned panel’s trained table', () => {
  test('is fetched only when the panel is on screen, at most 400 KB, and matches float32', async () => {
    const { page, requests, problems } = await open('', [1366, 768], { drawn: true });
    assert.deepEqual(modelRequests(requests), []);
    assert.deepEqual(moduleRequests(requests), []);
    assert.equal((await panels(page)).learned.trained.status, 'idle');
    await page.locator('#panel-learned').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => window.peLab.stats.panels.learned?.trained?.status !== 'idle');
    // whenDrawn does not resolve while the table is on its way.
    const s = await learned(page);
    const largest = assertTrained(s.trained);
    // The seeded table is still there, beside it.
    assert.equal(s.maxLen, 512);
    // Only the table was fetched of the model, once, and it is within the budget.
    const fetched = modelRequests(requests).map((u) => new URL(u).pathname.replace(/^.*\/minilm\//, ''));
    assert.deepEqual(fetched, ['embeddings.safetensors']);
    const size = statSync(join(DIST, 'minilm/embeddings.safetensors')).size;
    assert.ok(size <= TABLE_BUDGET, `${size} B`);
    assert.equal(s.trained.bytesLoaded, size);
    console.log(`trained table: ${size} B fetched; meanCosineAtOffset ${JSON.stringify(s.trained.meanCosineAtOffset)}; largest difference from float32 ${largest.toExponential(2)}; computed in ${s.trained.ms.toFixed(0)} ms`);
    // The takeaway is the table's, and the figure is drawn.
    const takeaway = await page.locator('#learned-trained-takeaway').textContent();
    assert.equal(takeaway, s.trained.takeaway);
    assert.match(takeaway, /learned a band like the sinusoid's/);
    assert.match(takeaway, /neighbours' rows are alike \(mean cosine 0\.85; the sinusoid's 0\.97\)\. Far apart the two differ/);
    // The static page states the same takeaway (the default view's), so nothing below it moves
    // once the table is in.
    const written = /id="?learned-trained-takeaway"?[^>]*>([^<]*)</.exec(readFileSync(join(DIST, 'index.html'), 'utf8'))?.[1];
    assert.equal(written, takeaway);
    assert.equal(s.trained.farFrom, 100);
    assert.ok(Math.abs(s.trained.meanCosineFarApart) < 0.1 && s.trained.sinusoidMeanCosineFarApart > 0.3, JSON.stringify(s.trained));
    const ink = await canvasInk(page, 'learned-trained');
    assert.ok(ink.colours > 100 && ink.ink > 0.2, JSON.stringify(ink));
    // The page's base moves the sinusoid's side, not the table's.
    await page.evaluate(() => window.peLab.set({ base: 500 }));
    const moved = (await learned(page)).trained;
    assert.equal(moved.base, 500);
    assert.deepEqual(moved.meanCosineAtOffset, s.trained.meanCosineAtOffset);
    assert.notEqual(moved.sinusoidMeanCosineAtOffset['10'], s.trained.sinusoidMeanCosineAtOffset['10']);
    assert.equal(modelRequests(requests).length, 1);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('an embed waits for the table before its numbers are in', async () => {
    const { page, problems } = await open('embed=learned', [800, 900]);
    const s = await learned(page);
    assertTrained(s.trained);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a table that cannot be fetched says why, and the seeded table works', async () => {
    const { page, context } = await open('', [1366, 768], { ready: false });
    await context.route('**/minilm/embeddings.safetensors', (route) => route.fulfill({ status: 404, body: '' }));
    await page.reload();
    await page.evaluate(() => window.peLab.ready);
    await page.locator('#panel-learned').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => window.peLab.stats.panels.learned?.trained?.status === 'failed');
    const notice = await page.locator('#learned-trained-takeaway').textContent();
    assert.match(notice, /could not be loaded: .*embeddings\.safetensors: HTTP 404.*The seeded table above works without it/);
    await page.evaluate(() => window.peLab.set({ lmax: 40 }));
    const s = await learned(page);
    assert.equal(s.maxLen, 40);
    assert.match(await page.locator('#learned-takeaway').textContent(), /^Yes, up to a length: E has rows for positions 0–39 only/);
    await page.close();
  });

  test('the pretrained panel works from the module the learned panel imported first', async () => {
    const { page, requests, problems } = await open('', [1366, 768], { scrollTo: '#panel-learned' });
    await page.waitForFunction(() => window.peLab.stats.panels.learned?.trained?.status !== 'idle');
    assertTrained((await learned(page)).trained);
    await page.locator('#panel-pretrained').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => window.peLab.stats.panels.pretrained?.status !== 'idle');
    await page.evaluate(() => window.peLab.whenDrawn());
    const pretrained = (await panels(page)).pretrained;
    assert.equal(pretrained.status, 'ready', pretrained.error ?? '');
    // One module for both panels: its files were fetched once.
    assert.equal(requests.filter((u) => u.endsWith('pe-lab-pretrained-panel_bg.wasm')).length, 1);
    assertTrained((await panels(page)).learned.trained);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('screenshots: light and dark, laptop and phone', async () => {
    for (const [name, size, scale] of [['laptop', [1366, 768], 1], ['phone', [390, 844], 2]]) {
      for (const theme of ['light', 'dark']) {
        const { page, problems } = await open(`theme=${theme}`, size, { scale, scrollTo: '#panel-learned' });
        await page.waitForFunction(() => window.peLab.stats.panels.learned?.trained?.status !== 'idle');
        assertTrained((await learned(page)).trained);
        await page.locator('#learned-more').evaluate((d) => { d.open = true; });
        await screenshotOf(page, '#panel-learned', `learned-trained-${name}-${theme}`);
        await screenshotOf(page, '#learned-trained', `learned-trained-figure-${name}-${theme}`);
        assert.deepEqual(problems, []);
        await page.close();
      }
    }
  });
});
