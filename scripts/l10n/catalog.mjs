// The static page's messages: which elements of index.html carry words, and the English message
// of each (its Fluent source, locales/en.ftl, is generated from index.html by extract.mjs; the
// other languages' catalogs translate it, and build-pages.mjs writes one page per language).
//
// A message is an element marked `data-l10n-id` whose content is text and text-level markup only
// (INLINE): its value is that content as HTML, as Fluent's DOM overlays take it. A child element
// that keeps attributes of its own (a link's href, a class, an id) is marked `data-l10n-name`, and
// a translation names it instead of repeating them; MathML is kept from the page whole. The
// translated attributes (ATTRIBUTES) of a marked element are the message's attributes. What the
// wasm computes (a panel's takeaway, read-outs marked data-prefill) is not a static message.
import { parseHTML } from 'linkedom';

/** Elements a translation may write itself (Fluent DOM's text-level elements). */
export const TEXT_LEVEL = new Set([
  'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 's',
  'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
]);
/** Elements a message may contain: those, and named ones it takes from the page (a link, an
 * output the wasm fills, a noscript line, MathML kept whole). */
export const INLINE = new Set([...TEXT_LEVEL, 'a', 'output', 'noscript', 'math']);
/** Attributes that are words (Fluent DOM translates these, and only these). */
export const ATTRIBUTES = ['title', 'aria-label', 'placeholder', 'alt'];
/** Never words: code, styles, figures drawn by the wasm. */
const SKIPPED = new Set(['script', 'style', 'template', 'canvas', 'svg', 'link', 'meta']);

/** Whether the wasm writes this element's words (they belong to the computed messages). */
export function isComputed(element) {
  return element.hasAttribute('data-prefill') || element.classList.contains('takeaway');
}

const hasWords = (text) => /\p{L}/u.test(text);

/** Notation a message keeps whole from the page (a subscripted variable, a formula). */
const NOTATION = new Set(['math', 'var', 'sub', 'sup', 'code']);

/**
 * Whether a child of a message is kept whole from the page: MathML, and an element with only
 * notation inside (Fluent DOM writes only the text of an element a translation names, so markup
 * inside a child is either notation kept from the page or a message of its own).
 */
export function isKeptWhole(child) {
  if (child.localName === 'math') return true;
  const ownWords = [...child.childNodes].some((n) => n.nodeType === 3 && hasWords(n.textContent));
  return child.children.length > 0 && (NOTATION.has(child.localName) || !ownWords) &&
    [...child.querySelectorAll('*')].every((e) => NOTATION.has(e.localName));
}

/**
 * Whether a child of a message is named (`data-l10n-name`), so that the translation takes it from
 * the page: anything but a bare text-level element (a translation writes those itself).
 */
export function needsName(child) {
  return !TEXT_LEVEL.has(child.localName) || child.attributes.length > 0 || isKeptWhole(child);
}

/**
 * Whether `element`'s content can be one message: text and text-level children, each child
 * either without markup inside or notation kept whole.
 */
function isTextLevel(element) {
  for (const child of element.children) {
    const tag = child.localName;
    if (!INLINE.has(tag)) return false;
    if (tag === 'math') continue;
    if (child.children.length > 0 && !isKeptWhole(child)) return false;
  }
  return true;
}

/**
 * The elements of `root` that are messages, in document order: the outermost elements whose
 * content is text-level and holds words, and every element with a translated attribute.
 * `problems` collects text that no message holds (a bare text node beside block elements).
 */
export function messageElements(root, problems = []) {
  const found = [];
  const visit = (element) => {
    const tag = element.localName;
    // translate="no": words that are the same in every language (a language's own name).
    if (element.getAttribute('translate') === 'no') return;
    if (SKIPPED.has(tag) || isComputed(element)) {
      if (ATTRIBUTES.some((name) => element.hasAttribute(name))) found.push(element);
      return;
    }
    if (hasTextMessage(element)) {
      found.push(element);
      return;
    }
    if (ATTRIBUTES.some((name) => element.hasAttribute(name) && hasWords(element.getAttribute(name)))) {
      found.push(element);
    }
    for (const node of element.childNodes) {
      if (node.nodeType === 3 && hasWords(node.textContent)) {
        problems.push(`text outside a message in <${tag}${element.id ? ` id="${element.id}"` : ''}>: "${node.textContent.trim().slice(0, 60)}"`);
      }
    }
    for (const child of element.children) visit(child);
  };
  visit(root);
  return found;
}

