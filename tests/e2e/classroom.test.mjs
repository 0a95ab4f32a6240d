// End-to-end tests of the classroom features: links, Copy link, embed modes (also across origins),
// presets, exports (CSV parsed back and compared with pe_lab::math), keyboard-only use, themes and
// projector mode, sub-path hosting, no request leaving the page's origin, lazy panels, on('change').
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  canvasInk, DIST, drawn, lesson, open, origin, screenshot, setUp, state, stats, text,
} from './helpers.mjs';
import { serve } from './serve.mjs';

setUp();
let other, otherOrigin;
before(async () => {
  // A second server on another port: another origin for the cross-origin embed.
  other = await serve(DIST, 0);
  otherOrigin = `http://127.0.0.1:${other.address().port}`;
});
after(async () => {
  other?.close();
});

async function download(page, selector) {
  // The export buttons are in the panel's "Save" menu.
  await page.locator(selector).evaluate((button) => { button.closest('details').open = true; });
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return { name: file.suggestedFilename(), body: readFileSync(await file.path()) };
}

describe('links', () => {
  test('every control lives in the URL: reload restores the exact view', async () => {
    const { page, problems } = await open();
    await page.evaluate(() => window.peLab.set({ d: 48, n: 90, base: 500, delta: -4, pair: 7, pos: 9, cols: [1, 2, 40] }));
    await page.evaluate(() => window.peLab.set({ text: 'the cat sat on the mat', valid: 4, pe: 0, heads: 6, k: 5 }));
    await drawn(page);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('text') === 'the cat sat on the mat');
    const link = page.url();
    const before = { state: await state(page), lesson: await lesson(page) };
    const again = await open(link);
    assert.deepEqual(await state(again.page), before.state);
    assert.deepEqual(await lesson(again.page), before.lesson);
    for (const id of ['summary-p', 'm00', 'projection-error', 'attn-summary', 'heads-readout']) {
      assert.equal(await text(again.page, id), await text(page, id), `#${id}`);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(again.problems, []);
    await page.close();
    await again.page.close();
  });

  test('"Copy link" puts the current view on the clipboard; on(change) tells course pages', async () => {
    const { page, problems } = await open('', undefined, { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.evaluate(() => {
      window.changes = [];
      window.peLab.on('change', (s) => window.changes.push(s));
    });
    await page.locator('#d-number').fill('40');
    await page.locator('#d-number').press('Enter');
    await page.waitForFunction(() => window.changes.length > 0 && window.changes.at(-1).d === 40);
    await page.locator('#copy-link').click();
    await page.waitForFunction(() => /copied/i.test(document.getElementById('copy-status').textContent));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, page.url());
    assert.equal(new URL(copied).searchParams.get('d'), '40');
    const thrown = await page.evaluate(() => { try { window.peLab.on('click', () => {}); return null; } catch (e) { return e.message; } });
    assert.match(thrown, /only event is 'change'/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('embedding', () => {
  test('?embed=heatmap&controls=d,n shows one panel and only those controls', async () => {
    const { page, problems } = await open(`${origin}/?embed=heatmap&controls=d,n`, [700, 900]);
    assert.ok(await page.locator('#panel-heatmap').isVisible());
    for (const id of ['panel-curves', 'panel-projection', 'panel-attention', 'panel-scaling']) {
      assert.ok(await page.locator(`#${id}`).isHidden(), `#${id} should be hidden`);
    }
    assert.ok(await page.locator('#d-range').isVisible());
    assert.ok(await page.locator('#n-range').isVisible());
    assert.ok(await page.locator('#base-range').isHidden());
    assert.ok(await page.locator('header.top').isHidden());
    assert.ok((await canvasInk(page, 'heatmap')).colours > 20);
    await screenshot(page, 'embed-heatmap');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('controls=none hides the controls bar; a bad panel name gives a notice', async () => {
    const { page } = await open(`${origin}/?embed=projection&controls=none`, [700, 900]);
    assert.ok(await page.locator('.controls').isHidden());
    assert.ok(await page.locator('#panel-projection').isVisible());
    assert.ok(await page.locator('#pair-range').isVisible(), 'the panel keeps its own controls');
    await page.close();
    const bad = await open(`${origin}/?embed=nothing`);
    assert.match(await text(bad.page, 'notices-list'), /embed = 'nothing' is not a panel; the panels are: attention, pipeline, heads, complexity, order, heatmap, curves/);
    await bad.page.close();
  });

  for (const [name, app] of [['same origin', () => './index.html'], ['another origin', () => `${otherOrigin}/index.html`]]) {
    test(`the course-page mock-up fits two embedded panels (${name})`, async () => {
      // The heights the frames report (from either origin).
      const reportHeights = () => {
        window.reported = {};
        addEventListener('message', (e) => { if (e.data?.type === 'pe-lab:height') window.reported[e.data.panel] = e.data.height; });
      };
      const { page, problems } = await open(`${origin}/embed-example.html?app=${encodeURIComponent(app())}`, [1300, 1200], { ready: false, init: reportHeights });
      for (const [id, panel] of [['frame-heatmap', 'heatmap'], ['frame-projection', 'projection']]) {
        const frame = page.frameLocator(`#${id}`);
        await frame.locator('canvas:visible').first().waitFor();
        // The frame reported its height and the page fitted it.
        await page.waitForFunction(([id, panel]) => window.reported[panel] > 0
          && document.getElementById(id).style.height === `${Math.ceil(window.reported[panel])}px`, [id, panel], { timeout: 15000 });
      }
      // Every exercise can be done with the controls its frame shows.
      const exercises = await page.evaluate(() => [...document.querySelectorAll('.exercises li')]
        .map((li) => [li.dataset.frame, li.dataset.needs.split(',')]));
      assert.ok(exercises.length >= 2);
      for (const [frameId, needs] of exercises) {
        for (const key of needs) {
          assert.ok(await page.frameLocator(`#${frameId}`).locator(`#${key}-range`).isVisible(),
            `an exercise in ${frameId} needs the ${key} slider`);
        }
      }
      const src = await page.locator('#frame-heatmap').getAttribute('src');
      assert.ok(src.startsWith(name === 'same origin' ? origin : otherOrigin), src);
      const heights = await page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => f.style.height));
      await screenshot(page, `embed-example-${name.replace(' ', '-')}`);
      console.log(`embed example (${name}): iframe heights ${heights.join(', ')}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});

describe('presets', () => {
  // The presets are in the "Chapter figures" menu: open it, choose one; it closes.
  async function choose(page, name) {
    await page.locator('#presets-menu').click();
    assert.equal(await page.locator('#presets-menu').getAttribute('aria-expanded'), 'true');
    await page.locator(`#preset-${name}`).click();
    assert.ok(await page.locator('#presets').isHidden(), 'the menu closes');
  }
  test('each preset reproduces its figure, by menu and by URL', async () => {
    const { page, problems } = await open('d=8&n=5');
    await choose(page, 'chapter-curves');
    await drawn(page);
    assert.deepEqual(await state(page), { d: 32, n: 60, base: 10000, delta: 1, pair: 3, position: 0, columns: [6, 7, 8, 9] });
    await choose(page, 'binary');
    await drawn(page);
    assert.equal((await state(page)).n, 8);
    await choose(page, 'multi-head');
    await drawn(page);
    assert.equal((await state(page)).d, 100);
    assert.match(await text(page, 'heads-readout'), /3/);
    assert.deepEqual(problems, []);
    await page.close();
    const byUrl = await open(`${origin}/?preset=binary`);
    assert.equal((await state(byUrl.page)).n, 8);
    await byUrl.page.close();
    const bad = await open(`${origin}/?preset=nope`);
    assert.match(await text(bad.page, 'notices-list'), /preset = 'nope' is not one of/);
    await bad.page.close();
  });
});

describe('exports', () => {
  // The same CSV computed natively by pe_lab::math (examples/export_csv.rs).
  const native = execFileSync('cargo', ['run', '-q', '--example', 'export_csv', '--', '33', '50', '250'], { encoding: 'utf8' });
  for (const compute of ['cpu', 'gpu']) {
    test(`CSV of P equals pe_lab::math's, byte for byte (${compute})`, async () => {
      const { page, problems } = await open(`${origin}/?compute=${compute}&d=33&n=50&base=250`);
      const { name, body } = await download(page, '#export-csv-heatmap');
      assert.equal(name, 'pe-lab-heatmap-d33-n50-base250.csv');
      const csv = body.toString('utf8');
      if (compute === 'cpu') {
        assert.equal(csv, native);
      } else {
        // The GPU's own polynomials: the same header, every value within the 2e-6 GPU bound.
        const [ours, theirs] = [csv, native].map((t) => t.trim().split('\n'));
        assert.deepEqual(ours.slice(0, 2), theirs.slice(0, 2));
        assert.equal(ours.length, theirs.length);
        ours.slice(2).forEach((line, i) => line.split(',').forEach((v, c) => {
          assert.ok(Math.abs(Number(v) - Number(theirs[i + 2].split(',')[c])) <= 2e-6, `row ${i} col ${c}`);
        }));
      }
      // Parsed back: 50 rows of 33 values, each within float32 rounding of sin/cos in float64.
      const rows = csv.trim().split('\n').slice(2).map((line) => line.split(',').slice(1).map(Number));
      assert.equal(rows.length, 50);
      let worst = 0;
      rows.forEach((row, i) => row.forEach((v, c) => {
        const angle = i * Math.pow(250, -(c - (c % 2)) / 33);
        worst = Math.max(worst, Math.abs(v - (c % 2 === 0 ? Math.sin(angle) : Math.cos(angle))));
      }));
      assert.ok(worst < 1e-6, `CSV values differ from float64 by ${worst}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('PNG of a panel, SVG and CSV of the curves, CSV of the attention weights', async () => {
    const { page, problems } = await open();
    const png = await download(page, '#export-png-heatmap');
    assert.deepEqual([...png.body.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.ok(png.body.length > 5000);
    const svg = (await download(page, '#export-svg-curves')).body.toString('utf8');
    assert.match(svg, /^<svg/);
    assert.match(svg, /col 6: sin/);
    const curves = (await download(page, '#export-csv-curves')).body.toString('utf8').trim().split('\n');
    assert.equal(curves[1], 'position,col_6,col_7,col_8,col_9');
    assert.equal(curves.length, 62);
    const attention = (await download(page, '#export-csv-attention')).body.toString('utf8').trim().split('\n');
    const weights = attention.slice(2).map((line) => line.split(',').slice(1).map(Number));
    for (const row of weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('keyboard and accessibility', () => {
  test('every control is reachable and labelled; sliders and the heatmap work from the keyboard', async () => {
    const { page, problems } = await open();
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, button, textarea')]
      .filter((e) => !e.hidden && e.offsetParent !== null)
      .filter((e) => {
        const label = e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || (e.tagName === 'BUTTON' && e.textContent.trim());
        // A tab list is one Tab stop (its selected tab); the arrow keys move along it.
        return !label || (e.tabIndex < 0 && e.getAttribute('role') !== 'tab');
      })
      .map((e) => e.id || e.outerHTML.slice(0, 60)));
    assert.deepEqual(unlabelled, []);
    const tabStops = await page.evaluate(() => [...document.querySelectorAll('[role=tablist]')]
      .map((list) => [...list.querySelectorAll('[role=tab]')].filter((t) => t.tabIndex >= 0).length));
    assert.ok(tabStops.length > 0 && tabStops.every((n) => n === 1), `tab stops per tab list: ${tabStops}`);
    const missingValueText = await page.evaluate(() => [...document.querySelectorAll('input[type=range]')]
      .filter((e) => !e.getAttribute('aria-valuetext')).map((e) => e.id));
    assert.deepEqual(missingValueText, []);
    // Tab to the d slider, press the right arrow.
    for (let k = 0; k < 40 && (await page.evaluate(() => document.activeElement.id)) !== 'd-range'; k += 1) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await page.evaluate(() => document.activeElement.id), 'd-range');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'focus must be visible');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.peLab.state.d === 33);
    // Tab on to the heatmap and read cells with the arrow keys.
    for (let k = 0; k < 250 && (await page.evaluate(() => document.activeElement.id)) !== 'heatmap'; k += 1) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await page.evaluate(() => document.activeElement.id), 'heatmap');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => /position 1, column 2 \(sin/.test(document.getElementById('heatmap-hover').textContent));
    assert.match(await page.locator('#heatmap').getAttribute('aria-label'), /P/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('themes and presenting', () => {
  const background = (page) => page.evaluate(() => getComputedStyle(document.body.parentElement).getPropertyValue('--page').trim());
  test('dark theme by link and by system setting; projector mode by button', async () => {
    const dark = await open(`${origin}/?theme=dark`);
    assert.equal(await dark.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await background(dark.page), '#10151b');
    await screenshot(dark.page, 'theme-dark');
    await dark.page.close();

    const { page: system } = await open(`${origin}/`, [1400, 2400], { colorScheme: 'dark' });
    assert.equal(await background(system), '#10151b');
    await system.close();

    const { page, problems } = await open(`${origin}/`);
    assert.equal(await background(page), '#f3f5f8');
    await page.locator('#present-toggle').click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('present') === '1');
    // The link is written at once, the look in the next frame.
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
    const size = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    assert.ok(size >= 22, `projector type is ${size}px`);
    await drawn(page);
    await screenshot(page, 'projector');
    await page.locator('#theme-select').selectOption('dark');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('theme') === 'dark');
    await screenshot(page, 'projector-dark');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('offline and self-contained', () => {
  test('works from a sub-path, and no request leaves the page\'s origin', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pe-lab-subpath-'));
    mkdirSync(join(root, 'course'));
    symlinkSync(resolve(DIST), join(root, 'course', 'pe-lab'));
    const sub = await serve(root, 0);
    const subOrigin = `http://127.0.0.1:${sub.address().port}`;
    const started = Date.now();
    const { page, requests } = await open(`${subOrigin}/course/pe-lab/?compute=gpu`);
    const loadMs = Date.now() - started;
    await page.evaluate(() => window.peLab.set({ d: 40, text: 'a b c' }));
    await drawn(page);
    const s = await stats(page);
    assert.ok((await canvasInk(page, 'heatmap')).colours > 20);
    const foreign = requests.filter((u) => !u.startsWith(`${subOrigin}/course/pe-lab/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
    assert.deepEqual(foreign, [], 'every request stays under the page\'s own folder');
    console.log(`sub-path load: ${requests.length} requests, ready after ${loadMs} ms, first frame at ${s.firstFrameMs.toFixed(0)} ms (${s.backend})`);
    await page.close();
    sub.close();
  });

  test('panels off screen are drawn only once scrolled to', async () => {
    const { page, problems } = await open('', [1400, 900]);
    const scalingCanvas = await page.evaluate(() => document.querySelector('#panel-scaling canvas').id);
    // A canvas nobody has drawn on is fully transparent.
    const painted = (id) => page.evaluate((id) => {
      const c = document.getElementById(id);
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let k = 3; k < data.length; k += 4) if (data[k] !== 0) return true;
      return false;
    }, id);
    assert.equal(await painted('heatmap'), true);
    assert.equal(await painted(scalingCanvas), false, 'the scaling panel should not be drawn yet');
    await page.locator('#panel-scaling').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => window.peLab.stats.panels.scaling, null, { timeout: 10000 }).catch(() => {});
    for (let k = 0; k < 50 && !(await painted(scalingCanvas)); k += 1) await page.waitForTimeout(100);
    assert.equal(await painted(scalingCanvas), true, 'the scaling panel is drawn once on screen');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
