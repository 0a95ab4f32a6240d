// Trunk's post_build hook (Trunk.toml): one page per language in the staging folder.
// 1. locales/en.ftl must be what index.html says (extract.mjs writes it), and every other
//    catalog must translate every English message with the same named elements, markup and
//    attributes: the build fails otherwise, so no page ships with a word outside its catalog.
// 2. index.<code>.html for every other language: the built index.html translated by its catalog
//    (translate.mjs), <html lang> set; the same wasm, glue and styles (hashed names unchanged).
// 3. The catalog's markers (data-l10n-id, data-l10n-name) are removed from every page: they are
//    only for this step, and the English first load stays as it was.
//   TRUNK_STAGING_DIR=dist node scripts/l10n/build-pages.mjs   (Trunk sets the variable)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishCatalog } from './catalog.mjs';
import { LANGUAGES, SOURCE } from './languages.mjs';
import { catalogMessages, compareCatalogs, stripMarkers, translatePage } from './translate.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('build-pages: TRUNK_STAGING_DIR is not set (run by Trunk)');

const fail = (lines) => {
  console.error(`build-pages: ${lines.length} problems:\n  ${lines.join('\n  ')}`);
  process.exit(1);
};

const problems = [];
const source = readFileSync(join(root, 'index.html'), 'utf8');
const english = englishCatalog(source, problems);
if (problems.length) fail(problems);
if (readFileSync(join(root, 'locales', 'en.ftl'), 'utf8') !== english) {
  fail(['locales/en.ftl is not what index.html says: run node scripts/l10n/extract.mjs']);
}

const built = readFileSync(join(dir, SOURCE.page), 'utf8');
const pagesTable = JSON.stringify(Object.fromEntries(LANGUAGES.map((l) => [l.code, l.page])));
if (!source.includes(`var pages = ${pagesTable};`)) {
  fail([`index.html's head script does not hold the languages table ${pagesTable} (scripts/l10n/languages.mjs)`]);
}
const { messages: englishMessages } = catalogMessages(english, SOURCE.code);
for (const language of LANGUAGES.slice(1)) {
  const catalog = catalogMessages(readFileSync(join(root, 'locales', `${language.code}.ftl`), 'utf8'), language.code);
  const mismatches = compareCatalogs(englishMessages, catalog.messages, language.code);
  if (mismatches.length) fail(mismatches);
  writeFileSync(join(dir, language.page), await translatePage(built, language.code, catalog));
  console.log(`build-pages: ${language.page} (${language.name})`);
}
writeFileSync(join(dir, SOURCE.page), stripMarkers(built));
