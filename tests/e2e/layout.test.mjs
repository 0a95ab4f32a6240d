// Every screen a class uses: phones (no sideways scrolling, a compact sticky bar that opens on
// demand, tables that scroll inside their panel), laptops and projectors (each preset's figure
// whole between the sticky bar and the bottom of the window, below its title; sliders never
// squashed), the lesson path (keys, buttons, list and the address bar's #panel-<name>), and
// screenshots at every size in the normal, dark and projector looks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { at, LESSON, open, screenshot, screenshotOf, settle, setUp } from './helpers.mjs';

setUp({ drawn: true });

const PHONES = [[360, 740], [390, 844], [430, 932]];
const SCREENS = [...PHONES, [1024, 768], [1366, 768], [1920, 1080]];
const LOOKS = [['normal', ''], ['dark', 'theme=dark'], ['projector', 'present=1']];
// The chapter's order (model::panels::LESSON).
const PRESET_PANELS = {
  'chapter-heatmap': 'heatmap', 'chapter-curves': 'curves', 'julia-curves': 'curves',
  binary: 'binary', 'multi-head': 'heads', 'rope-decay': 'rope', 'alibi-slopes': 'alibi',
  't5-buckets': 't5', 'rank-collapse': 'stacking',
};

/** Where the sticky bar ends, the window's height, and where a panel's title and main figure are. */
function placement(page, panel) {
  return page.evaluate((panel) => {
    const bar = document.getElementById('sticky-bar').getBoundingClientRect();
    const section = document.getElementById(`panel-${panel}`);
    const title = section.querySelector('h2').getBoundingClientRect();
    const canvases = [...section.querySelectorAll('canvas.figure-main')];
    const figures = canvases.map((c) => c.getBoundingClientRect());
    return {
      // A matrix kept at its minimum readable cell size (an inline min-width) may be taller than
      // the room the layout would give it: it stacks or scrolls rather than squash.
      keptCells: canvases.some((c) => c.style.minWidth !== ''),
      barBottom: bar.bottom,
      view: window.innerHeight,
      titleTop: title.top,
      top: Math.min(...figures.map((f) => f.top)),
      bottom: Math.max(...figures.map((f) => f.bottom)),
      figures: figures.length,
    };
  }, panel);
}

function assertInView(where, label, { title = true } = {}) {
  assert.ok(where.figures > 0, `${label}: no main figure`);
  assert.ok(where.top >= where.barBottom - 0.5, `${label}: the figure starts at ${where.top}, under the sticky bar (${where.barBottom})`);
  // A figure taller than the whole room below the bar, or a matrix that keeps its minimum cell
  // size (stacking, as the Q/K/V pipeline does, or widening), may end below the window's bottom:
  // it starts below the bar and is read by scrolling.
  const taller = where.keptCells || where.bottom - where.top > where.view - where.barBottom;
  if (!taller) {
    assert.ok(where.bottom <= where.view + 0.5, `${label}: the figure ends at ${where.bottom}, below the window (${where.view})`);
  }
  if (title) {
    assert.ok(where.titleTop >= where.barBottom - 0.5, `${label}: the title is at ${where.titleTop}, under the sticky bar (${where.barBottom})`);
  }
}

/** Range inputs narrower than this are squashed. */
async function narrowSliders(page) {
  return page.evaluate(() => [...document.querySelectorAll('input[type=range]')]
    .filter((r) => r.offsetParent !== null)
    .map((r) => [r.id, Math.round(r.getBoundingClientRect().width)])
    .filter(([, width]) => width < 80));
}

