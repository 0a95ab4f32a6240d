// Translates a built index.html into another language with its Fluent catalog: Fluent's own DOM
// overlays (@fluent/dom) on a server-side DOM (linkedom), which keep the page's elements and
// attributes and take only the words from the catalog. Used by build-pages.mjs at build time.
import { parseHTML } from 'linkedom';
import { FluentBundle, FluentResource } from '@fluent/bundle';
import { DOMLocalization } from '@fluent/dom';
import { isKeptWhole } from './catalog.mjs';

/** The messages of a catalog: id → { value: string|null, attributes: Map(name → string) }. */
export function catalogMessages(ftl, code) {
  const resource = new FluentResource(ftl);
  const bundle = new FluentBundle(code, { useIsolating: false });
  const errors = bundle.addResource(resource);
  if (errors.length) throw new Error(`locales/${code}.ftl: ${errors.map(String).join('; ')}`);
  const messages = new Map();
  for (const { id } of resource.body) {
    const message = bundle.getMessage(id);
    const format = (pattern) => {
      const problems = [];
      const text = bundle.formatPattern(pattern, null, problems);
      if (problems.length) throw new Error(`locales/${code}.ftl ${id}: ${problems.map(String).join('; ')}`);
      return text;
    };
    messages.set(id, {
      value: message.value === null ? null : format(message.value),
      attributes: new Map(Object.entries(message.attributes).map(([name, p]) => [name, format(p)])),
    });
  }
  return { bundle, messages };
}

const names = (html) => (html.match(/data-l10n-name="[^"]*"/g) ?? []).sort().join(' ');
// The kinds of element (a translation may mention a variable once more or once less, as its
// grammar needs; it may not lose a kind of markup or bring another).
const tags = (html) => [...new Set(html.match(/<[a-z]+/g) ?? [])].sort().join(' ');

/**
 * What a translation lacks against the English: messages, attributes, named elements (each once)
 * and the kinds of text-level markup.
 */
export function compareCatalogs(english, other, code) {
  const problems = [];
  for (const [id, message] of english) {
    const translated = other.get(id);
    if (!translated) {
      problems.push(`${code}: ${id} is missing`);
      continue;
    }
    if ((message.value === null) !== (translated.value === null)) problems.push(`${code}: ${id} has ${translated.value === null ? 'no' : 'a'} value, the English ${message.value === null ? 'none' : 'one'}`);
    if (message.value !== null && translated.value !== null) {
      if (names(message.value) !== names(translated.value)) problems.push(`${code}: ${id} names ${names(translated.value) || 'no element'}, the English ${names(message.value) || 'none'}`);
      if (tags(message.value) !== tags(translated.value)) problems.push(`${code}: ${id} has the elements ${tags(translated.value) || 'none'}, the English ${tags(message.value) || 'none'}`);
    }
    const attributes = [...message.attributes.keys()].sort().join(', ');
    const translatedAttributes = [...translated.attributes.keys()].sort().join(', ');
    if (attributes !== translatedAttributes) problems.push(`${code}: ${id} has the attributes ${translatedAttributes || 'none'}, the English ${attributes || 'none'}`);
  }
  for (const id of other.keys()) if (!english.has(id)) problems.push(`${code}: ${id} is not an English message`);
  return problems;
}

/** Removes the catalog's markers from a built page (they are only for the build). */
export function stripMarkers(html) {
  return html.replace(/\sdata-l10n-(?:id|name)=(?:"[^"]*"|'[^']*'|[^\s>]+)/g, '');
}

/** `html` (a built page) in the language `code`, with its catalog (`catalogMessages`). */
export async function translatePage(html, code, { bundle, messages }) {
  const { document, window } = parseHTML(html);
  // @fluent/dom reads these globals; linkedom's window provides them, and this page is the document.
  for (const name of ['Node', 'Element', 'HTMLElement', 'DocumentFragment']) {
    if (!(name in globalThis)) globalThis[name] = window[name];
  }
  globalThis.document = document;
  const elements = [...document.querySelectorAll('[data-l10n-id]')];
  // Notation and MathML are the page's: kept aside, put back after the overlay (which writes
  // only the text of a named element).
  const keptWhole = new Map();
  for (const element of elements) {
    for (const child of element.querySelectorAll('[data-l10n-name]')) {
      if (isKeptWhole(child)) keptWhole.set(`${element.getAttribute('data-l10n-id')} ${child.getAttribute('data-l10n-name')}`, child.cloneNode(true));
    }
  }
  const localization = new DOMLocalization([], async function* bundles() { yield bundle; });
  await localization.translateElements(elements);
  for (const element of elements) {
    const id = element.getAttribute('data-l10n-id');
    for (const child of element.querySelectorAll('[data-l10n-name]')) {
      const original = keptWhole.get(`${id} ${child.getAttribute('data-l10n-name')}`);
      if (original) child.replaceWith(original.cloneNode(true));
    }
    // Attributes @fluent/dom leaves alone (it translates title, aria-label, placeholder, alt,
    // label): a meta description's content.
    const content = messages.get(id)?.attributes.get('content');
    if (content !== undefined && element.localName === 'meta') element.setAttribute('content', content);
  }
  document.documentElement.setAttribute('lang', code);
  // The language menu shows this page's language.
  for (const option of document.querySelectorAll('#lang-select option')) {
    if (option.getAttribute('value') === code) option.setAttribute('selected', '');
    else option.removeAttribute('selected');
  }
  return stripMarkers(document.toString());
}
