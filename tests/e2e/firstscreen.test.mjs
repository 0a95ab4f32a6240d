// The first screen and the way to every figure, at DPR 2: a figure on a phone's first screen and
// the first panel's whole figure with its takeaway on a laptop's; the lesson's section title just below the
// sticky bar at every step (phone, 1024×768 projector); the projector's boxes and menus scaled;
// the skip link first; `#panel-…` and `?preset=` links land on their panel without a jump; the
// sliders show their defaults before the WebAssembly starts; the n slider's scale.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { at, cls, drawn, LESSON, open, recordLayoutShifts, screenshot, setUp, state } from './helpers.mjs';

setUp({ scale: 2, drawn: true, init: recordLayoutShifts });

const PHONE = [390, 844];
const LAPTOP = [1366, 768];
const PROJECTOR = [1024, 768];

/** Where the sticky bar ends and where a panel's title starts and ends. */
function titlePlace(page, panel) {
  return page.evaluate((panel) => {
    const bar = document.getElementById('sticky-bar').getBoundingClientRect();
    const title = document.querySelector(`#panel-${panel} h2`).getBoundingClientRect();
    return { barBottom: bar.bottom, top: title.top, bottom: title.bottom, view: innerHeight };
  }, panel);
}

/** Steps through the whole lesson with `]` and checks the title below the bar at each step. */
async function walkTheLesson(page, name) {
  const seen = [];
  for (const [step, panel] of LESSON.entries()) {
    await page.keyboard.press(']');
    await page.waitForFunction((h) => location.hash === h, `#panel-${panel}`);
    // The label names the step and its section, whole.
    const label = await page.evaluate(() => {
      const current = document.getElementById('lesson-current');
      return {
        step: document.getElementById('lesson-step').textContent,
        cut: current.scrollWidth > current.clientWidth + 1 || current.scrollHeight > current.clientHeight + 1,
      };
    });
    assert.equal(label.step, `${step + 1}/${LESSON.length}`);
    assert.ok(!label.cut, `${name}: the step label of ${panel} is cut`);
    // Two frames: a re-alignment after a change of the bar's height has happened by then.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const place = await titlePlace(page, panel);
    seen.push([panel, Math.round(place.top - place.barBottom)]);
    assert.ok(place.top >= place.barBottom - 0.5 && place.top <= place.barBottom + 30,
      `${name}, step ${step + 1} (${panel}): title at ${place.top}, bar ends at ${place.barBottom}`);
    assert.ok(place.bottom <= place.view, `${name}, ${panel}: the title's bottom is below the window`);
  }
  return seen;
}

