// Matrix figures that stay readable: at 1024 × 768 in projector mode the attention heatmap keeps
// cells of at least 12 CSS px (model::plot::MIN_CELL_PX), the pipeline rows of 12 px with every
// token named, and every row and column of named axes is labelled or covered by a caption that
// says how the names are thinned;
// in the dark theme every matrix canvas has dark paper; a tap on P's heatmap reads the tapped cell.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { at, open, screenshotOf, setUp } from './helpers.mjs';

setUp({ scale: 2, drawn: true });

const MIN_CELL_PX = 12;
const MIN_FEATURE_COLUMN_PX = 4;
const MATRIX_CANVASES = ['heatmap', 'attn-heatmap', 'pipeline-canvas', 'heads-canvas', 'sim-heatmap',
  'binary-bits', 'binary-p'];

/** Scrolls a panel into view and waits until its figures are drawn at their final size. */
async function show(page, panel) {
  await page.locator(`#panel-${panel}`).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.peLab.whenDrawn());
  await page.waitForTimeout(150);
  await page.evaluate(() => window.peLab.whenDrawn());
}

/** What a matrix canvas records: its smallest cell (CSS px), its label steps and caption. */
function cells(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const [width, height] = (c.getAttribute('data-cell-css-px') || '0 0').split(' ').map(Number);
    const [columnStep, rowStep] = (c.getAttribute('data-label-step') || '1 1').split(' ').map(Number);
    const box = c.getBoundingClientRect();
    return { width, height, columnStep, rowStep, caption: c.getAttribute('data-label-caption') || '',
      cssWidth: box.width, logicalWidth: Number(c.getAttribute('data-logical-width')) };
  }, id);
}

const ORDINAL = (k) => `${k}${k % 100 >= 11 && k % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[k % 10] || 'th')}`;

