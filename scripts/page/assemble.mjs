// Assembles index.html, the page Trunk builds, from its parts: www/page.html (the page around
// the panels: head, header, controls, footer), each panel's section (src/panels/<name>/section.html)
// in the order of the one list of panels (src/model/panels.rs, read by panel-list.mjs), the heading
// of each part of the chapter where the part changes (www/parts.html), the head script's table of
// the global sliders that change each panel (from the same list) and the lesson's length in the
// bar ("21 sections" before the wasm starts), and the sliders' attributes at the first paint
// (www/controls.json: their ranges, steps, values and spoken values for the default state, as the
// rows of src/model give them; the markup names only the inputs), and the sliders, checkboxes and
// menus a section places by their row (`<div class="control" data-row="key"></div>`, `<label
// data-row="key"></label>`, `<div class="control-inline" data-row="key"></div>`: the label and
// the inputs written from the row's words, www/controls.json's `words`), or, where the row's words
// name its panel and no section places it, last in that panel's `panel-controls`. A new panel is
// then its row in the list and its folder, a new control its row (and at most that one line);
// nothing here names a panel or a control.
//
// Run by Trunk before every build (Trunk.toml's pre_build hook) and by scripts/test.sh; it writes
// index.html only when it changes, so that `trunk serve` does not rebuild in a loop. index.html is
// committed so that Trunk, which needs its target at start, and the native tests of the page's
// markup find it on a fresh clone; `--check` fails when the committed copy is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { panelList, ROOT } from './panel-list.mjs';

const PANELS_MARK = '    <!-- the panels: scripts/page/assemble.mjs -->\n';
const GLOBALS_MARK = '/* the global sliders of each panel: scripts/page/assemble.mjs */';
const LESSON_LENGTH_MARK = "<!-- the lesson's length: scripts/page/assemble.mjs -->";

/** The part headings of www/parts.html, by part name (`id="part-<name>"`). */
function partHeadings() {
  const headings = new Map();
  for (const line of readFileSync(join(ROOT, 'www/parts.html'), 'utf8').split('\n')) {
    const m = /id="part-([a-z-]+)"/.exec(line);
    if (m) headings.set(m[1], line + '\n');
  }
  return headings;
}

/** The head script's `globals` table: each panel's global sliders, as the list has them. */
function globalsTable(panels) {
  const entries = panels.map((p) => `${p.name}: '${p.globals.join(',')}'`);
  const lines = [];
  let line = '';
  for (const [i, entry] of entries.entries()) {
    const piece = entry + (i < entries.length - 1 ? ',' : '');
    if (line && (10 + line.length + 1 + piece.length) > 100) {
      lines.push(line);
      line = piece;
    } else {
      line = line ? `${line} ${piece}` : piece;
    }
  }
  lines.push(line);
  return '{\n' + lines.map((l) => '          ' + l).join('\n') + '\n        }';
}

export function assemble() {
  const panels = panelList();
  const template = readFileSync(join(ROOT, 'www/page.html'), 'utf8');
  if (![PANELS_MARK, GLOBALS_MARK, LESSON_LENGTH_MARK].every((mark) => template.includes(mark))) {
    throw new Error("www/page.html: the panels', the globals' or the lesson length's mark is missing");
  }
  const headings = partHeadings();
  let main = '';
  let part = null;
  for (const panel of panels) {
    if (panel.part !== part) {
      const heading = headings.get(panel.part);
      if (!heading) throw new Error(`www/parts.html: no heading for part ${panel.part} (panel ${panel.name})`);
      main += heading;
      part = panel.part;
    }
    const file = join(ROOT, 'src/panels', panel.folder, 'section.html');
    if (!existsSync(file)) throw new Error(`${file}: panel ${panel.name} has no section`);
    main += readFileSync(file, 'utf8');
  }
  const page = template.replace(PANELS_MARK, main).replace(GLOBALS_MARK, globalsTable(panels))
    .replace(LESSON_LENGTH_MARK, String(panels.length));
  const { inputs, words } = JSON.parse(readFileSync(join(ROOT, 'www/controls.json'), 'utf8'));
  return withFirstPaint(withControls(page, words), inputs);
}

/**
 * The page with a place for each control whose row names its panel (`panel` in its words) and
 * that no section places: the last in that panel's `<div class="panel-controls">`, in the rows'
 * order, so that a new setting needs no line of markup.
 */
function withPanelPlaces(page, words) {
  const placeOf = (w) => ('menu' in w ? `<div class="control-inline" data-row="${w.row}"></div>`
    : 'check' in w ? `<label data-row="${w.row}"></label>`
      : `<div class="control" data-row="${w.row}"></div>`);
  for (const w of words) {
    if (!w.panel || page.includes(`data-row="${w.row}"`)) continue;
    const section = page.search(new RegExp(`<section [^>]*id="panel-${w.panel}"`));
    if (section < 0) throw new Error(`row ${w.row}: no section of panel ${w.panel}`);
    const end = page.indexOf('</section>', section);
    const controls = /^( *)<div class="panel-controls[^"]*"[^>]*>\n/m;
    const open = controls.exec(page.slice(section, end));
    if (!open) throw new Error(`row ${w.row}: the section of panel ${w.panel} has no <div class="panel-controls"> line to end with its control`);
    const indent = open[1];
    const close = page.indexOf(`\n${indent}</div>\n`, section + open.index);
    if (close < 0 || close > end) throw new Error(`row ${w.row}: the panel-controls of panel ${w.panel} are not closed at their own indent`);
    page = `${page.slice(0, close + 1)}${indent}  ${placeOf(w)}\n${page.slice(close + 1)}`;
  }
  return page;
}

