// End-to-end: the `window.peLab` contract as a course page uses it (README, "The JS API"):
// `set` applies at once and returns the new state, rendering follows once per animation frame,
// `whenDrawn` resolves after the last render, `change` listeners may read every getter and call
// `set`, a runaway chain of listeners stops with a notice, and no object given to `set` ever
// throws. That bursts of `set` calls settle quickly is timed in api-burst.test.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drawn, open, setUp } from './helpers.mjs';

setUp({ size: [1366, 768] });

// A laptop's window, as a course page has (the other suites use a very tall one, in which every
// animation frame repaints a whole page of canvases in software).
// Mirrors MAX_LISTENER_ROUNDS in src/web/scheduler.rs.
const MAX_LISTENER_ROUNDS = 16;

describe('peLab API under re-entrancy and load', () => {
  test('a change listener reads stats and lesson and its own set() is applied and drawn', async () => {
    const { page, problems } = await open('');
    await drawn(page);
    await page.evaluate(() => {
      window.seen = [];
      window.peLab.on('change', (s) => {
        const stats = window.peLab.stats;
        window.seen.push({
          d: s.d, n: s.n, statsColumns: stats && stats.columns, statsRows: stats && stats.rows,
          lessonHeads: window.peLab.lesson && window.peLab.lesson.heads,
          stateD: window.peLab.state && window.peLab.state.d,
        });
        if (s.d === 40 && s.n !== 77) {
          const returned = window.peLab.set({ n: 77 });
          window.nestedReturn = returned && returned.n;
        }
      });
    });
    const returned = await page.evaluate(() => window.peLab.set({ d: 40 }));
    assert.equal(returned.d, 40, 'set returns the new state at once');
    await page.waitForFunction(() => window.seen.length >= 2);
    await drawn(page);
    const seen = await page.evaluate(() => window.seen);
    // The first announcement sees the drawn d = 40 in stats, and the lesson getter works.
    assert.equal(seen[0].d, 40);
    assert.equal(seen[0].statsColumns, 40, 'stats inside the listener describe the new state');
    assert.equal(seen[0].stateD, 40);
    assert.equal(typeof seen[0].lessonHeads, 'number');
    assert.equal(await page.evaluate(() => window.nestedReturn), 77, 'set inside a listener applies at once');
    // The nested change was applied, drawn and announced.
    assert.equal(seen[1].n, 77);
    assert.equal(seen[1].statsRows, 77);
    const stats = await page.evaluate(() => window.peLab.stats);
    assert.equal(stats.rows, 77);
    assert.equal(stats.columns, 40);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('n') === '77');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a listener that keeps changing the state is stopped with a notice, never a hang', async () => {
    const { page, problems } = await open('');
    await drawn(page);
    await page.evaluate(() => {
      window.rounds = 0;
      window.flip = (s) => {
        window.rounds += 1;
        window.peLab.set({ d: s.d === 32 ? 33 : 32 });
      };
      window.peLab.on('change', window.flip);
    });
    await page.evaluate(() => window.peLab.set({ d: 33 }));
    await page.waitForFunction(() => /kept calling peLab\.set/.test(document.getElementById('notices').textContent),
      null, { timeout: 10000 });
    await drawn(page);
    const rounds = await page.evaluate(() => window.rounds);
    assert.equal(rounds, MAX_LISTENER_ROUNDS, `listener rounds: ${rounds}`);
    // The page still answers: a new change from outside a listener works.
    await page.evaluate(() => window.peLab.off('change', window.flip));
    const after = await page.evaluate(() => window.peLab.set({ n: 12 }));
    assert.equal(after.n, 12);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('junk objects never throw; non-objects throw a TypeError', async () => {
    const { page, problems } = await open('');
    await drawn(page);
    const outcome = await page.evaluate(() => {
      const junk = [
        {}, { d: {} }, { d: null }, { d: undefined }, { d: [1, [2, 3]] }, { d: Symbol('x') },
        { [Symbol('k')]: 1 }, { d: () => 1 }, { d: NaN }, { d: Infinity }, { d: -Infinity },
        { d: 1e308 }, { d: '  ' }, { n: -0 }, { text: 'x '.repeat(100000) }, { cols: 'a,b,,' },
        { cols: [] }, { columns: [1e9, -1, 'q'] }, Object.create(null), Object.create({ d: 5 }),
        new Proxy({}, { ownKeys() { throw new Error('trap'); } }),
        { get d() { throw new Error('getter'); } }, new Date(), /re/, new Map([['d', 3]]),
        { d: 10n }, { pe: true, scale: false }, { heads: 7, d: 36 }, { valid: -3 }, { theme: 'x' },
        { bogus: 1, '': 2, 'd ': 3 }, { preset: 'nope' }, { perm: 'shuffle' }, { lens: '9,9,9' },
      ];
      const thrown = [];
      junk.forEach((value, k) => {
        try { window.peLab.set(value); } catch (e) { thrown.push(`${k}: ${e}`); }
      });
      const typeErrors = [];
      for (const value of [42, 'd=3', null, undefined, [1, 2], () => {}, true]) {
        try { window.peLab.set(value); typeErrors.push('no error'); } catch (e) { typeErrors.push(e instanceof TypeError ? 'TypeError' : String(e)); }
      }
      return { thrown, typeErrors };
    });
    assert.deepEqual(outcome.thrown, []);
    assert.deepEqual(outcome.typeErrors, Array(7).fill('TypeError'));
    await drawn(page);
    const s = await page.evaluate(() => ({ state: window.peLab.state, stats: window.peLab.stats }));
    assert.ok(s.state.d >= 1 && s.state.d <= 1024 && s.state.n >= 1 && s.state.n <= 2048);
    assert.equal(s.stats.columns, s.state.d);
    assert.ok(await page.locator('#notices').isVisible());
    assert.ok(await page.locator('#error').isHidden());
    assert.deepEqual(problems, []);
    await page.close();
  });
});
