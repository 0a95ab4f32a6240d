// Trunk's post_build hook (Trunk.toml): one page per language in the staging folder.
// 1. locales/en.ftl must be what index.html says (extract.mjs writes it), and every other
//    catalog must translate every English message with the same named elements, markup and
//    attributes: the build fails otherwise, so no page ships with a word outside its catalog.
// 2. index.<code>.html for every other language: the built index.html translated by its catalog
//    (translate.mjs), <html lang> set; the same wasm, glue and styles (hashed names unchanged).
// 3. Each translated page carries the catalog of the sentences the wasm computes
//    (locales/computed/<code>.ftl) in a <script type="text/x-fluent"> element at the end of its
//    body, which the wasm reads before it writes a sentence (src/model/messages): only that
//    language's page fetches it. The training panel's (locales/training/<code>.ftl) is a file
//    beside the page, messages-training.<code>.ftl, named by the element's src (which a browser
//    does not fetch by itself) and fetched with the training module, when the panel is first
//    needed (src/web/panels/train_loader.rs).
// 4. The catalog's markers (data-l10n-id, data-l10n-name) are removed from every page: they are
//    only for this step, and the English first load stays as it was.
//   TRUNK_STAGING_DIR=dist node scripts/l10n/build-pages.mjs   (Trunk sets the variable)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishCatalog } from './catalog.mjs';
import { compactCatalog, trainingCatalogFile } from './computed.mjs';
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
  const page = await translatePage(built, language.code, catalog);
  const compact = (set) => {
    const read = (code) => readFileSync(join(root, 'locales', set, `${code}.ftl`), 'utf8');
    const { text, problems: found } = compactCatalog(read(SOURCE.code), read(language.code));
    if (found.length) fail(found.map((p) => `locales/${set}/${language.code}.ftl: ${p}`));
    return text;
  };
  const trainingFile = trainingCatalogFile(language.code);
  writeFileSync(join(dir, trainingFile), compact('training'));
  const elements = `<script type="text/x-fluent" id="messages-computed">\n${compact('computed')}</script>\n`
    + `<script type="text/x-fluent" id="messages-training" src="${trainingFile}"></script>\n`;
  if (!page.includes('</body>')) fail([`${language.page} has no </body>`]);
  writeFileSync(join(dir, language.page), page.replace('</body>', `${elements}</body>`));
  console.log(`build-pages: ${language.page} (${language.name})`);
}
writeFileSync(join(dir, SOURCE.page), stripMarkers(built));