/** A label's message id as an attribute, or nothing where the label's markup names its own. */
const messageAttribute = (w) => (w.message ? ` data-l10n-id="${w.message}"` : '');

/** An attribute's value in HTML. */
const escapeAttribute = (value) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;')
  .replaceAll('<', '&lt;');

/**
 * The page with each control that a section places by its row written out from the row's words:
 * a slider (`<div class="control" data-row="key"></div>`, its block's other attributes kept) as
 * its label (with the row's message id, if it has one) and its two inputs; a checkbox (`<label
 * data-row="key"></label>`) as its box and its label; a menu (`<div class="control-inline"
 * data-row="key"></div>`) as its label and its options. A row placed twice, a place without a row's
 * words, a `data-row` left in any other form, or words that no section places are errors.
 */
function withControls(page, words) {
  page = withPanelPlaces(page, words);
  const byRow = new Map(words.map((w) => [w.row, w]));
  const placed = new Set();
  const wordsOf = (row, kind) => {
    const w = byRow.get(row);
    if (!w || !(kind in w)) throw new Error(`data-row="${row}": www/controls.json has no ${{ check: 'checkbox', menu: 'menu', range: 'slider' }[kind]} words for that row`);
    if (placed.has(row)) throw new Error(`data-row="${row}": placed twice`);
    placed.add(row);
    return w;
  };
  page = page.replace(/^( *)<div class="control-inline" data-row="([a-z-]+)"><\/div>\n/gm, (_, indent, row) => {
    const w = wordsOf(row, 'menu');
    const options = w.options.map(([value, message, label]) => `${indent}    <option value="${value}" data-l10n-id="${message}">${label}</option>\n`);
    // A menu whose options come from the state is written empty (the page fills it).
    const select = options.length ? `<select id="${w.menu}">\n${options.join('')}${indent}  </select>`
      : `<select id="${w.menu}"></select>`;
    return `${indent}<div class="control-inline">\n`
      + `${indent}  <label for="${w.menu}"${messageAttribute(w)}>${w.label}</label>\n`
      + `${indent}  ${select}\n`
      + `${indent}</div>\n`;
  });
  page = page.replace(/^( *)<div class="control"([^>]*?) data-row="([a-z-]+)"><\/div>\n/gm, (_, indent, attributes, row) => {
    const w = wordsOf(row, 'range');
    return `${indent}<div class="control"${attributes}>\n`
      + `${indent}  <label for="${w.range}"${messageAttribute(w)}>${w.label}</label>\n`
      + `${indent}  <input type="range" id="${w.range}">\n`
      + `${indent}  <input type="number" id="${w.number}" aria-label="${escapeAttribute(w.exact)}" data-l10n-id="${w.number}">\n`
      + `${indent}</div>\n`;
  });
  page = page.replace(/^( *)<label data-row="([a-z-]+)"><\/label>\n/gm, (_, indent, row) => {
    const w = wordsOf(row, 'check');
    return `${indent}<label><input type="checkbox" id="${w.check}"><span data-l10n-id="${w.message}">${w.label}</span></label>\n`;
  });
  const stray = /<[^>]*\sdata-row="[^"]*"[^>]*>/.exec(page);
  if (stray) throw new Error(`${stray[0]}: a place for a row's control is a line of its own: <div class="control" data-row="key"></div>, <label data-row="key"></label> or <div class="control-inline" data-row="key"></div>`);
  const unplaced = words.filter((w) => !placed.has(w.row)).map((w) => w.row);
  if (unplaced.length) throw new Error(`no section places the control of ${unplaced.join(', ')} (data-row)`);
  return page;
}

/**
 * The page with each input of www/controls.json given its attributes, right after its id. An
 * input the page lacks, or one whose markup already writes one of them, is an error: the
 * attributes are written in one place.
 */
function withFirstPaint(page, inputs) {
  for (const [id, attributes] of inputs) {
    const idAttribute = ` id="${id}"`;
    const at = page.indexOf(idAttribute);
    if (at < 0 || page.indexOf(idAttribute, at + 1) >= 0) {
      throw new Error(`www/controls.json: the page has ${at < 0 ? 'no' : 'more than one'} #${id}`);
    }
    const tagStart = page.lastIndexOf('<', at);
    const tag = page.slice(tagStart, page.indexOf('>', at) + 1);
    for (const [name] of attributes) {
      if (new RegExp(`\\s${name}=`).test(tag)) {
        throw new Error(`#${id}: its markup writes ${name}, which www/controls.json gives`);
      }
    }
    const written = attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
    const end = at + idAttribute.length;
    page = page.slice(0, end) + written + page.slice(end);
  }
  return page;
}

const page = assemble();
const target = join(ROOT, 'index.html');
const before = existsSync(target) ? readFileSync(target, 'utf8') : '';
if (process.argv.includes('--check')) {
  if (before !== page) {
    console.error('index.html is not the page assembled from www/page.html and src/panels/*/section.html: run node scripts/page/assemble.mjs');
    process.exit(1);
  }
} else if (before !== page) {
  writeFileSync(target, page);
  console.log('index.html assembled');
}
