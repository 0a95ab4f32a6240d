import { launch, startServer } from './helpers.mjs';
const { server, origin } = await startServer();
const browser = await launch({ webgpu: false });
const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
const page = await context.newPage();
await page.goto(`${origin}/?compute=cpu`);
await page.evaluate(() => window.peLab.ready);
await page.locator('#panel-train').scrollIntoViewIfNeeded();
await page.evaluate(() => window.peLab.whenDrawn());
await page.evaluate(() => {
  window.__lt = []; window.__frames = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__frames.push({ d: Math.round(e.duration), scripts: e.scripts.map((s) => `${s.invoker}:${Math.round(s.duration)}`).join(',') }); }).observe({ type: 'long-animation-frame' });
});
const t0 = Date.now();
await page.locator('#train-start').click();
let first = null;
for (;;) {
  await page.waitForTimeout(1000);
  const s = await page.evaluate(() => { const t = performance.now(); const st = window.peLab.stats.panels.train; return { ms: performance.now() - t, steps: st.steps, seedsDone: st.seedsDone, done: st.done }; });
  if (first === null && s.steps > 0) first = (Date.now() - t0) / 1000;
  process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(0)}s stats read ${s.ms.toFixed(1)} ms steps ${s.steps} seedsDone ${s.seedsDone}\n`);
  if (s.done) break;
}
console.log('wall', (Date.now() - t0) / 1000, 'first curves at', first);
console.log(JSON.stringify(await page.evaluate(() => ({ lt: window.__lt, frames: window.__frames }))));
await page.locator('#panel-train').screenshot({ path: '/tmp/train-default.png' });
await browser.close(); server.close();
