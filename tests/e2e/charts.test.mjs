// One chart style for every chart: legends beside or below the plot (never over the data), bar
// values beyond their bars, figures on dark paper in the dark theme, and tick type that grows
// with the prose in projector mode. Each chart writes where its plot and legend went
// (`data-plot-area`, `data-legend`, in the logical pixels it draws in) and its tick size
// (`data-tick-px`); bar charts also `data-bars` and `data-bar-values`, and those that write their
// bars' names themselves `data-bar-names`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drawn, open, screenshotOf, setUp, showAndDraw } from './helpers.mjs';

setUp({ scale: 2 });

// The panels with charts (plotters or hand-drawn), in the page's order.
const CHART_PANELS = ['complexity', 'curves', 'projection', 'similarity', 'order', 'scaling', 'rope',
  'extension', 'alibi', 't5', 'nope', 'stacking'];
// Fewer would mean a chart stopped recording its layout (or was not drawn).
const MIN_CHARTS = 14;

/** Opens the page and brings every chart panel on screen once, so that each is drawn. */
async function openAll(size, query = '') {
  const opened = await open(query, size);
  for (const panel of CHART_PANELS) {
    await showAndDraw(opened.page, `#panel-${panel}`);
  }
  return opened;
}

/** Every recorded chart: its id, CSS and logical sizes, plot, legend, tick size and bars. */
function charts(page) {
  return page.evaluate(() => {
    const rect = (text) => text ? text.split(' ').map(Number) : null;
    const rects = (text) => text ? text.split(';').map(rect) : [];
    return [...document.querySelectorAll('canvas[data-plot-area]')].map((c) => {
      const box = c.getBoundingClientRect();
      return {
        id: c.id,
        css: [box.width, box.height],
        logical: [Number(c.dataset.logicalWidth), Number(c.dataset.logicalHeight)],
        plot: rect(c.dataset.plotArea),
        legend: rect(c.dataset.legend),
        tickPx: Number(c.dataset.tickPx),
        bars: rects(c.dataset.bars),
        values: rects(c.dataset.barValues),
        names: rects(c.dataset.barNames),
        legendCut: Number(c.dataset.legendCut),
      };
    });
  });
}

const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
const inside = (a, [w, h]) => a[0] >= -0.5 && a[1] >= -0.5 && a[2] <= w + 0.5 && a[3] <= h + 0.5;

/** A chart that names its bars names every one, below the plot, none over another. */
function assertBarNames(chart) {
  if (chart.names.length === 0) return;
  assert.equal(chart.names.length, chart.bars.length, `${chart.id}: ${chart.names.length} names for ${chart.bars.length} bars`);
  chart.names.forEach((name, k) => {
    assert.ok(inside(name, chart.logical), `${chart.id}: name ${k} ${name} outside the canvas`);
    assert.ok(name[1] >= chart.plot[3] - 0.5, `${chart.id}: name ${k} ${name} over the plot ${chart.plot}`);
    chart.names.slice(k + 1).forEach((other, j) => {
      assert.ok(!overlap(name, other), `${chart.id}: names ${k} and ${k + 1 + j} overlap: ${name} ${other}`);
    });
  });
}

