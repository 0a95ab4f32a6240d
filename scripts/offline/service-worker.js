// The page's service worker: after one visit the whole page works without a network. Not served
// as written: scripts/offline/write-service-worker.mjs (Trunk's post-build step) writes dist/sw.js
// from it, minified, after three constants it computes from the built files:
//   VERSION  the content hash of every file of dist/ (and of this worker): a new deploy that
//            changes any byte is a new version;
//   FILES    [path, sha256 prefix] of every file to precache: all of dist/ but sw.js, source maps
//            and minilm/;
//   MODEL    the hash of dist/minilm/ (its manifest included), '0' without it: names the model's
//            cache, so that another model gets a cache of its own.
// The page registers it (www/page.html, past its first load) with the scope of its folder, so a
// dist/ served from any sub-path has its own worker and caches.
//
// Versions. Each version is one cache, `pe-lab-app <scope> <VERSION>`, written whole at install
// (every file fetched past the HTTP cache and checked against its hash, then stored; any failure
// deletes it and the install fails, so no version is ever half there) and read only by this
// version's worker. The worker never calls skipWaiting() or clients.claim(): a page is answered
// all its life by the worker that answered its navigation, so its later lazy fetches (the
// training module, its catalog, the workers) come from the cache of the version its HTML came
// from: no page mixes two versions, even for the files whose names carry no hash
// (pe-lab-train-panel.js, train-worker.js, …). A new version is installed in the background by
// the first visit online after a deploy (the browser checks sw.js on every navigation) and waits;
// it takes over once no page of the old version is open (the browser activates it then, and its
// activation deletes the old version's cache). So the new version is shown from the first page
// opened after the visit that installed it, once every page of the old one is closed; a reload
// of the last such tab still gets the old one (the browser asks the old worker for it before the
// old page is gone). The first visit's page, loaded before any worker, stays uncontrolled: its
// lazy fetches go to the network, as without a worker.
//
// The model (minilm/, about 22 MB, fetched by its panel when needed): cache-first in
// `pe-lab-model <scope> <MODEL>`, filled as each file is first fetched. It outlives app versions
// (a deploy that keeps the model keeps its cache); a worker whose MODEL differs drops it on
// activation.
/* global VERSION, FILES, MODEL */

const ROOT = new URL('./', self.location.href).href;
const ROOT_PATH = new URL(ROOT).pathname;
const APP_PREFIX = `pe-lab-app ${ROOT} `;
const APP_CACHE = APP_PREFIX + VERSION;
const MODEL_PREFIX = `pe-lab-model ${ROOT} `;
const MODEL_CACHE = MODEL_PREFIX + MODEL;
const HASHES = new Map(FILES);

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

// Every file, checked, before any is stored: a file of another version (a deploy half done, a
// proxy's stale copy, a host's fallback page) fails the install instead of entering the cache.
async function precache() {
  const files = await Promise.all(FILES.map(async ([path, hash]) => {
    const response = await fetch(new Request(ROOT + path, { cache: 'no-cache' }));
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    const body = await response.arrayBuffer();
    if (hex(await crypto.subtle.digest('SHA-256', body)).slice(0, hash.length) !== hash) {
      throw new Error(`${path} is not version ${VERSION}'s`);
    }
    // A fresh response: never a redirected one (a navigation refuses it), only the type kept
    // (wasm streaming and module scripts need it; the length and encoding were the transfer's).
    const type = response.headers.get('content-type');
    return [path, new Response(body, { headers: type ? { 'content-type': type } : {} })];
  }));
  const cache = await caches.open(APP_CACHE);
  try {
    await Promise.all(files.map(([path, response]) => cache.put(ROOT + path, response)));
  } catch (error) {
    await caches.delete(APP_CACHE);
    throw error;
  }
}

self.addEventListener('install', (event) => event.waitUntil(precache()));

// Runs once no page of an older version is open (see above): their caches can go.
self.addEventListener('activate', (event) => event.waitUntil(caches.keys().then((names) => Promise.all(names
  .filter((name) => (name.startsWith(APP_PREFIX) && name !== APP_CACHE)
    || (name.startsWith(MODEL_PREFIX) && name !== MODEL_CACHE))
  .map((name) => caches.delete(name))))));

async function modelFile(event) {
  const cache = await caches.open(MODEL_CACHE);
  const hit = await cache.match(event.request, { ignoreVary: true });
  if (hit) return hit;
  const response = await fetch(event.request);
  // Whole files only (not a range's part, an error or a redirect's end elsewhere).
  if (response.status === 200 && response.type === 'basic') {
    event.waitUntil(cache.put(event.request, response.clone()));
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !request.url.startsWith(ROOT) || request.headers.has('range')) return;
  const path = new URL(request.url).pathname.slice(ROOT_PATH.length);
  if (path.startsWith('minilm/')) {
    event.respondWith(modelFile(event));
    return;
  }
  // The folder is its index.html. The query is left out: links carry the page's settings in it,
  // and a static server answers every query of a file with the file.
  const file = path === '' ? 'index.html' : path;
  if (!HASHES.has(file)) return;
  event.respondWith(caches.open(APP_CACHE)
    .then((cache) => cache.match(ROOT + file))
    .then((cached) => cached || fetch(request)));
});