describe('phones', () => {
  for (const size of PHONES) {
    test(`${size.join('×')}: no sideways scrolling, a compact bar that opens on demand`, async () => {
      const { page, problems } = await open(at(), size);
      // Every panel drawn (they are lazy), then the widths measured at each one.
      for (const panel of LESSON) {
        await page.locator(`#panel-${panel}`).scrollIntoViewIfNeeded();
        await settle(page);
      }
      await page.evaluate(() => window.peLab.whenDrawn());
      const widths = await page.evaluate(() => ({
        document: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
        view: window.innerWidth,
        badge: document.querySelector('.status').getBoundingClientRect().right,
        // Wider than the window and not inside a table's or a figure's own scroller.
        outside: [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5
            && !e.closest('.table-scroll'))
          .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`),
      }));
      // No figure scrolls sideways inside its section either (the pipeline's Z, Shaw's table and
      // the training lab's tables once did): only the wide tables may, and the training lab's
      // attention map, whose 16 named key columns of 12 px, query names and colour bar need
      // 376 px (its pane scrolls by 62 px on a 360 px phone, 32 px on a 390 px one).
      // On a 360 px phone the attention weights and Shaw's logits, whose 8 token columns keep
      // 12 px beside their names and colour bar, are 2 px wider than the panel.
      const slack = size[0] < 375 ? 2 : 0;
      const scrolling = await page.evaluate((slack) => [...document.querySelectorAll('main section.panel *:not(#train-pane-attention)')]
        .filter((e) => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1 + slack && e.clientWidth > 0
          && /auto|scroll/.test(getComputedStyle(e).overflowX) && !e.closest('.table-scroll'))
        .map((e) => `${e.closest('section').id} ${e.tagName.toLowerCase()}#${e.id}.${e.className}: ${e.scrollWidth - e.clientWidth} px`), slack);
      assert.deepEqual(scrolling, [], 'figures that scroll sideways');
      assert.ok(widths.document <= widths.view, `the page is ${widths.document} px wide in a ${widths.view} px window: ${widths.outside}`);
      assert.ok(widths.body <= widths.view);
      assert.deepEqual(widths.outside, []);
      assert.ok(widths.badge <= widths.view, `the compute badge ends at ${widths.badge}`);
      // Wide tables scroll inside their panel, and can then be scrolled with the keyboard.
      const tables = await page.evaluate(() => [...document.querySelectorAll('.table-scroll')].map((w) => ({
        right: w.getBoundingClientRect().right, scrolls: w.scrollWidth > w.clientWidth, tabindex: w.getAttribute('tabindex'),
      })));
      assert.equal(tables.length, 3);
      for (const table of tables) {
        assert.ok(table.right <= widths.view);
        if (table.scrolls) assert.equal(table.tabindex, '0');
      }
      assert.deepEqual(await narrowSliders(page), [], 'squashed sliders');

      const bar = () => page.evaluate(() => {
        const box = document.getElementById('sticky-bar').getBoundingClientRect();
        return { height: box.height, top: box.top };
      });
      await page.evaluate(() => window.scrollTo(0, document.getElementById('panel-heatmap').offsetTop));
      const collapsed = await bar();
      assert.equal(collapsed.top, 0, 'the bar sticks to the top');
      assert.ok(collapsed.height <= 120, `the collapsed sticky bar is ${collapsed.height} px tall`);
      const toggle = page.locator('#controls-toggle');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.ok(await page.locator('#d-range').isHidden(), 'the parameters are folded away');
      assert.match(await toggle.textContent(), /d 32 · n 60 · base 10000 · δ 1/);
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.ok(await page.locator('#d-range').isVisible());
      const openBottom = await page.evaluate(() => document.querySelector(".sticky-bar .controls").getBoundingClientRect().bottom);
      assert.ok(openBottom <= size[1], "the open parameters fit the window");
      await page.locator('#n-number').fill('40');
      await page.locator('#n-number').press('Enter');
      await page.waitForFunction(() => window.peLab.state.n === 40);
      await page.evaluate(() => window.peLab.whenDrawn());
      assert.match(await toggle.textContent(), /n 40/);
      await page.keyboard.press('Escape');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.ok(await page.locator('#d-range').isHidden());
      assert.equal((await bar()).height, collapsed.height);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});

describe('laptop and projector', () => {
  for (const [look, query] of [['normal', ''], ['projector', 'present=1']]) {
    test(`1366×768, ${look}: each preset shows its panel's title and whole figure below the sticky bar`, async () => {
      const { page, problems } = await open(at(query), [1366, 768]);
      const presets = await page.evaluate(() => [...document.querySelectorAll('#presets button')].map((b) => b.id));
      assert.deepEqual(presets.map((id) => id.replace('preset-', '')).sort(), Object.keys(PRESET_PANELS).sort());
      for (const id of presets) {
        const panel = PRESET_PANELS[id.replace('preset-', '')];
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.locator('#presets-menu').click();
        await page.locator(`#${id}`).click();
        await page.evaluate(() => window.peLab.whenDrawn());
        const where = await placement(page, panel);
        console.log(`1366×768 ${look}, ${id}: bar ends at ${where.barBottom.toFixed(0)}, title at ${where.titleTop.toFixed(0)}, figure ${where.top.toFixed(0)}–${where.bottom.toFixed(0)}`);
        assertInView(where, `${look} ${id}`);
        await page.waitForFunction((panel) => location.hash === `#panel-${panel}`, panel);
      }
      assert.deepEqual(await narrowSliders(page), [], 'squashed sliders');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  for (const size of [[1024, 768], [1920, 1080]]) {
    for (const [look, query] of [['normal', ''], ['projector', 'present=1']]) {
      test(`${size.join('×')}, ${look}: every lesson section's figure fits below the sticky bar`, async () => {
        const { page, problems } = await open(at(query), size);
        for (const panel of LESSON) {
          await page.keyboard.press(']');
          await page.evaluate(() => window.peLab.whenDrawn());
          // The title is always just below the bar; on a short projector a long panel's figure may
          // then reach below the window (it keeps a usable size).
          const where = await placement(page, panel);
          if (size[1] > 768 || look === 'normal') {
            assertInView(where, `${size.join('×')} ${look} ${panel}`);
          } else {
            assert.ok(where.titleTop >= where.barBottom - 0.5 && where.titleTop <= where.barBottom + 30, `${panel}: title at ${where.titleTop}`);
          }
        }
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
        assert.deepEqual(await narrowSliders(page), [], 'squashed sliders');
        assert.deepEqual(problems, []);
        await page.close();
      });
    }
  }

  // A #panel-<name> link lands where the section will stay: the static page (before the wasm
  // starts) reserves each figure's drawn size (www/layout.css, the aspect ratios in index.html,
  // and --sticky-height and --above-figure measured at the first paint), so every section's top is
  // where it is once every panel is drawn, within 16 px, on a phone, a laptop and both projectors.
  for (const [name, size, query] of [['phone', [390, 844], ''], ['laptop', [1366, 768], ''],
    ['projector 1024×768', [1024, 768], 'present=1'], ['projector 1920×1080', [1920, 1080], 'present=1']]) {
    test(`${name}: every section's top is the same before the wasm starts and once drawn`, async () => {
      const { page, problems, release } = await open(at(query), size, { scale: 2, holdWasm: true });
      const tops = () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('main > section.panel')]
        .map((s) => [s.id, Math.round(s.getBoundingClientRect().top + scrollY)])));
      await page.waitForSelector('#panel-train');
      const before = await tops();
      release();
      await page.evaluate(() => window.peLab.ready);
      for (const panel of LESSON) {
        await page.locator(`#panel-${panel}`).scrollIntoViewIfNeeded();
        await settle(page);
        await page.evaluate(() => window.peLab.whenDrawn());
      }
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.evaluate(() => window.peLab.whenDrawn());
      const after = await tops();
      const moved = Object.keys(after).map((id) => [id, after[id] - before[id]]);
      console.log(`${name}: section tops drawn − static: ${moved.map(([id, d]) => `${id.replace('panel-', '')} ${d}`).join(', ')}`);
      assert.deepEqual(moved.filter(([, d]) => Math.abs(d) > 16), [], `${name}: sections that move once drawn`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  // The badge's text ("starting…", then the backend) and the frame time (in the loading line's
  // place) arrive with the wasm; the badge is one line of fixed width: nothing down to the
  // controls moves, in any look.
  test('the header keeps its layout when the WebAssembly module starts', async () => {
    for (const [width, height] of [[1024, 768], [1366, 768], [1920, 1080]]) {
      for (const query of ['', 'theme=dark', 'present=1']) {
        const { page, release } = await open(at(query), [width, height], { holdWasm: true });
        await page.waitForSelector('#presets-menu');
        const boxes = () => page.evaluate(() => ['.lede', 'nav.page-tools', '.badge', '#presets-menu', '#sticky-bar'].map((selector) => {
          const box = document.querySelector(selector).getBoundingClientRect();
          return [selector, Math.round(box.top), Math.round(box.height)];
        }));
        const before = await boxes();
        assert.equal(await page.locator('#backend').textContent(), 'starting…');
        release();
        await page.waitForFunction(() => window.peLab?.stats?.firstFrameMs > 0);
        assert.notEqual(await page.locator('#backend').textContent(), 'starting…');
        assert.deepEqual(await boxes(), before, `${width}×${height} ${query || 'light'}`);
        await page.close();
      }
    }
  });

  // The head script applies the link's theme and projector mode before the first paint; the wasm
  // (model::state) then applies the same rule: the attributes agree before and after.
  test('the link\'s theme and projector mode apply before the WebAssembly module starts', async () => {
    const cases = [
      ['theme=dark', 'dark', false], ['theme=light&present=1', 'light', true],
      ['theme=light&theme=dark', 'dark', false], ['theme=%20dark%20', 'dark', false],
      ['theme=bogus', null, false], ['theme=dark&theme=bogus', 'dark', false], ['theme=dark&theme=', null, false],
      ['theme=auto&present=yes', null, true], ['present=1&present=0', null, false],
    ];
    for (const [query, theme, present] of cases) {
      const { page, release } = await open(at(query), [1366, 768], { holdWasm: true });
      const look = () => page.evaluate(() => [
        document.documentElement.getAttribute('data-theme'),
        document.documentElement.hasAttribute('data-present'),
      ]);
      assert.deepEqual(await look(), [theme, present], `${query}, before the wasm`);
      release();
      await page.waitForFunction(() => window.peLab?.stats?.firstFrameMs > 0);
      assert.deepEqual(await look(), [theme, present], `${query}, after the wasm`);
      await page.close();
    }
  });

  test('figures keep their proportions', async () => {
    const { page } = await open(at('present=1'), [1024, 768]);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.evaluate(() => window.peLab.whenDrawn());
    // Drawn figures only: a canvas not drawn yet (off screen) is blank at its design size.
    const off = await page.evaluate(() => [...document.querySelectorAll('main canvas[data-logical-width]')]
      .filter((c) => c.offsetParent !== null)
      .map((c) => {
        const box = c.getBoundingClientRect();
        return [c.id, Math.abs(box.width / box.height - c.width / c.height) / (c.width / c.height)];
      })
      .filter(([, error]) => error > 0.02));
    assert.deepEqual(off, []);
    await page.close();
  });
});

describe('the lesson path', () => {
  test('] and [ step through the sections in the chapter\'s order and name them in the hash', async () => {
    const { page, problems } = await open(at('d=48'), [1366, 768]);
    const search = await page.evaluate(() => location.search);
    const listed = await page.evaluate(() => [...document.querySelectorAll('#lesson-list a')].map((a) => a.getAttribute('href')));
    assert.deepEqual(listed, LESSON.map((p) => `#panel-${p}`));
    assert.equal(await page.locator('nav[aria-label="Lesson"]').count(), 1);
    for (const panel of LESSON) {
      await page.keyboard.press(']');
      await page.waitForFunction((panel) => location.hash === `#panel-${panel}`, panel);
      assertInView(await placement(page, panel), panel);
      assert.equal(await page.locator(`#lesson-list a[href="#panel-${panel}"]`).getAttribute('aria-current'), 'location');
    }
    assert.equal(await page.locator('#lesson-next').getAttribute('aria-disabled'), 'true');
    for (const panel of [...LESSON].reverse().slice(1)) {
      await page.keyboard.press('[');
      await page.waitForFunction((panel) => location.hash === `#panel-${panel}`, panel);
    }
    assert.equal(await page.locator('#lesson-prev').getAttribute('aria-disabled'), 'true');
    // Alt+PageDown too, and the buttons.
    await page.keyboard.press('Alt+PageDown');
    await page.waitForFunction(() => location.hash === '#panel-pipeline');
    await page.locator('#lesson-next').click();
    await page.waitForFunction(() => location.hash === '#panel-heads');
    await page.locator('#lesson-prev').click();
    await page.waitForFunction(() => location.hash === '#panel-pipeline');
    // The hash is not part of the query: the link's keys are untouched.
    assert.equal(await page.evaluate(() => location.search), search);
    assert.equal(await page.evaluate(() => window.peLab.state.d), 48);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('[ and ] step whatever has the focus but a text field; Escape leaves a control; PageUp and PageDown are a slider\'s', async () => {
    const { page } = await open(at('', '#panel-attention'), [1366, 768]);
    await page.waitForFunction(() => location.hash === '#panel-attention');
    const text = page.locator('#attn-text');
    await text.focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' [x]');
    assert.match(await text.inputValue(), /\[x\]$/);
    await page.evaluate(() => window.peLab.whenDrawn());
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => location.hash), '#panel-attention');
    // From a heatmap read with the keyboard, ] is the lesson's: the next step, whose section then
    // has the focus (Tab goes on from there); [ comes back.
    await page.locator('#attn-heatmap').focus();
    await page.keyboard.press(']');
    await page.waitForFunction(() => location.hash === '#panel-pipeline');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'panel-pipeline');
    await page.keyboard.press('[');
    await page.waitForFunction(() => location.hash === '#panel-attention');
    // A slider keeps its arrows and PageUp/PageDown; Escape leaves it for its section.
    await page.locator('#attn-heatmap').focus();
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'panel-attention');
    await page.locator('#d-range').focus();
    await page.keyboard.press('PageUp');
    await page.evaluate(() => window.peLab.whenDrawn());
    assert.notEqual(await page.evaluate(() => window.peLab.state.d), 32, 'PageUp is the slider\'s');
    assert.equal(await page.evaluate(() => location.hash), '#panel-attention');
    await page.evaluate(() => window.peLab.set({ d: 32 }));
    // Plain PageDown scrolls the page by about a screen, except in projector mode (a
    // presenter's remote), where it is a lesson step. (The hash may then follow the reading to
    // the next section; a step would have brought that section's title just below the bar.)
    await page.evaluate(() => document.activeElement.blur());
    const before = await page.evaluate(() => scrollY);
    await page.keyboard.press('PageDown');
    await page.waitForTimeout(200);
    const paged = await page.evaluate((before) => ({
      moved: scrollY - before,
      view: innerHeight,
      gap: document.querySelector('#panel-pipeline h2').getBoundingClientRect().top
        - document.getElementById('sticky-bar').getBoundingClientRect().bottom,
    }), before);
    assert.ok(paged.moved > 0 && paged.moved <= paged.view, `PageDown moved ${paged.moved} px`);
    assert.ok(Math.abs(paged.gap) > 40, `PageDown stepped to the next section (its title ${paged.gap} px below the bar)`);
    await page.close();
    const projector = await open(at('present=1', '#panel-heatmap'), [1366, 768]);
    await projector.page.keyboard.press('PageDown');
    await projector.page.waitForFunction(() => location.hash === '#panel-curves');
    await projector.page.close();
  });

  test('a link with #panel-<name> opens that section; the list goes there too', async () => {
    const { page, problems } = await open(at('n=30', '#panel-binary'), [1366, 768]);
    assertInView(await placement(page, 'binary'), 'binary from the link');
    const step = (panel) => `${LESSON.indexOf(panel) + 1}/${LESSON.length}`;
    assert.equal(await page.locator('#lesson-step').textContent(), step('binary'));
    assert.equal(await page.locator('#lesson-current').textContent(), 'Binary analogy');
    assert.match(await page.locator('#lesson-menu').getAttribute('title'), new RegExp(`^Section ${LESSON.indexOf('binary') + 1} of ${LESSON.length}: The binary analogy\\.`));
    assert.equal(new URL(page.url()).searchParams.get('n'), '30');
    const menu = page.locator('#lesson-menu');
    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await page.locator('#lesson-list a[href="#panel-projection"]').click();
    await page.evaluate(() => window.peLab.whenDrawn());
    await page.waitForFunction(() => location.hash === '#panel-projection');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.ok(await page.locator('#lesson-list').isHidden());
    assert.equal(await page.evaluate(() => document.activeElement.id), 'panel-projection', 'focus follows to the section');
    assertInView(await placement(page, 'projection'), 'projection from the list');
    // A link inside the page (to #panel-scaling) moves the lesson there.
    await page.evaluate(() => { location.hash = '#panel-scaling'; });
    await page.waitForFunction((want) => document.getElementById('lesson-step').textContent === want, step('scaling'));
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('screenshots', () => {
  for (const size of SCREENS) {
    test(`${size.join('×')}: normal, dark and projector`, async () => {
      for (const [look, query] of LOOKS) {
        const { page, problems } = await open(at(query, '#panel-heatmap'), size, { scale: 2 });
        await page.waitForTimeout(150);
        await screenshot(page, `layout-${size.join('x')}-${look}`, { fullPage: false });
        assert.deepEqual(problems, [], `${look}`);
        await page.close();
      }
    });
  }
});

/** Every visible canvas (of `scope`) that is not drawn yet, whose backing store is not its CSS box
 *  × devicePixelRatio (±1 px), or whose drawing is laid out wider than its box (its text would be
 *  smaller than its design size). Runs in the page. */
const BLURRY = (scope) => [...document.querySelectorAll(`${scope} canvas`)]
  .filter((c) => c.offsetParent !== null)
  .map((c) => {
    const box = c.getBoundingClientRect();
    const ratio = window.devicePixelRatio;
    return {
      id: c.id, backing: [c.width, c.height], want: [box.width * ratio, box.height * ratio],
      logical: Number(c.dataset.logicalWidth ?? NaN), css: box.width,
    };
  })
  .filter((c) => !(c.logical > 0) || Math.abs(c.backing[0] - c.want[0]) > 1
    || Math.abs(c.backing[1] - c.want[1]) > 1 || c.logical > c.css + 0.5);

function blurryCanvases(page) {
  return page.evaluate(`(${BLURRY})('main')`);
}

/** Scrolls every panel into view and waits until its canvases are drawn at the screen's size. */
async function drawEveryPanel(page) {
  for (const panel of LESSON) {
    await page.locator(`#panel-${panel}`).scrollIntoViewIfNeeded();
    await settle(page);
    await page.evaluate(() => window.peLab.whenDrawn());
    await page.waitForFunction(`(${BLURRY})('#panel-${panel}').length === 0`, null, { timeout: 10000 })
      .catch(() => {});
  }
}

describe('crisp figures', () => {
  for (const size of [[390, 844], [1366, 768]]) {
    test(`${size.join('×')} at DPR 2: every canvas has CSS size × 2 pixels; text never shrinks`, async () => {
      const { page, problems } = await open(at(), size, { scale: 2 });
      await drawEveryPanel(page);
      const drawn = await page.evaluate(() => document.querySelectorAll('main canvas[data-logical-width]').length);
      assert.ok(drawn >= 16, `only ${drawn} canvases drawn`);
      await page.waitForFunction(() => window.devicePixelRatio === 2);
      assert.deepEqual(await blurryCanvases(page), []);
      for (const panel of LESSON) {
        await screenshotOf(page, `#panel-${panel}`, `dpr2-${size.join('x')}-${panel}`);
      }
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('a resized window and a changed pixel ratio redraw the figures at their new size', async () => {
    const { page, problems } = await open(at(), [1366, 768]);
    await drawEveryPanel(page);
    await page.locator('#panel-curves').scrollIntoViewIfNeeded();
    await settle(page);
    await page.evaluate(() => window.peLab.whenDrawn());
    const before = await page.evaluate(() => document.getElementById('curves').width);
    await page.setViewportSize({ width: 800, height: 768 });
    await page.waitForFunction(() => {
      const c = document.getElementById('curves');
      return Math.abs(c.width - c.getBoundingClientRect().width) <= 1;
    });
    const after = await page.evaluate(() => document.getElementById('curves').width);
    assert.notEqual(after, before);
    // A window moved to a screen of another pixel ratio (or zoomed): a media query tells the page.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 800, height: 768, deviceScaleFactor: 3, mobile: false });
    await page.waitForFunction(() => window.devicePixelRatio === 3);
    // Headless Chromium's emulation flips the media query without firing its `change` event; a
    // real zoom fires `resize`, which the page also listens to.
    await page.evaluate(() => window.dispatchEvent(new Event('resize')));
    await page.locator('#panel-curves').scrollIntoViewIfNeeded();
    await settle(page);
    await page.waitForFunction(() => {
      const c = document.getElementById('curves');
      return Math.abs(c.width - 3 * c.getBoundingClientRect().width) <= 1;
    });
    // Panels off screen are drawn at their new size when they come on screen.
    await drawEveryPanel(page);
    assert.deepEqual(await blurryCanvases(page), []);
    // The read-out still finds the cell under the pointer at the new scale.
    const box = await page.locator('#heatmap').boundingBox();
    await page.locator('#panel-heatmap').scrollIntoViewIfNeeded();
    await settle(page);
    const [x0, y0, x1, y1] = await page.evaluate(() => window.peLab.stats.heatmapImage);
    const ratio = 3;
    const heatmap = await page.locator('#heatmap').boundingBox();
    await page.mouse.move(heatmap.x + (x0 + 1) / ratio + 0.5, heatmap.y + (y0 + 1) / ratio + 0.5);
    await page.waitForFunction(() => /position 0, column 0\b/.test(document.getElementById('heatmap-hover').textContent));
    assert.ok(box.width > 0 && x1 > x0 && y1 > y0);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
