// The training panel's default run, end to end: it completes in Web Workers and shows the
// contrast the panel exists for; the contract of stats.panels.train holds and agrees with the
// page. The main thread's long tasks while it trains are measured and printed: a benchmark, not a
// gate (PE_LAB_BENCH=1 makes it one, for a quiet machine). On a 2-core machine the worker holds one
// core, and beside a second browser the operating system preempts the page's main thread: six runs
// of this file beside the lesson's first-screen tests saw tasks of 50–534 ms in the first try of
// every run, and two of the six failed all three tries (frames whose few to 40 ms of script
// stretched to up to 393 ms of wall time). scripts/e2e.sh runs this file alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, screenshotOf, setUp } from './helpers.mjs';

setUp({ size: [1366, 900] });

const trainStats = (page) => page.evaluate(() => window.peLab.stats.panels.train);

/** Presses Train and waits for the run to end, watching the main thread meanwhile: its long tasks
 *  (over 50 ms) and, for the frames of 50 ms or more, how much of each was the page's script. */
async function trainWatchingTheMainThread(page, { fromFirstStep = false } = {}) {
  await page.evaluate(() => {
    window.__longTasks = [];
    window.__slowFrames = [];
    window.__watchers?.forEach((o) => o.disconnect());
    const tasks = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    });
    tasks.observe({ type: 'longtask' });
    const frames = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const script = entry.scripts.reduce((sum, s) => sum + s.duration, 0);
        // Where the frame's script went, and when (s after the observer started); reading the
        // stats here would be a task of its own.
        window.__slowFrames.push({ duration: Math.round(entry.duration), script: Math.round(script),
          what: entry.scripts.map((x) => `${x.invoker}:${x.sourceFunctionName}:${Math.round(x.duration)}`).join(' '),
          at: `${((entry.startTime - window.__watchStart) / 1000).toFixed(1)} s` });
      }
    });
    frames.observe({ type: 'long-animation-frame' });
    window.__watchers = [tasks, frames];
    window.__watchStart = performance.now();
  });
  const started = Date.now();
  await page.locator('#train-start').click();
  // Progress is shown while training.
  await page.waitForFunction(() => window.peLab.stats.panels.train.steps > 0, null, { timeout: 60000 });
  if (fromFirstStep) {
    await page.evaluate(() => { window.__longTasks.length = 0; window.__slowFrames.length = 0; });
  }
  // The poll hands back nothing but its end: the stats of a three-seed run are about 270 KB,
  // and handing them to the test inside the watched window would be the test's own long task.
  await page.evaluate(() => new Promise((resolve) => {
    const poll = () => {
      const s = window.peLab.stats.panels.train;
      if (s.running === false && (s.done || s.failure)) resolve(true); else setTimeout(poll, 200);
    };
    poll();
  }));
  const seconds = (Date.now() - started) / 1000;
  const { longTasks, frames } = await page.evaluate(() => ({ longTasks: window.__longTasks, frames: window.__slowFrames }));
  const stats = await trainStats(page);
  return { stats, seconds, longTasks, frames };
}