describe('matrix figures', () => {
  test('at 1024 × 768 in projector mode, cells are at least 12 CSS px tall, the pipeline names every token, and thinned names are said to be', async () => {
    const { page, context, problems } = await open(at('present=1'), [1024, 768]);
    for (const [panel, id] of [['pipeline', 'pipeline-canvas'], ['attention', 'attn-heatmap']]) {
      await show(page, panel);
      const c = await cells(page, id);
      // The pipeline's feature stages (Z, Q, K, V, weights·V, the output) are pictures of a pattern,
      // named by their shape label: their columns may narrow (model::plot::MIN_FEATURE_COLUMN_PX)
      // so that the nine stages take two bands and every token's row keeps its name.
      const narrowest = id === 'pipeline-canvas' ? MIN_FEATURE_COLUMN_PX : MIN_CELL_PX;
      assert.ok(c.width >= narrowest && c.height >= MIN_CELL_PX, `${id}: cells ${c.width} × ${c.height} CSS px`);
      if (id === 'pipeline-canvas') assert.equal(c.rowStep, 1, `${id}: every token named (${JSON.stringify(c)})`);
      for (const step of [c.columnStep, c.rowStep]) {
        // 0: the axis names no cell one by one (the pipeline's feature columns: its shape label does).
        if (step > 1) assert.match(c.caption, new RegExp(`every ${ORDINAL(step)} `), `${id}: ${JSON.stringify(c)}`);
      }
      await screenshotOf(page, `#panel-${panel}`, `matrices-proj1024-${panel}`);
    }
    // The pipeline's nine stages wrap onto bands rather than squash, and fit below the takeaway of
    // the step (its title just below the bar).
    await page.evaluate(() => document.getElementById('panel-pipeline').scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(150);
    const pipeline = await page.evaluate(() => {
      const box = document.getElementById('pipeline-canvas').getBoundingClientRect();
      return { height: box.height, bottom: box.bottom, view: innerHeight };
    });
    assert.ok(pipeline.height > 300 && pipeline.bottom <= pipeline.view, JSON.stringify(pipeline));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a jump from the curves to the binary panel draws its copy of P', async () => {
    // The binary panel copies P's image from the heatmap's canvas; on the CPU a frame leaves that
    // canvas's cells for later while the heatmap is off screen, as it is between the curves and
    // the binary panel (the copy was once blank there).
    const { page, context, problems } = await open(at('present=1', '#panel-curves'), [1024, 768]);
    await page.evaluate(() => window.peLab.whenDrawn());
    // The link's own jump, as a reader's click on a link to the binary panel makes it.
    await page.goto(at('present=1', '#panel-binary'));
    await page.waitForTimeout(300);
    await page.evaluate(() => window.peLab.whenDrawn());
    await page.waitForTimeout(150);
    await page.evaluate(() => window.peLab.whenDrawn());
    const painted = await page.evaluate(() => {
      const c = document.getElementById('binary-p');
      const g = c.getContext('2d');
      const paper = Array.from(g.getImageData(1, 1, 1, 1).data.slice(0, 3)).join();
      let differing = 0;
      let samples = 0;
      for (let y = 0.3; y <= 0.6; y += 0.05) {
        for (let x = 0.4; x <= 0.8; x += 0.05) {
          samples += 1;
          const pixel = Array.from(g.getImageData(Math.round(x * c.width), Math.round(y * c.height), 1, 1).data.slice(0, 3)).join();
          if (pixel !== paper) differing += 1;
        }
      }
      return differing / samples;
    });
    assert.ok(painted > 0.8, `binary-p: ${(100 * painted).toFixed(0)}% of the samples inside the plot differ from the paper`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('in the dark theme the corners of every matrix canvas are dark', async () => {
    const { page, context, problems } = await open(at('theme=dark'), [1366, 768]);
    for (const [panel, ids] of [['heatmap', ['heatmap']], ['attention', ['attn-heatmap']],
      ['pipeline', ['pipeline-canvas']], ['heads', ['heads-canvas']], ['similarity', ['sim-heatmap']],
      ['binary', ['binary-bits', 'binary-p']]]) {
      await show(page, panel);
      for (const id of ids) {
        const corners = await page.evaluate((id) => {
          const c = document.getElementById(id);
          const g = c.getContext('2d');
          return [[1, 1], [c.width - 2, 1], [1, c.height - 2], [c.width - 2, c.height - 2]]
            .map(([x, y]) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
        }, id);
        for (const [r, g, b] of corners) {
          assert.ok(0.2126 * r + 0.7152 * g + 0.0722 * b < 60, `${id}: corner ${[r, g, b]}`);
        }
      }
    }
    assert.ok(MATRIX_CANVASES.length > 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a tap on P\'s heatmap reads the tapped cell', async () => {
    const { page, context, problems } = await open(at(), [390, 844], { hasTouch: true, isMobile: true });
    await show(page, 'heatmap');
    const canvas = page.locator('#heatmap');
    for (const [row, column] of [[5, 3], [17, 20]]) {
      const point = await page.evaluate(([row, column]) => {
        const c = document.getElementById('heatmap');
        const [x0, y0, x1, y1] = window.peLab.stats.heatmapImage;
        const { rows, columns } = window.peLab.stats;
        const box = c.getBoundingClientRect();
        const scale = box.width / c.width;
        return { x: box.left + (x0 + (column + 0.5) * (x1 - x0) / columns) * scale,
          y: box.top + (y0 + (row + 0.5) * (y1 - y0) / rows) * scale };
      }, [row, column]);
      await page.touchscreen.tap(point.x, point.y);
      await page.waitForFunction(([row, column]) => document.getElementById('heatmap-hover').textContent
        .startsWith(`position ${row}, column ${column} `), [row, column], { timeout: 3000 })
        .catch(async () => assert.fail(`tap on (${row}, ${column}) read “${await page.locator('#heatmap-hover').textContent()}”`));
    }
    assert.ok(await canvas.isVisible());
    assert.deepEqual(problems, []);
    await context.close();
  });
});
