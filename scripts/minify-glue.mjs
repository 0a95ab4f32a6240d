// Trunk's post_build hook (Trunk.toml): minifies the page's wasm-bindgen JS glue in the staging
// folder with terser, in release builds. Trunk's own JS minifier cannot parse the glue (its
// `export { ..., __wbg_init as default }`) and leaves it as written; the glue is part of the
// page's first load. Names the glue exports and the property names of its import object (the
// wasm's imports) are kept by terser, which only shortens local names; before it, the names the
// wasm imports and exports are shortened in the wasm and the glue together (minify-wasm-names.mjs).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';
import { minifyWasmNames } from './minify-wasm-names.mjs';

if (process.env.TRUNK_PROFILE === 'release') {
  const dir = process.env.TRUNK_STAGING_DIR;
  if (!dir) throw new Error('minify-glue: TRUNK_STAGING_DIR is not set (run by Trunk)');
  // The page's glue only (pe-lab-<hash>.js): the worker's glue is not in the first load.
  const glue = readdirSync(dir).filter((name) => /^pe-lab-[0-9a-f]+\.js$/.test(name));
  for (const name of glue) {
    const path = join(dir, name);
    const glueText = minifyWasmNames(join(dir, name.replace(/\.js$/, '_bg.wasm')), readFileSync(path, 'utf8'));
    const result = await minify(glueText, {
      module: true,
      compress: { passes: 2 },
      mangle: true,
      format: { comments: false },
    });
    writeFileSync(path, result.code);
  }
}