describe('chart layout', () => {
  for (const [name, size] of [['phone', [390, 844]], ['laptop', [1366, 768]]]) {
    test(`${name}: legends and bar values stay off the data`, async () => {
      const { page, problems } = await openAll(size);
      const found = await charts(page);
      await screenshotOf(page, '#panel-curves', `charts-${name}-curves`);
      await page.close();
      assert.deepEqual(problems, []);
      assert.ok(found.length >= MIN_CHARTS, `${found.length} charts recorded: ${found.map((c) => c.id)}`);
      for (const chart of found) {
        const [w, h] = chart.logical;
        assert.ok(chart.plot[2] - chart.plot[0] > 0.3 * w, `${chart.id}: plot ${chart.plot} in ${w}`);
        // A phone shows some charts only about 150 px tall (their CSS box keeps the desktop's
        // aspect ratio), so a legend below leaves the plot a fifth of the height.
        assert.ok(chart.plot[3] - chart.plot[1] >= 0.2 * h, `${chart.id}: plot ${chart.plot} in ${h}`);
        assert.ok(inside(chart.plot, chart.logical), `${chart.id}: plot ${chart.plot}`);
        if (chart.legend) {
          assert.ok(!overlap(chart.legend, chart.plot), `${chart.id}: legend ${chart.legend} over plot ${chart.plot}`);
          assert.ok(inside(chart.legend, chart.logical), `${chart.id}: legend ${chart.legend} outside ${w}×${h}`);
        }
        assert.equal(chart.bars.length, chart.values.length, chart.id);
        chart.bars.forEach((bar, k) => {
          const value = chart.values[k];
          assert.ok(!overlap(bar, value), `${chart.id}: value ${k} ${value} on its bar ${bar}`);
          assert.ok(inside(value, chart.logical), `${chart.id}: value ${k} ${value} outside the canvas`);
        });
        assertBarNames(chart);
      }
      // The curves' legend (four columns) is beside the plot on a laptop, below it on a phone.
      const curves = found.find((c) => c.id === 'curves');
      assert.ok(curves?.legend, 'the curves chart has a legend');
      if (name === 'phone') assert.ok(curves.legend[1] >= curves.plot[3], `below: ${curves.legend} ${curves.plot}`);
      else assert.ok(curves.legend[0] >= curves.plot[2], `beside: ${curves.legend} ${curves.plot}`);
      assert.ok(found.some((c) => c.bars.length > 0), 'a bar chart records its bars');
    });
  }
});

// The curves' legend names each column's period, the answer to its panel's question: no entry of
// it (nor of the similarity charts' legends) may be cut, in any mode. Each chart records how many
// entries it had to cut (`data-legend-cut`); on a projector "col 7: cos, period 35.3" once read
// "col 7: cos, period 3…" (a rounding of the text's room, model::chart_layout).
describe('legend text', () => {
  for (const [name, size, query] of [['phone', [390, 844], ''], ['laptop', [1366, 768], ''],
    ['projector 1024×768', [1024, 768], 'present=1'], ['projector 1920×1080', [1920, 1080], 'present=1'],
    ['projector 1024×768, counted from 1', [1024, 768], 'present=1&index=1&cols=5,6,7,8,9']]) {
    test(`${name}: no entry of the curves' or the similarity charts' legends is cut`, async () => {
      const { page, problems } = await openAll(size, query);
      const found = await charts(page);
      await page.close();
      assert.deepEqual(problems, []);
      const checked = found.filter((c) => ['curves', 'sim-curve', 'sim-norm'].includes(c.id));
      assert.equal(checked.length, 3, `charts found: ${found.map((c) => c.id)}`);
      for (const chart of checked) {
        assert.equal(chart.legendCut, 0, `${chart.id}: ${chart.legendCut} entries cut at ${chart.logical}`);
      }
      const cut = found.filter((c) => c.legendCut > 0).map((c) => `${c.id} ${c.legendCut}`);
      if (cut.length) console.log(`${name}: other charts with a cut legend entry: ${cut.join(', ')}`);
    });
  }
});

