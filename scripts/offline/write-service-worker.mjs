// Trunk's last post-build step (Trunk.toml, after scripts/l10n/build-pages.mjs: the hash must be
// of the files as they ship): writes sw.js, the page's service worker, into the staging folder.
//   `trunk build`: scripts/offline/service-worker.js, minified, after its constants: VERSION (the
//     content hash of every file of the build and of the worker itself), FILES (every file to
//     precache with its sha256 prefix: all but sw.js, source maps, dotfiles and minilm/) and
//     MODEL (the hash of minilm/, which the worker caches at run time, not at install).
//   `trunk serve` and `trunk watch`: scripts/offline/dev-service-worker.js, a worker that answers
//     nothing and deletes the offline worker's caches, so that a development address is never
//     served an old build. Which command runs is read from the trunk process above this one
//     (and a page with Trunk's live-reload script is taken for `trunk serve` whatever the
//     command); PE_LAB_SERVICE_WORKER=offline or =dev chooses by hand.
// By hand, on a built folder (after changing a file of it, as tests/e2e/offline.test.mjs does):
//   node scripts/offline/write-service-worker.mjs dist
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = 'sw.js';

/** Every file under `dir`, as paths relative to it with '/' (dotfiles and dot-folders left out). */
function filesUnder(dir) {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) found.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return found.sort();
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The arguments of the nearest `trunk` process above this one, or null (Linux's /proc, else ps). */
function trunkArguments() {
  const processInfo = (pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return { args, parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
    } catch {
      try {
        const line = execFileSync('ps', ['-o', 'ppid=', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
        const match = /^(\d+)\s+(.*)$/.exec(line);
        return match && { args: match[2].split(/\s+/), parent: Number(match[1]) };
      } catch {
        return null;
      }
    }
  };
  let pid = process.ppid;
  for (let depth = 0; depth < 5 && pid > 1; depth++) {
    const info = processInfo(pid);
    if (!info) return null;
    if (/(^|[/\\])trunk(\.exe)?$/.test(info.args[0] ?? '')) return info.args.slice(1);
    pid = info.parent;
  }
  return null;
}

/** 'dev' under `trunk serve`/`trunk watch` or for a page with Trunk's live reload, else 'offline'. */
function kind(dir) {
  const asked = process.env.PE_LAB_SERVICE_WORKER;
  if (asked) {
    if (asked !== 'offline' && asked !== 'dev') throw new Error(`PE_LAB_SERVICE_WORKER=${asked}: offline or dev`);
    return asked;
  }
  const command = trunkArguments()?.find((arg) => /^(build|serve|watch|clean|config|tools)$/.test(arg));
  if (command === 'serve' || command === 'watch') return 'dev';
  const page = readFileSync(join(dir, 'index.html'), 'utf8');
  return page.includes('.well-known/trunk/ws') ? 'dev' : 'offline';
}

/** The text of sw.js for the built folder `dir`. */
export async function serviceWorker(dir, which = kind(dir)) {
  if (which === 'dev') return readFileSync(join(here, 'dev-service-worker.js'), 'utf8');
  const source = readFileSync(join(here, 'service-worker.js'), 'utf8');
  const files = filesUnder(dir).filter((path) => path !== WORKER);
  const model = files.filter((path) => path.startsWith('minilm/'));
  const precached = files.filter((path) => !path.startsWith('minilm/') && !path.endsWith('.map'));
  // 16 hex digits of sha256 per file: enough to tell two builds' files apart, short in sw.js.
  const entries = precached.map((path) => [path.split('/').map(encodeURIComponent).join('/'),
    sha256(readFileSync(join(dir, path))).slice(0, 16)]);
  const modelHash = model.length
    ? sha256(model.map((path) => `${path}\0${sha256(readFileSync(join(dir, path)))}\n`).join('')).slice(0, 16)
    : '0';
  const version = sha256(JSON.stringify([entries, modelHash, sha256(source)])).slice(0, 16);
  const constants = `const VERSION=${JSON.stringify(version)},FILES=${JSON.stringify(entries)},MODEL=${JSON.stringify(modelHash)};\n`;
  const { code } = await minify(constants + source, { compress: { passes: 2 }, mangle: true, format: { comments: false } });
  return `// pe-lab's service worker (scripts/offline/service-worker.js), version ${version}\n${code}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
  if (!dir) throw new Error('write-service-worker: give the built folder, or run it from Trunk (TRUNK_STAGING_DIR)');
  const which = kind(dir);
  const text = await serviceWorker(dir, which);
  writeFileSync(join(dir, WORKER), text);
  console.log(`write-service-worker: ${join(dir, WORKER)} (${which}${which === 'offline' ? `, ${/version (\w+)/.exec(text)[1]}` : ''})`);
}
