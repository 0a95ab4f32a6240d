// Gives every element of a page source (www/page.html, or a panel's src/panels/<name>/section.html;
// index.html is assembled from them) that has words but no data-l10n-id one, named after what it
// says (its own id where it has one, else the nearest id around it and its first words), and the
// children a message keeps from the page their data-l10n-name. Edits the file in place, touching
// nothing but those attributes (parse5's source positions). Run it after adding text to the page,
// then scripts/page/assemble.mjs and scripts/l10n/extract.mjs.
//   node scripts/l10n/mark.mjs [www/page.html | src/panels/<name>/section.html]
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'parse5';
import { parseHTML } from 'linkedom';
import { ATTRIBUTES, isKeptWhole, messageElements, hasTextMessage, needsName } from './catalog.mjs';

const path = process.argv[2] ?? 'www/page.html';
const html = readFileSync(path, 'utf8');

// A panel's section is a fragment: the document around it (html, head, body) is implied, and
// parse5 gives it no place in the source; linkedom is given it whole, to find the body.
const fragment = !/<html[\s>]/i.test(html);
// linkedom finds the messages; parse5 (same document order) finds where their start tags end.
const { document } = parseHTML(fragment ? `<!doctype html><html><head></head><body>${html}</body></html>` : html);
const messages = messageElements(document.body);
const head = [...document.querySelectorAll('head > title, head > meta[name="description"]')];

const tree = parse(html, { sourceCodeLocationInfo: true });
const elementsInOrder = [];
(function walk(node) {
  // Elements the parser implies (a table's tbody) have no place in the source, nor in linkedom.
  if (node.tagName && node.sourceCodeLocation) elementsInOrder.push(node);
  for (const child of node.childNodes ?? []) walk(child);
  if (node.content) for (const child of node.content.childNodes ?? []) walk(child);
})(tree);
const linkedomInOrder = [...document.querySelectorAll('*')]
  .filter((el) => !(fragment && ['HTML', 'HEAD', 'BODY'].includes(el.tagName)));
if (linkedomInOrder.length !== elementsInOrder.length) {
  throw new Error(`mark: the two parsers disagree (${linkedomInOrder.length} against ${elementsInOrder.length} elements)`);
}
const location = new Map(linkedomInOrder.map((element, k) => [element, elementsInOrder[k].sourceCodeLocation]));

const slug = (text) => text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9\s-]/g, ' ')
  .trim().split(/\s+/).filter(Boolean).slice(0, 4).join('-');
const used = new Set([...document.querySelectorAll('[data-l10n-id]')].map((e) => e.getAttribute('data-l10n-id')));
function unique(id) {
  let name = id.replace(/^[^a-zA-Z]+/, '') || 'message';
  for (let k = 2; used.has(name); k++) name = `${id}-${k}`;
  used.add(name);
  return name;
}
function nearestId(element) {
  for (let e = element.parentElement; e; e = e.parentElement) if (e.id) return e.id.replace(/^panel-/, '');
  return 'page';
}

const inserts = [];
function addAttribute(element, name, value) {
  const at = location.get(element).startTag.endOffset;
  const end = html[at - 2] === '/' ? at - 2 : at - 1;
  inserts.push([end, ` ${name}="${value}"`]);
}

for (const element of [...head, ...messages]) {
  if (!element.hasAttribute('data-l10n-id')) {
    const words = hasTextMessage(element)
      ? element.textContent
      : element.getAttribute(ATTRIBUTES.find((a) => element.hasAttribute(a)) ?? 'content') ?? '';
    const id = element.id ? unique(element.id) : unique(`${nearestId(element)}-${slug(words)}`);
    addAttribute(element, 'data-l10n-id', id);
  }
  if (!hasTextMessage(element)) continue;
  const names = new Set();
  for (const child of element.children) {
    if (child.hasAttribute('data-l10n-name') || !needsName(child)) continue;
    const base = child.localName === 'a' ? 'link'
      : isKeptWhole(child) ? 'formula'
      : child.localName === 'noscript' ? 'without-script'
      : child.id || child.classList[0] || child.localName;
    let name = base;
    for (let k = 2; names.has(name); k++) name = `${base}-${k}`;
    names.add(name);
    addAttribute(child, 'data-l10n-name', name);
  }
}

inserts.sort((a, b) => b[0] - a[0]);
let out = html;
for (const [at, text] of inserts) out = out.slice(0, at) + text + out.slice(at);
writeFileSync(path, out);
console.log(`mark: ${inserts.length} attributes added to ${path}`);
