// End-to-end: what the reader asked for δ, the pair and the columns survives a range that shrinks
// and grows back. The page shows the nearest valid value meanwhile, with a notice, and the link
// writes what is on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, setUp, state, waitForUrlParam } from './helpers.mjs';

setUp();

const set = (page, updates) => page.evaluate(async (u) => {
  window.peLab.set(u);
  await window.peLab.whenDrawn();
}, updates);

test('a δ reduced by a short sequence and the chapter columns lost to a small d come back', async () => {
  const { page, problems } = await open();
  await set(page, { delta: 5 });
  assert.equal((await state(page)).delta, 5);

  await set(page, { n: 3 });
  assert.equal((await state(page)).delta, 2);
  assert.ok(await page.locator('#notices').isVisible(), 'the reduced δ is said');
  assert.match(await page.locator('#notices-list').textContent(), /δ = 5 does not fit in a sequence of n = 3 positions; using δ = 2/);
  assert.equal(await page.locator('#delta-number').inputValue(), '2');
  // The link is what is on screen.
  await waitForUrlParam(page, 'delta', '2');

  await set(page, { n: 60 });
  assert.equal((await state(page)).delta, 5);
  assert.equal(await page.locator('#delta-number').inputValue(), '5');
  assert.ok(await page.locator('#notices').isHidden(), 'nothing left to say');
  await waitForUrlParam(page, 'delta', '5');

  await set(page, { d: 1 });
  const small = await state(page);
  assert.deepEqual([small.columns, small.pair], [[0], 0]);
  await set(page, { d: 33 });
  const back = await state(page);
  assert.deepEqual([back.columns, back.pair], [[6, 7, 8, 9], 3]);
  assert.equal(await page.locator('#cols-input').inputValue(), '6, 7, 8, 9');
  assert.deepEqual(problems, []);
  await page.close();
});
