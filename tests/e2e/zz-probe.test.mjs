import { test } from 'node:test';
import { open, setUp } from './helpers.mjs';
setUp();
test('probe', async () => {
  const { page, release } = await open('/?', [390, 844], { scale: 2, holdWasm: true });
  await page.waitForSelector('#panel-train');
  const sizes = () => page.evaluate(() => [...document.querySelectorAll('#panel-learned *')].filter(e => e.id).map(e => [e.id, Math.round(e.getBoundingClientRect().height)]));
  const before = await sizes();
  release();
  await page.evaluate(() => window.peLab.ready);
  await page.locator('#panel-learned').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.peLab.whenDrawn());
  await page.waitForTimeout(3000);
  await page.evaluate(() => window.peLab.whenDrawn());
  const after = await sizes();
  console.log(JSON.stringify(before)); console.log(JSON.stringify(after));
  console.log(await page.locator('#learned-trained-takeaway').textContent());
  await page.close();
});
