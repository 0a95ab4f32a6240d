// Writes locales/en.ftl, the English messages of the static page, from index.html (the page's
// English source), and fails on words that no message holds. `--check` writes nothing and fails
// if locales/en.ftl is not what index.html gives (the release build runs it).
//   node scripts/l10n/extract.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishCatalog } from './catalog.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const source = process.env.PE_LAB_L10N_SOURCE ?? join(root, 'index.html');
const target = join(root, 'locales', 'en.ftl');
const problems = [];
const catalog = englishCatalog(readFileSync(source, 'utf8'), problems);
if (problems.length) {
  console.error(`extract: ${problems.length} problems in ${source} (scripts/l10n/mark.mjs names new text):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(target, 'utf8'); } catch { /* missing: differs */ }
  if (current !== catalog) {
    console.error('extract: locales/en.ftl is not what index.html says; run node scripts/l10n/extract.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(target, catalog);
  console.log(`extract: ${target}`);
}
