// Compact embeds in a course page's <iframe>: at 800 px wide the heatmap, curves, projection and
// attention panels are at most 800 px tall with their figure whole (every panel's height is
// printed with PE_LAB_EMBED_ALL=1); each shows its one-line caption and folds its prose behind "About this figure"; before
// the wasm starts nothing of the app's header shows; the course-page mock-up does not jump when its
// frames report their heights (CLS < 0.1); axe-core finds nothing in an embed with its prose open.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON, axeViolations, cls, open, origin, recordLayoutShifts, screenshot, setUp } from './helpers.mjs';

// The panels in lesson order (the one list of panels); the four below must fit 800 px.
const PANELS = LESSON;
const COMPACT = ['heatmap', 'curves', 'projection', 'attention'];
// Every panel's height is measured with PE_LAB_EMBED_ALL=1 (a minute more); the four above always.
const MEASURED = process.env.PE_LAB_EMBED_ALL ? PANELS : COMPACT;

// Pages open in an 800 px frame, as a course page embeds them.
setUp({ size: [800, 900] });

/** The page's own height (the frame reports it), and where its panel's figures end. */
function measure(page, panel) {
  return page.evaluate((panel) => {
    const section = document.getElementById(`panel-${panel}`);
    const figures = [...section.querySelectorAll('canvas.figure-main')].map((c) => c.getBoundingClientRect());
    return {
      height: Math.ceil(document.documentElement.getBoundingClientRect().height),
      figureBottom: Math.max(...figures.map((f) => f.bottom + window.scrollY)),
      figureHeight: Math.min(...figures.map((f) => f.height)),
    };
  }, panel);
}

