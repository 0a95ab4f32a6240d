// Shortens the names the page's wasm imports and exports (binaryen's
// --minify-imports-and-exports-and-modules) and renames them to match in its wasm-bindgen glue.
// wasm-bindgen names every import `__wbg_<name>_<16 hex digits>` and every closure's entry
// `wasm_bindgen__convert__closures_____invoke__h<16 hex digits>`: about 500 such names, written
// twice (the wasm's import section and the glue's import object), were 19 KB of the glue and
// 28 KB of the wasm, and their hex digits hardly compress. Only names change: no code of either
// file. Used by minify-glue.mjs, before terser, on the glue as wasm-bindgen wrote it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's binaryen (package.json), the one Trunk's own wasm-opt step uses. */
const WASM_OPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'binaryen', 'bin', 'wasm-opt');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Minifies the wasm at `wasmPath` in place and returns `glue` with the new names. Throws (and so
 * fails the build) when a name of the mapping is not where the glue is expected to have it, or
 * when the glue still names an old import or export afterwards.
 */
export function minifyWasmNames(wasmPath, glue) {
  // StackIR as Trunk's run wrote it: without it binaryen writes the code back 1.4 KB larger.
  const mapping = JSON.parse(execFileSync(process.execPath, [
    WASM_OPT, wasmPath, '-o', wasmPath,
    '--optimize-level=2', '--shrink-level=1', '--generate-stack-ir', '--optimize-stack-ir',
    '--minify-imports-and-exports-and-modules',
  ], { encoding: 'utf8', maxBuffer: 16 << 20 }));
  // One more -Oz pass, with the assumptions of Trunk's (www/page.html), over the renamed code:
  // with the short names, the pipeline run once more from the start finds more to fold, 0.6 KB of
  // gzip for 14 s of build. It keeps the names. The producers and target-features sections, which
  // no browser reads, go too (255 B); the features are read from the latter before it is dropped.
  execFileSync(process.execPath, [
    WASM_OPT, wasmPath, '-o', wasmPath, '-Oz', '--ignore-implicit-traps', '--low-memory-unused',
    '--generate-stack-ir', '--optimize-stack-ir', '--strip-producers', '--strip-target-features',
  ], { stdio: 'inherit' });
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  // The pass puts every import into one module with a short name; the glue's import object has
  // one key per module that wasm-bindgen wrote.
  const newModules = [...new Set(WebAssembly.Module.imports(module).map((i) => i.module))];
  const oldModules = [...new Set(mapping.imports.map(([oldModule]) => oldModule))];
  if (newModules.length !== 1 || oldModules.length !== 1) {
    throw new Error(`minify-wasm-names: import modules ${oldModules} → ${newModules}, expected one each`);
  }
  const replace = (text, pattern, replacement, what) => {
    let count = 0;
    const out = text.replace(pattern, () => {
      count += 1;
      return replacement;
    });
    if (count === 0) throw new Error(`minify-wasm-names: ${what} not found in the glue`);
    return out;
  };
  let out = replace(glue, new RegExp(`(["'])${escape(oldModules[0])}\\1(?=\\s*:)`, 'g'),
    JSON.stringify(newModules[0]), `the import module ${oldModules[0]}`);
  // Imports: the keys of the import object (`name: function(…)`); each name carries its hash.
  for (const [, oldName, newName] of mapping.imports) {
    out = replace(out, new RegExp(`(?<=[{,\\s])${escape(oldName)}(?=\\s*:)`, 'g'), JSON.stringify(newName), `the import ${oldName}`);
  }
  // Exports: read by the glue only as `wasm.<name>` (`wasm = instance.exports`).
  for (const [oldName, newName] of mapping.exports) {
    out = out.replace(new RegExp(`\\bwasm\\.${escape(oldName)}\\b`, 'g'), `wasm[${JSON.stringify(newName)}]`);
  }
  const left = mapping.imports.filter(([, oldName]) => new RegExp(`\\b${escape(oldName)}\\b`).test(out))
    .map(([, oldName]) => oldName)
    .concat(mapping.exports.filter(([oldName]) => new RegExp(`\\bwasm\\.${escape(oldName)}\\b`).test(out)).map(([oldName]) => oldName));
  if (left.length > 0) throw new Error(`minify-wasm-names: the glue still names ${left.join(', ')}`);
  const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  const missing = mapping.exports.filter(([, newName]) => !exported.has(newName));
  if (missing.length > 0) throw new Error(`minify-wasm-names: exports ${missing} missing from the wasm`);
  return out;
}