/** Whether the message element's content (not only its attributes) is translated. */
export function hasTextMessage(element) {
  return !SKIPPED.has(element.localName) && !isComputed(element) && isTextLevel(element) &&
    hasWords(element.textContent);
}

/** Collapses the page's line breaks and indentation as the browser does. */
const collapse = (text) => text.replace(/\s+/g, ' ');

function escapeText(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The content of a message element as a message value: text-level HTML, named children empty of attributes. */
export function messageValue(element) {
  const parts = [];
  const write = (node) => {
    if (node.nodeType === 3) {
      parts.push(escapeText(collapse(node.textContent)));
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = node.localName;
    const name = node.getAttribute('data-l10n-name');
    if (isKeptWhole(node)) {
      if (!name) throw new Error(`<${tag}> kept whole inside a message needs data-l10n-name (scripts/l10n/mark.mjs)`);
      parts.push(`<${tag} data-l10n-name="${name}"></${tag}>`);
      return;
    }
    if (needsName(node) && !name) throw new Error(`<${tag}> inside a message needs data-l10n-name (scripts/l10n/mark.mjs)`);
    parts.push(name ? `<${tag} data-l10n-name="${name}">` : `<${tag}>`);
    if (tag !== 'br' && tag !== 'wbr') {
      for (const child of node.childNodes) write(child);
      parts.push(`</${tag}>`);
    }
  };
  for (const child of element.childNodes) write(child);
  return parts.join('').trim();
}

/** Fluent's escapes for text that starts with a special character or holds braces. */
function fluentText(text) {
  return text.replace(/[{}]/g, (c) => `{"${c}"}`).replace(/^([[*.])/, '{"$1"}');
}

/** One message in Fluent syntax. */
export function fluentMessage(id, value, attributes) {
  const lines = [];
  lines.push(value ? `${id} = ${fluentText(value)}` : `${id} =`);
  for (const [name, text] of attributes) lines.push(`    .${name} = ${fluentText(collapse(text).trim())}`);
  return lines.join('\n');
}

/** The English catalog of an index.html source: [id, value, [[attribute, text]…]] in page order. */
export function extractMessages(html, problems = []) {
  const { document } = parseHTML(html);
  const messages = [];
  const seen = new Set();
  const head = [...document.querySelectorAll('head title[data-l10n-id], head meta[data-l10n-id]')];
  for (const element of [...head, ...messageElements(document.body, problems)]) {
    const id = element.getAttribute('data-l10n-id');
    if (!id) {
      problems.push(`<${element.localName}${element.id ? ` id="${element.id}"` : ''}> has words but no data-l10n-id: "${collapse(element.textContent).trim().slice(0, 60) || element.getAttribute(ATTRIBUTES.find((a) => element.hasAttribute(a)))}"`);
      continue;
    }
    if (seen.has(id)) problems.push(`data-l10n-id="${id}" is used twice`);
    seen.add(id);
    const value = hasTextMessage(element) ? messageValue(element) : '';
    const attributes = ATTRIBUTES.filter((name) => element.hasAttribute(name) && hasWords(element.getAttribute(name)))
      .map((name) => [name, element.getAttribute(name)]);
    if (element.localName === 'meta') attributes.push(['content', element.getAttribute('content')]);
    messages.push([id, value, attributes]);
  }
  return messages;
}

/** locales/en.ftl as generated from index.html. */
export function englishCatalog(html, problems = []) {
  const header = [
    '# The English messages of the static page, generated from index.html by',
    '# scripts/l10n/extract.mjs (do not edit: edit index.html and run it again). Each message is an',
    '# element marked data-l10n-id; text-level markup stays in the message, and children marked',
    '# data-l10n-name keep their attributes from the page. Translations: locales/<lang>.ftl.',
    '',
  ];
  return header.join('\n') + extractMessages(html, problems)
    .map(([id, value, attributes]) => fluentMessage(id, value, attributes)).join('\n') + '\n';
}