describe('an embedded panel at 800 px wide', () => {
  test('the heatmap, curves, projection and attention panels are at most 800 px tall, figure whole', async () => {
    const heights = {};
    const failures = [];
    // Two pages at a time: each load compiles the wasm, the longest part of the test.
    for (let k = 0; k < MEASURED.length; k += 2) {
      await Promise.all(MEASURED.slice(k, k + 2).map(async (panel) => {
        const { page, problems } = await open(`embed=${panel}`);
        await page.evaluate(() => window.peLab.whenDrawn());
        const { height, figureBottom, figureHeight } = await measure(page, panel);
        heights[panel] = height;
        if (COMPACT.includes(panel)) {
          await screenshot(page, `embed-compact-${panel}`);
          if (height > 800) failures.push(`embed=${panel} is ${height} px tall`);
          if (!(figureBottom <= height && figureHeight > 200)) {
            failures.push(`embed=${panel}: figure ends at ${figureBottom} of ${height}, ${figureHeight} px tall`);
          }
        }
        failures.push(...problems.map((p) => `embed=${panel}: ${p}`));
        await page.close();
      }));
    }
    console.log(`embed heights at 800 px: ${MEASURED.map((p) => `${p} ${heights[p]}`).join(', ')}`);
    assert.deepEqual(failures, []);
  });

  test('shows its one-line caption; its prose opens and closes with "About this figure"', async () => {
    const { page } = await open('embed=curves');
    const caption = page.locator('#panel-curves .embed-caption');
    assert.match(await caption.textContent(), /^Columns of P against position/);
    const line = await caption.evaluate((p) => parseFloat(getComputedStyle(p).lineHeight));
    assert.ok((await caption.boundingBox()).height < 1.5 * line, 'the caption is one line at 800 px');
    const prose = page.locator('#panel-curves .explain');
    const about = page.getByRole('button', { name: 'About this figure' });
    assert.ok(await prose.isHidden());
    assert.equal(await about.getAttribute('aria-expanded'), 'false');
    const before = await measure(page, 'curves');
    await about.focus();
    await page.keyboard.press('Enter');
    assert.ok(await prose.isVisible());
    assert.equal(await about.getAttribute('aria-expanded'), 'true');
    const controlled = await about.getAttribute('aria-controls');
    assert.ok(await page.locator(`#${controlled}`).evaluate((region, p) => region.contains(p), await prose.elementHandle()));
    assert.ok((await measure(page, 'curves')).height > before.height + 40);
    await page.keyboard.press('Space');
    assert.ok(await prose.isHidden());
    assert.equal(await about.getAttribute('aria-expanded'), 'false');
    await page.close();
  });

  test('before the wasm starts: no header, only its panel, the figure\'s place kept', async () => {
    for (const panel of ['heatmap', 'attention']) {
      // The module never arrives (its request is left unanswered): the page stays as the HTML
      // and the head script left it.
      const { page } = await open(`embed=${panel}&controls=d,n`, undefined, { holdWasm: true });
      assert.equal(await page.evaluate(() => document.documentElement.dataset.embed), panel);
      assert.ok(await page.locator('header.top').isHidden(), 'the header is hidden');
      assert.ok(await page.locator('.page-tools').isHidden());
      const shown = await page.evaluate(() => [...document.querySelectorAll('section.panel')]
        .filter((s) => s.getClientRects().length > 0).map((s) => s.id));
      assert.deepEqual(shown, [`panel-${panel}`]);
      assert.ok(await page.locator('#d-range').isVisible());
      assert.ok(await page.locator('#base-range').isHidden(), 'controls=d,n hides base');
      assert.ok(await page.locator(`#panel-${panel} .explain`).isHidden(), 'the prose is folded');
      const early = await measure(page, panel);
      await page.close();
      // The same panel once started: its figure where it was kept (the caption filled its line).
      const started = await open(`embed=${panel}&controls=d,n`);
      const late = await measure(started.page, panel);
      assert.ok(Math.abs(late.figureBottom - early.figureBottom) <= 60,
        `embed=${panel}: figure ends at ${early.figureBottom} before the wasm, ${late.figureBottom} after`);
      await started.page.close();
    }
  });

  test('a name that is no panel shows the whole page and says so', async () => {
    const { page } = await open('embed=nothing');
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-embed')), false);
    assert.ok(await page.locator('header.top').isVisible());
    assert.match(await page.locator('#notices-list').textContent(), /embed = 'nothing' is not a panel/);
    await page.close();
  });

  test('axe-core finds nothing in an embed with its prose open', async () => {
    const { page } = await open('embed=projection');
    await page.getByRole('button', { name: 'About this figure' }).click();
    const violations = await axeViolations(page);
    assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
    await page.close();
  });
});

test('the course-page mock-up does not jump when its frames start (CLS < 0.1)', async () => {
  const { page } = await open(`${origin}/embed-example.html`, [1366, 768], { ready: false, init: recordLayoutShifts });
  const headingTop = () => page.evaluate(() => document.querySelector('h2').getBoundingClientRect().top);
  const early = await headingTop();
  // Both frames reported their heights: each frame's height is its page's.
  for (const id of ['frame-heatmap', 'frame-projection']) {
    await page.frameLocator(`#${id}`).locator('.embed-caption').waitFor();
    await page.waitForFunction((id) => {
      const frame = document.getElementById(id);
      const inner = frame.contentDocument?.documentElement.getBoundingClientRect().height;
      return inner > 0 && Math.abs(frame.getBoundingClientRect().height - Math.ceil(inner)) <= 1;
    }, id, { timeout: 15000 });
  }
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shifted = await cls(page);
  const late = await headingTop();
  const frames = await page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => `${f.id} ${Math.round(f.getBoundingClientRect().height)} px`));
  await screenshot(page, 'embed-example-1366');
  console.log(`course page at 1366×768: CLS ${shifted.toFixed(4)}; "Exercises" at y = ${early} before, ${late} after; ${frames.join(', ')}`);
  assert.ok(shifted < 0.1, `CLS ${shifted}`);
  assert.ok(Math.abs(late - early) < 40, `the next heading moved from ${early} to ${late}`);
  await page.close();
});