describe('the first screen', () => {
  test('phone 390×844: the first panel\'s takeaway and the top of its figure are on the first screen', async () => {
    const { page, problems } = await open(at(), PHONE);
    const [figure, takeaway] = await page.evaluate(() => ['attn-heatmap', 'attention-takeaway'].map((id) =>
      document.getElementById(id).getBoundingClientRect().toJSON()));
    console.log(`phone: takeaway ends at ${takeaway.bottom.toFixed(0)}, attention figure top at ${figure.top.toFixed(0)} px of ${PHONE[1]}`);
    await screenshot(page, 'firstscreen-phone', { fullPage: false });
    assert.ok(takeaway.height > 0 && takeaway.bottom <= PHONE[1], `the takeaway ends at ${takeaway.bottom} px`);
    assert.ok(figure.top < PHONE[1] - 120, `the figure starts at ${figure.top} px`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('laptop 1366×768: the first panel\'s whole figure and its takeaway on the first screen', async () => {
    const { page, problems } = await open(at(), LAPTOP);
    const [figure, takeaway] = await page.evaluate(() => ['attn-heatmap', 'attention-takeaway'].map((id) =>
      document.getElementById(id).getBoundingClientRect().toJSON()));
    console.log(`laptop: attention figure ${figure.top.toFixed(0)}–${figure.bottom.toFixed(0)}, takeaway ends at ${takeaway.bottom.toFixed(0)} of ${LAPTOP[1]}`);
    await screenshot(page, 'firstscreen-laptop', { fullPage: false });
    assert.ok(figure.height > 250, `the figure is ${figure.height} px tall`);
    assert.ok(figure.top >= 0 && figure.bottom <= LAPTOP[1], `the figure ends at ${figure.bottom}`);
    assert.ok(takeaway.height > 0 && takeaway.bottom <= LAPTOP[1], 'the takeaway is not on the first screen');
    assert.ok((await page.locator('#attention-takeaway').textContent()).length > 20, 'the takeaway is empty');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('before the WebAssembly starts: the sliders show their defaults, the badge one line', async () => {
    // The module never arrives: the page as its first paint shows it.
    const { page } = await open(at(), LAPTOP, { holdWasm: true, waitUntil: 'domcontentloaded' });
    const state = await page.evaluate(() => ({
      fields: ['d', 'n', 'base', 'delta'].map((k) => document.getElementById(`${k}-number`).value),
      n: (() => {
        const r = document.getElementById('n-range');
        return (r.valueAsNumber - Number(r.min)) / (Number(r.max) - Number(r.min));
      })(),
      badge: document.getElementById('badge').getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(document.getElementById('badge')).lineHeight),
    }));
    assert.deepEqual(state.fields, ['32', '60', '10000', '1']);
    console.log(`n = 60 sits at ${(100 * state.n).toFixed(1)}% of the n slider's track`);
    assert.ok(state.n > 0.3 && state.n < 0.7, `n = 60 at ${state.n} of the track`);
    assert.ok(state.badge < 2 * state.line, `the badge is ${state.badge} px tall`);
    await page.close();
  });
});

describe('lesson steps put the section title just below the sticky bar', () => {
  for (const [name, size, query] of [['phone', PHONE, ''], ['1024×768 projector', PROJECTOR, 'present=1']]) {
    test(`${name}: at every step`, async () => {
      const { page, problems } = await open(at(query), size);
      const seen = await walkTheLesson(page, name);
      console.log(`${name}: title − bar bottom per step: ${seen.map(([p, gap]) => `${p} ${gap}`).join(', ')}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});

describe('projector mode at 1024×768', () => {
  test('boxes of at least 24 px, menus as wide as their longest choice, labels on one line', async () => {
    const { page, problems } = await open(at('present=1'), PROJECTOR);
    const sizes = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll('main input[type=checkbox], main input[type=radio]')]
        .map((b) => { const r = b.getBoundingClientRect(); return [b.id, r.width, r.height]; });
      const menus = [...document.querySelectorAll('main select')].filter((s) => !s.disabled && s.options.length).map((s) => {
        // The longest choice, measured in the menu's own font.
        const probe = document.createElement('span');
        probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${getComputedStyle(s).font}`;
        document.body.append(probe);
        let widest = 0;
        for (const o of s.options) { probe.textContent = o.textContent; widest = Math.max(widest, probe.getBoundingClientRect().width); }
        probe.remove();
        return [s.id, s.getBoundingClientRect().width, widest];
      });
      // A control's label that wraps one word to a line.
      const labels = [...document.querySelectorAll('main .control label, main .control-inline label')].map((l) => {
        const words = l.textContent.trim().split(/\s+/).length;
        const lines = Math.round(l.getBoundingClientRect().height / parseFloat(getComputedStyle(l).lineHeight));
        return [l.htmlFor, words, lines];
      });
      const cut = [...document.querySelectorAll('.sticky-bar .control label')]
        .filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.htmlFor);
      return { boxes, menus, labels, cut };
    });
    for (const [id, w, h] of sizes.boxes) assert.ok(w >= 24 && h >= 24, `#${id} is ${w}×${h}`);
    // The menu's arrow takes about 20 px of its width.
    for (const [id, w, widest] of sizes.menus) assert.ok(w >= widest + 16, `#${id} is ${w} px for a choice of ${widest} px`);
    for (const [id, words, lines] of sizes.labels) {
      assert.ok(words < 3 || lines < words, `the label of #${id} has one word to a line (${words} words, ${lines} lines)`);
    }
    assert.deepEqual(sizes.cut, [], 'sticky-bar labels cut');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

test('the sticky bar\'s slider labels are never cut (1024, 1280, 1366 px)', async () => {
  for (const width of [1024, 1280, 1366]) {
    const { page } = await open(at(), [width, 768], { ready: false });
    await page.waitForSelector('#sticky-bar');
    const cut = await page.evaluate(() => [...document.querySelectorAll('.sticky-bar .control label, #lesson-menu > span')]
      .filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.htmlFor || l.id || l.className));
    assert.deepEqual(cut, [], `${width} px`);
    await page.close();
  }
});

describe('keyboard and links', () => {
  test('the skip link is the first Tab stop and leads to the parameters', async () => {
    const { page, problems } = await open(at(), LAPTOP);
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => {
      const a = document.activeElement;
      const r = a.getBoundingClientRect();
      return { id: a.id, text: a.textContent, visible: r.top >= 0 && r.height > 10 };
    });
    assert.equal(first.id, 'skip-link');
    assert.ok(first.visible, 'the skip link is not shown when focused');
    await page.keyboard.press('Enter');
    let presses = 0;
    while (presses < 8 && (await page.evaluate(() => document.activeElement.id)) !== 'd-range') {
      await page.keyboard.press('Tab');
      presses += 1;
    }
    assert.equal(await page.evaluate(() => document.activeElement.id), 'd-range', 'the first slider is not reached');
    console.log(`Tab presses from the skip link to the first slider: ${presses}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a #panel-similarity link lands on its panel without a jump', async () => {
    for (const size of [LAPTOP, PHONE]) {
      const { page, problems } = await open(at('', '#panel-similarity'), size);
      await page.waitForTimeout(300);
      const shift = await cls(page);
      const place = await titlePlace(page, 'similarity');
      console.log(`#panel-similarity at ${size.join('×')}: CLS ${shift.toFixed(3)}, title ${place.top.toFixed(0)} (bar ends ${place.barBottom.toFixed(0)})`);
      assert.ok(shift < 0.1, `CLS ${shift}`);
      assert.ok(place.top >= place.barBottom - 0.5 && place.top <= place.barBottom + 30, `title at ${place.top}`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  test('?preset= links scroll to their panel as the menu does', async () => {
    const { page: menuPage } = await open(at(), LAPTOP);
    await menuPage.locator('#presets-menu').click();
    await menuPage.locator('#preset-binary').click();
    await menuPage.waitForFunction(() => location.hash === '#panel-binary');
    assert.ok(await menuPage.locator('#presets').isHidden(), 'the menu stays open');
    const byMenu = await titlePlace(menuPage, 'binary');
    await menuPage.close();
    for (const [preset, panel] of [['binary', 'binary'], ['rope-decay', 'rope']]) {
      const { page, problems } = await open(at(`preset=${preset}`), LAPTOP);
      await page.waitForTimeout(200);
      const place = await titlePlace(page, panel);
      const shift = await cls(page);
      console.log(`?preset=${preset}: title at ${place.top.toFixed(0)} (bar ends ${place.barBottom.toFixed(0)}), CLS ${shift.toFixed(3)}`);
      assert.ok(place.top >= place.barBottom - 0.5 && place.top <= place.barBottom + 30, `?preset=${preset}: title at ${place.top}`);
      if (panel === 'binary') assert.ok(Math.abs(place.top - byMenu.top) < 2, `the menu puts it at ${byMenu.top}`);
      assert.ok(shift < 0.1, `CLS ${shift}`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  test('the n slider: keyboard steps of about 5%, the field any n, the link unchanged', async () => {
    const { page, problems } = await open(at(), LAPTOP);
    await page.locator('#n-range').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.peLab.state.n === 63);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.peLab.state.n === 60);
    // Keys pressed faster than frames: each steps from the n before it, not from where the slider
    // was last drawn (60 -> 63 -> 66, then back).
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await drawn(page);
    assert.equal((await state(page)).n, 66);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await drawn(page);
    assert.equal((await state(page)).n, 60);
    await page.locator('#n-number').fill('1001');
    await page.locator('#n-number').press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('n') === '1001');
    const position = await page.evaluate(() => document.getElementById('n-range').valueAsNumber);
    assert.ok(Math.abs(2 ** position - 1001) < 1, `slider at 2^${position}`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
