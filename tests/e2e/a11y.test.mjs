// Accessibility of every screen a class uses: axe-core's WCAG 2.0/2.1/2.2 A and AA rules and
// its best practices in every mode the page has (light, dark, projector, embed), with every lazily
// drawn panel drawn; keyboard reading of the heatmaps; the base slider's step; tooltips that stay
// inside a phone's viewport.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, open, settle, setUp, showAndDraw } from './helpers.mjs';

setUp();

/** Scrolls every visible panel into view so that each lazily drawn one is drawn, then waits. */
async function drawEveryPanel(page) {
  const sections = page.locator('section.panel');
  const count = await sections.count();
  for (let k = 0; k < count; k += 1) {
    const section = sections.nth(k);
    if (await section.isVisible()) {
      await section.scrollIntoViewIfNeeded();
      await settle(page);
    }
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

function describeViolations(violations) {
  return violations.map((v) => [
    `${v.id} (${v.impact}): ${v.help}`,
    ...v.nodes.map((n) => `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1).join(' ').trim()}` : ''}`),
  ].join('\n')).join('\n');
}

// [name, query, viewport, system colour scheme]
const LAPTOP = [1400, 900];
const PHONE = [390, 844];
const MODES = [
  ['light', '', LAPTOP],
  ['dark', 'theme=dark', LAPTOP],
  ['dark by the system setting', '', LAPTOP, 'dark'],
  ['projector', 'present=1', LAPTOP],
  ['projector, dark', 'present=1&theme=dark', LAPTOP],
  ['embed attention', 'embed=attention', [700, 900]],
  ['embed heatmap', 'embed=heatmap', [700, 900]],
  ['phone', '', PHONE],
  ['phone, dark', 'theme=dark', PHONE],
];

describe('axe-core: no WCAG 2.2 AA or best-practice violations', () => {
  for (const [name, query, viewport, colorScheme = 'light'] of MODES) {
    test(name, async () => {
      const { page, problems } = await open(query, viewport);
      await page.emulateMedia({ colorScheme });
      await drawEveryPanel(page);
      const violations = await axeViolations(page);
      assert.equal(violations.length, 0, `axe-core (${name}):\n${describeViolations(violations)}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});

test('the embed page has a level-one heading that names its panel', async () => {
  const { page } = await open('embed=attention', [700, 900]);
  const headings = await page.evaluate(() => Array.from(document.querySelectorAll('h1'))
    .filter((h) => h.getClientRects().length > 0).map((h) => h.textContent));
  assert.deepEqual(headings, ['pe-lab: Attention weights of a sentence']);
  await page.close();
});

// Each heatmap read from the keyboard: [canvas, read-out, text of cell (1, 1) after → and ↓].
const HEATMAPS = [
  ['heatmap', 'heatmap-hover', /^position 1, column 1 \(cos, pair j = 0/],
  ['attn-heatmap', 'attn-hover', /^query “\S+” \(row 1\) → key “\S+” \(column 1\): weight 0\.\d{4}$/],
  ['heads-canvas', 'heads-hover', /^sequence 0, head 0 \(valid_len 3\): query “\S+” \(row 1\) → key “\S+” \(column 1\): weight 0\.\d{4}$/],
  ['sim-heatmap', 'sim-hover', /^position i = 1 \(row\), position j = 1 \(column\), offset k = 0: G\[1, 1\] = p₁·p₁ = 16\.0000$/],
];

/** Waits until the read-out `id` matches `pattern`, and returns its text. */
async function readOut(page, id, pattern) {
  await page.waitForFunction(
    ([id, source]) => new RegExp(source).test(document.getElementById(id).textContent),
    [id, pattern.source],
    { timeout: 5000 },
  ).catch(async () => {
    assert.fail(`#${id} says “${await page.locator(`#${id}`).textContent()}”, expected ${pattern}`);
  });
  return page.locator(`#${id}`).textContent();
}

describe('keyboard reading of the heatmaps', () => {
  for (const [canvas, hover, cell11] of HEATMAPS) {
    test(`#${canvas}: focus, arrows, Home/End${canvas === 'heads-canvas' ? ', Page Up/Down change map' : ''}`, async () => {
      const { page, problems } = await open('', LAPTOP);
      const target = page.locator(`#${canvas}`);
      await showAndDraw(page, `#${canvas}`);
      assert.equal(await target.getAttribute('tabindex'), '0', 'the heatmap must be reachable with Tab');
      const before = await page.locator(`#${hover}`).textContent();
      await target.focus();
      // Focus shows the cursor cell (0, 0).
      const first = await readOut(page, hover, /\(row 0\)|position 0, column 0|position i = 0 \(row\)/);
      assert.notEqual(first, before);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      const moved = await readOut(page, hover, cell11);
      assert.notEqual(moved, first);
      await page.keyboard.press('End');
      if (canvas === 'heatmap') await readOut(page, hover, /^position 1, column 31 /);
      if (canvas === 'sim-heatmap') await readOut(page, hover, /^position i = 1 \(row\), position j = 59 \(column\), offset k = 58:/);
      if (canvas === 'attn-heatmap' || canvas === 'heads-canvas') await readOut(page, hover, /\(row 1\) → key “\S+” \(column [3-9]\d*\)/);
      await page.keyboard.press('Home');
      await readOut(page, hover, /\(row 1\) → key “\S+” \(column 0\)|position 1, column 0 |position j = 0 \(column\)/);
      if (canvas === 'heads-canvas') {
        await page.keyboard.press('PageDown');
        await readOut(page, hover, /^sequence 0, head 1 \(valid_len 3\): query “\S+” \(row 1\) → key “\S+” \(column 0\)/);
        for (let k = 0; k < 10; k += 1) await page.keyboard.press('PageDown');
        await readOut(page, hover, /^sequence 1, head 3 \(valid_len 2\):/);
        await page.keyboard.press('PageUp');
        await readOut(page, hover, /^sequence 1, head 2 \(valid_len 2\):/);
      } else {
        await page.keyboard.press('PageDown');
        await readOut(page, hover, /\(row 11\)|^position 11, column 0 |position i = 11 \(row\)|\(row [1-9]\) → key/);
      }
      const tooltip = page.locator(`#${canvas === 'heatmap' ? 'heatmap' : canvas.split('-')[0]}-tooltip`);
      assert.ok(await tooltip.isVisible(), 'the tooltip shows the cell too');
      assert.equal(await tooltip.textContent(), await page.locator(`#${hover}`).textContent());
      // Leaving the heatmap with Tab hides the tooltip.
      await page.keyboard.press('Tab');
      assert.ok(await tooltip.isHidden());
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});

describe('the base slider', () => {
  test('one arrow key is a visible, round step; right then left comes back', async () => {
    const { page, problems } = await open('', LAPTOP);
    const base = () => page.evaluate(() => window.peLab.state.base);
    assert.equal(await base(), 10000);
    const slider = page.locator('#base-range');
    assert.equal(await slider.getAttribute('step'), '0.05');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.peLab.state.base !== 10000);
    const up = await base();
    assert.ok(up > 10000 * 1.05, `one step up from 10000 gave ${up}`);
    assert.equal(up, 11200);
    await page.waitForFunction(() => document.getElementById('base-number').value === '11200');
    assert.equal(await slider.getAttribute('aria-valuetext'), 'base = 11200');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.peLab.state.base === 10000);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.peLab.state.base !== 10000);
    assert.equal(await base(), 8910);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.peLab.state.base === 10000);
    // The ends: 2 and 10⁶ exactly.
    await page.keyboard.press('Home');
    await page.waitForFunction(() => window.peLab.state.base === 2);
    await page.keyboard.press('End');
    await page.waitForFunction(() => window.peLab.state.base === 1e6);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('tooltips stay inside a phone\'s window', () => {
  /** The CSS point (window coordinates) of the right edge of a heatmap's cells, `fy` of the way down. */
  const rightEdge = (page, canvas, image, fy) => page.evaluate(([canvas, image, fy]) => {
    const c = document.getElementById(canvas);
    const [x0, y0, x1, y1] = image === 'heatmap' ? window.peLab.stats.heatmapImage
      : window.peLab.stats.panels[image].image;
    const box = c.getBoundingClientRect();
    const sx = box.width / c.width;
    const sy = box.height / c.height;
    return { x: box.left + (x1 - 1.5) * sx, y: box.top + (y0 + fy * (y1 - y0)) * sy };
  }, [canvas, image, fy]);
  const inside = (page, id) => page.evaluate((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    const root = document.documentElement;
    return { ok: r.left >= 0 && r.top >= 0 && r.right <= root.clientWidth && r.bottom <= root.clientHeight,
      box: [r.left, r.top, r.right, r.bottom].map(Math.round), window: [root.clientWidth, root.clientHeight] };
  }, id);

  for (const [canvas, tooltip, image] of [
    ['heatmap', 'heatmap-tooltip', 'heatmap'],
    ['attn-heatmap', 'attn-tooltip', 'attention'],
    ['sim-heatmap', 'sim-tooltip', 'similarity'],
  ]) {
    test(`#${tooltip}: hovering the right edge of #${canvas} at 390 px (and 1400 px)`, async () => {
      const flips = [];
      for (const viewport of [PHONE, LAPTOP]) {
      const { page, problems } = await open('', viewport);
      for (const [block, fy] of [['center', 0.5], ['end', 0.98]]) {
        await page.evaluate(([id, block]) => document.getElementById(id).scrollIntoView({ block }), [canvas, block]);
        await settle(page);
        if (block === 'end') {
          // P's heatmap is on the first screen, too near the page's top to scroll its last row
          // down to the window's bottom edge: a window's height of room above the page first.
          await page.evaluate(() => { document.getElementById('pe-lab').style.marginTop = '100vh'; });
          // The last row of cells just above the window's bottom edge, whatever lies below the
          // cells on the canvas (axis labels): there the tooltip must go up.
          const { y } = await rightEdge(page, canvas, image, fy);
          await page.evaluate((by) => window.scrollBy(0, by), y - (await page.evaluate(() => window.innerHeight)) + 12);
          await settle(page);
        }
        await page.mouse.move(1, 1);
        const { x, y } = await rightEdge(page, canvas, image, fy);
        await page.mouse.move(x, y);
        await page.locator(`#${tooltip}`).waitFor({ state: 'visible' });
        const where = await inside(page, tooltip);
        assert.ok(where.ok, `#${tooltip} at ${where.box} leaves the ${where.window} window (${block})`);
        // Flipped to the left of (or above) the pointer where it would leave the window on the right
        // (or at the bottom) and fits there; never over the pointer.
        const [left, top, right, bottom] = where.box;
        const [width, height] = [right - left, bottom - top];
        const [windowWidth, windowHeight] = where.window;
        if (x + 14 + width > windowWidth && x - 14 - width >= 4) assert.ok(right <= x, `#${tooltip} at ${where.box}: not flipped left of x = ${x}`);
        if (y + 14 + height > windowHeight && y - 14 - height >= 4) assert.ok(bottom <= y, `#${tooltip} at ${where.box}: not flipped above y = ${y}`);
        assert.ok(!(x >= left && x <= right && y >= top && y <= bottom), `#${tooltip} at ${where.box} covers the pointer (${x}, ${y})`);
        flips.push(right <= x ? 'left' : 'right', bottom <= y ? 'up' : 'down');
      }
      assert.deepEqual(problems, []);
      await page.close();
      }
      assert.ok(flips.includes('up'), `the tooltip never flipped up: ${flips}`);
    });
  }

  test('#heads-tooltip: the last cell of the last map, from the keyboard, at 390 px', async () => {
    const { page, problems } = await open('', PHONE);
    await showAndDraw(page, '#heads-canvas');
    await page.locator('#heads-canvas').focus();
    for (let k = 0; k < 7; k += 1) await page.keyboard.press('PageDown');
    await page.keyboard.press('End');
    for (let k = 0; k < 3; k += 1) await page.keyboard.press('ArrowDown');
    await readOut(page, 'heads-hover', /^sequence 1, head 3 \(valid_len 2\): query “\S+” \(row 3\) → key “\S+” \(column 3\): masked/);
    const where = await inside(page, 'heads-tooltip');
    assert.ok(where.ok, `#heads-tooltip at ${where.box} leaves the ${where.window} window`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
