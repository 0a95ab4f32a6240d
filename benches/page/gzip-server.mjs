// A static server for dist/ that gzips (level 9) like a typical static host; for the Lighthouse
// run (the end-to-end suite's own server sends files as they are).
// Usage: node benches/page/gzip-server.mjs DIST PORT
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(process.argv[2] || 'dist');
const port = Number(process.argv[3] || 8090);
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml',
};
const cache = new Map();
createServer((req, res) => {
  let path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  if (path.endsWith('/')) path += 'index.html';
  const file = join(root, path);
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404);
    res.end();
    return;
  }
  if (!cache.has(file)) cache.set(file, gzipSync(readFileSync(file), { level: 9 }));
  res.writeHead(200, {
    'Content-Type': types[extname(file)] || 'application/octet-stream',
    'Content-Encoding': 'gzip',
    'Cache-Control': 'max-age=3600',
  });
  res.end(cache.get(file));
}).listen(port, '127.0.0.1');