describe('chart looks', () => {
  test('dark theme: every chart is drawn on dark paper', async () => {
    const { page, problems } = await openAll([1366, 768], 'theme=dark');
    const corners = await page.evaluate(() => [...document.querySelectorAll('canvas[data-plot-area]')].map((c) => {
      const context = c.getContext('2d');
      const points = [[1, 1], [c.width - 2, 1], [1, c.height - 2], [c.width - 2, c.height - 2]];
      const lum = points.map(([x, y]) => {
        const [r, g, b] = context.getImageData(x, y, 1, 1).data;
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      });
      return { id: c.id, lum };
    }));
    await screenshotOf(page, '#panel-scaling', 'charts-dark-scaling');
    await page.close();
    assert.deepEqual(problems, []);
    assert.ok(corners.length >= MIN_CHARTS, `${corners.length} charts`);
    for (const { id, lum } of corners) {
      assert.ok(lum.every((l) => l < 0.2), `${id}: corner luminance ${lum.map((l) => l.toFixed(2))}`);
    }
  });

  for (const size of [[1024, 768], [1920, 1080]]) {
    test(`projector ${size.join('×')}: tick type at least ¾ of the prose`, async () => {
      const { page, problems } = await openAll(size, 'present=1');
      const found = await charts(page);
      const prose = await page.evaluate(() =>
        parseFloat(getComputedStyle(document.querySelector('#panel-curves p')).fontSize));
      await page.close();
      assert.deepEqual(problems, []);
      assert.ok(found.length >= MIN_CHARTS, `${found.length} charts`);
      for (const chart of found) {
        const tickCss = chart.tickPx * chart.css[0] / chart.logical[0];
        assert.ok(tickCss >= 0.75 * prose - 0.5, `${chart.id}: ticks ${tickCss.toFixed(1)} px, prose ${prose} px`);
        // The projector's larger type once dropped every second name of the dot-product bars.
        assertBarNames(chart);
      }
      assert.ok(found.some((c) => c.names.length > 0), 'a bar chart records its names');
    });
  }
});

// The ALiBi panel's bias matrices, one block per head: each block carries its head's name ("h0",
// …) over its own masked cells (right of the diagonal, where it hides no bias), at every size and
// head count; on a projector at 1024 × 768 the blocks once showed no name at all. The canvas
// records its blocks and names (`data-head-blocks`, `data-head-names`, logical pixels) and the
// names' size in CSS pixels (`data-head-name-px`).
describe('the ALiBi heads are named on their blocks', () => {
  const SHOWN = 12; // model::alibi::SHOWN_POSITIONS
  for (const [name, size, query] of [['phone', [390, 844], ''], ['laptop', [1366, 768], ''],
    ['projector 1024×768', [1024, 768], 'present=1'], ['projector 1920×1080', [1920, 1080], 'present=1']]) {
    test(`${name}: every block named, over its masked cells, none on another`, async () => {
      const { page, problems } = await open(query, size);
      // Drawn once on screen: the panels' intersection observer reports in the next rendering
      // step, so a `whenDrawn` right after the scroll can resolve before the panel is drawn.
      await showAndDraw(page, '#panel-alibi');
      for (const heads of [8, 2, 16]) {
        await page.evaluate((heads) => window.peLab.set({ aheads: heads }), heads);
        await drawn(page);
        const got = await page.evaluate(() => {
          const c = document.getElementById('alibi-biases');
          const rects = (text) => (text || '').split(';').filter(Boolean).map((r) => r.split(' ').map(Number));
          return { blocks: rects(c.dataset.headBlocks), names: rects(c.dataset.headNames), px: Number(c.dataset.headNamePx) };
        });
        const where = `${name}, ${heads} heads`;
        assert.equal(got.blocks.length, heads, `${where}: ${got.blocks.length} blocks`);
        assert.equal(got.names.length, heads, `${where}: ${got.names.length} names`);
        assert.ok(got.px >= 10, `${where}: names ${got.px} CSS px`);
        got.names.forEach(([x0, y0, x1, y1], h) => {
          const [bx0, by0, bx1, by1] = got.blocks[h];
          assert.ok(x0 >= bx0 && y0 >= by0 && x1 <= bx1 && y1 <= by1, `${where}: h${h} ${got.names[h]} outside its block ${got.blocks[h]}`);
          // Its lower left corner (the nearest to the diagonal) in a masked cell: column > row.
          const column = Math.floor((x0 - bx0) / ((bx1 - bx0) / SHOWN));
          const row = Math.ceil((y1 - by0) / ((by1 - by0) / SHOWN)) - 1;
          assert.ok(column > row, `${where}: h${h} reaches the bias (cell ${row}, ${column})`);
          got.names.slice(h + 1).forEach((other) => assert.ok(!overlap(got.names[h], other), `${where}: names overlap`));
        });
      }
      await screenshotOf(page, '#alibi-biases', `alibi-heads-${name.replace(/\W+/g, '-')}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