describe('the training panel\'s default run', () => {
  test('the default run trains in workers and shows the contrast; its main thread measured', async () => {
    const { page, context, problems, requests } = await open();
    assert.ok(!requests.some((u) => u.includes('train-worker')), 'the worker is not fetched at load');
    const before = await trainStats(page);
    assert.equal(before.done, false);
    assert.equal(before.task, 'shift');
    // The Train button in view, as a reader's click finds it: scrolled to the panel only, the
    // click below would first scroll the page to the button (Playwright does), bringing the panel
    // above on screen to be drawn in the watched window. The panels scrolled into view are drawn
    // first: the claim is about training, not scrolling.
    await page.locator('#train-start').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.peLab.whenDrawn());
    let { stats, seconds, longTasks, frames } = await trainWatchingTheMainThread(page);
    console.log(`# default run: ${seconds.toFixed(1)} s wall, ${stats.stepsPerSecond.toFixed(0)} steps/s, ${stats.workers} workers`);
    // The worker's own training rate per encoding (its training time only, evaluation excluded):
    // what compares with the crate's native steps per CPU second.
    console.log(`# worker training rate: ${Object.entries(stats.results).map(([name, r]) => `${name} ${r.stepsPerSecond.toFixed(0)}`).join(', ')} steps/s`);
    assert.equal(stats.failure, null);
    assert.equal(stats.done, true);
    assert.ok(requests.some((u) => u.includes('pe-lab-train-worker_bg.wasm')), 'the worker module was fetched');
    const mainThreadSummary = (tasks, slow) => `${tasks.length ? tasks.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}`
      + `${slow.length ? ` (frames of 50 ms or more: ${slow.map((f) => `${f.duration} ms with ${f.script} ms of script [${f.what} at ${f.at}]`).join('; ')})` : ''}`;
    console.log(`# long tasks on the main thread while training: ${mainThreadSummary(longTasks, frames)}`);
    // On a 2-core machine the worker keeps one core busy, and the page's frames (about 5 ms of
    // its own script, the rest the browser's layout, paint and commit) share the other with the
    // browser's compositor and the test itself; a task the OS preempts can pass 50 ms with the
    // page doing nothing more (a fresh-clone CI run saw one of 53 ms that was not a frame). Such
    // a run is measured again, up to twice, and the last must have none: work of the page's own
    // that blocks the main thread shows in every run. The runs after the first are watched from
    // their first step: their first frame clears the previous run's verdict, findings, table and
    // figures in one go (41 ms of script measured here), work a first run does not have. Only as
    // a gate (PE_LAB_BENCH=1): elsewhere nothing reads them, and each is a whole run (about 50 s).
    const gate = process.env.PE_LAB_BENCH === '1';
    for (let again = 1; gate && again <= 2 && longTasks.length > 0; again++) {
      ({ stats, longTasks, frames } = await trainWatchingTheMainThread(page, { fromFirstStep: true }));
      console.log(`# long tasks in run ${again + 1}: ${mainThreadSummary(longTasks, frames)}`);
      assert.equal(stats.done, true);
    }
    if (gate) assert.ok(longTasks.every((d) => d <= 50), `long tasks: ${longTasks}`);
    // The contract: three seeds by default, each encoding's means over them, their ranges and
    // every seed's own numbers.
    assert.deepEqual(stats.seeds, [1, 2, 3]);
    assert.equal(stats.seedsDone, 3);
    assert.ok(stats.encodings.length >= 5);
    for (const name of ['none', 'sinusoidal', 'learned', 'rope']) assert.ok(stats.encodings.includes(name), name);
    assert.equal(stats.steps, stats.totalSteps);
    assert.equal(stats.backend, 'cpu');
    assert.equal(stats.chance, 1 / 16);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const lengths = Object.keys(stats.chanceByLength);
    assert.ok(lengths.includes(String(4 * stats.trainLength)));
    assert.deepEqual(Object.keys(stats.blindCeilingByLength), lengths);
    for (const length of lengths) {
      // The blind ceiling lies above uniform chance and falls with the length on shift.
      assert.ok(stats.blindCeilingByLength[length] > stats.chanceByLength[length], length);
    }
    assert.ok(stats.blindCeilingByLength['64'] < stats.blindCeilingByLength['16']);
    for (const name of stats.encodings) {
      const r = stats.results[name];
      assert.equal(r.loss.length, stats.totalSteps, name);
      assert.equal(r.bySeed.length, 3, name);
      assert.deepEqual(r.bySeed.map((s) => s.seed), [1, 2, 3], name);
      const at = r.bySeed.map((s) => s.accuracyAtTrainLength);
      for (const s of r.bySeed) {
        assert.equal(s.loss.length, stats.totalSteps, name);
        assert.equal(s.accuracyAtTrainLength, s.accuracyByLength[String(stats.trainLength)], name);
        const last = s.loss.slice(-20);
        assert.ok(Math.abs(mean(last) - s.finalLoss) < 1e-9 * Math.max(1, s.finalLoss), `${name}: final loss`);
      }
      assert.ok(Math.abs(r.accuracyAtTrainLength - mean(at)) < 1e-12, name);
      assert.deepEqual(r.accuracyAtTrainLengthRange, [Math.min(...at), Math.max(...at)], name);
      assert.equal(r.accuracyAtTwiceRange.length, 2, name);
      assert.equal(r.accuracyAtFourTimesRange.length, 2, name);
      assert.ok(Math.abs(r.loss[0] - Math.fround(mean(r.bySeed.map((s) => s.loss[0])))) < 1e-6, name);
    }
    // The contrast on every seed: some encoding learns the task on all three, `none` stays near
    // the position-blind ceiling on all three.
    const solvedEverywhere = stats.encodings.filter((n) => stats.results[n].accuracyAtTrainLengthRange[0] >= 0.95);
    assert.ok(solvedEverywhere.length >= 2, `solved on every seed: ${solvedEverywhere}`);
    const ceiling = stats.blindCeilingByLength[String(stats.trainLength)];
    assert.ok(stats.results.none.accuracyAtTrainLengthRange[1] < ceiling + 0.05, `none: ${stats.results.none.accuracyAtTrainLengthRange}`);
    assert.ok(stats.learned.translationSpreadInitial > 0 && stats.learned.translationSpreadTrained > 0);
    assert.equal(stats.learned.bySeed.length, 3);
    assert.ok(stats.learned.translationSpreadSinusoidal < 1e-6);
    assert.ok(stats.offsetHitRate.rope >= 0 && stats.offsetHitRate.rope <= 1);
    // The page says what the numbers say: the verdict above the charts, the details below.
    const rows = await page.locator('#train-results tr').count();
    assert.equal(rows, stats.encodings.length);
    const findings = await page.locator('#train-findings li').allTextContents();
    assert.deepEqual(findings, stats.findings);
    // The verdict's headline is the panel's takeaway, in plain words; the numbers behind it wait
    // under "more" above the results.
    const verdict = [await page.locator('#train-takeaway').textContent(), ...await page.locator('#train-verdict-detail p').allTextContents()];
    assert.deepEqual(verdict, stats.verdict);
    assert.ok(verdict.length >= 3 && verdict.length <= 4, verdict.join('\n'));
    assert.match(verdict[0], /learn to copy the token 3 places back on all 3 seeds/);
    assert.match(verdict[0], /none and alibi stay at or near the \d+% that a model blind to positions can reach \(none \d+%, alibi \d+%\)/);
    assert.match(verdict[0], /On sequences 4× the training length \(64\) only shaw still does it; sinusoidal falls from/);
    assert.ok(verdict[1].includes('none') && verdict[1].includes('position-blind ceiling'), verdict[1]);
    assert.equal(await page.locator('#train-verdict-more').getAttribute('open'), null);
    assert.ok(!await page.locator('#train-headline').isVisible(), 'the headline shows as the takeaway, once');
    // No accuracy with a decimal at or above 10%.
    assert.ok(!/\b[1-9]\d\.\d+%/.test(verdict.join(' ') + findings.join(' ')), 'whole points');
    assert.match(await page.locator('#train-progress').textContent(), /^Done: /);
    await screenshotOf(page, '#panel-train', 'train-laptop');
    assert.deepEqual(problems, []);
    await context.close();
  });

});
