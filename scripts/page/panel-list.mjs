// The one list of panels (`for_each_panel!` in src/model/panels.rs), read for the scripts and tests
// that are not Rust: the page's assembly (scripts/page/assemble.mjs: sections, part headings, the
// head script's table of global sliders) and the end-to-end tests' lesson order. The rows have
// one fixed form, `{ Variant, "name", folder, "part", csv: bool, svg: bool, globals: [..] }`;
// a row this does not read fails the build instead of being skipped (a native test, page_tables,
// holds the assembled page to the Rust tables).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const ROW = /^\{\s*(\w+),\s*"([a-z0-9]+)",\s*(\w+),\s*"([a-z-]+)",\s*csv:\s*(true|false),\s*svg:\s*(true|false),\s*globals:\s*\[([^\]]*)\]\s*\}$/;

/** The panels in page (and lesson) order: { variant, name, folder, part, csv, svg, globals }. */
export function panelList(root = ROOT) {
  const source = readFileSync(join(root, 'src/model/panels.rs'), 'utf8');
  const start = source.indexOf('macro_rules! for_each_panel');
  const open = source.indexOf('$callback! {', start);
  const close = source.indexOf('\n        }\n    };', open);
  if (start < 0 || open < 0 || close < 0) throw new Error('src/model/panels.rs: no for_each_panel! list');
  const rows = source.slice(open + '$callback! {'.length, close).split('\n')
    .map((line) => line.trim()).filter((line) => line && !line.startsWith('//'));
  return rows.map((line) => {
    const m = ROW.exec(line);
    if (!m) throw new Error(`src/model/panels.rs: a panel row this script cannot read: ${line}`);
    const globals = m[7].split(',').map((g) => g.trim().replace(/^"|"$/g, '')).filter(Boolean);
    return { variant: m[1], name: m[2], folder: m[3], part: m[4], csv: m[5] === 'true', svg: m[6] === 'true', globals };
  });
}
