// dist/sw.js under `trunk serve` and `trunk watch` (scripts/offline/write-service-worker.mjs): a
// worker that answers nothing. Without a fetch handler the browser sends every request to the
// network, so a rebuilt page is what the next reload shows. It replaces at once an offline worker
// that a `trunk build` served on the same address installed before (skipWaiting), and deletes
// that worker's versions, so a development address never gets stuck on an old build.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(caches.keys().then((names) => Promise.all(names
  .filter((name) => name.startsWith(`pe-lab-app ${new URL('./', self.location.href).href} `))
  .map((name) => caches.delete(name))))));
