// The catalogs of the sentences the wasm computes (locales/computed, locales/training) as a
// translated page carries them, the same form build.rs gives the English the wasm compiles in:
// without comments and blank lines, each continuation line's indent cut to the one space that
// marks it, each message under its short id (`m` and its place among the English catalog's
// messages, in base 36; src/model/messages finds a name's short id at compile time), each
// argument under its short name (`a` and its place among the English catalog's argument names in
// order of first appearance, in base 36: build.rs' rule), without the blanks inside a variable's
// placeable (`{$a1}`).

/** Every message name of an English catalog with its short id. */
export function shortIds(englishFtl) {
  const names = englishFtl.split('\n').map((line) => /^([a-zA-Z][\w-]*) =/.exec(line)?.[1]).filter(Boolean);
  return new Map(names.map((name, index) => [name, `m${index.toString(36)}`]));
}

/** Every argument name (`{ $name`) of an English catalog with its short name. */
export function argumentIds(englishFtl) {
  const names = [];
  for (const line of englishFtl.split('\n')) {
    if (line.startsWith('#')) continue;
    for (const [, name] of line.matchAll(/\{ \$([A-Za-z0-9_-]+)/g)) if (!names.includes(name)) names.push(name);
  }
  return new Map(names.map((name, index) => [name, `a${index.toString(36)}`]));
}

/**
 * `ftl`, a catalog of the set whose English is `englishFtl`, in the page's form. Returns the text
 * and the problems (a message English does not have, a text that would end its script element).
 */
export function compactCatalog(englishFtl, ftl) {
  const short = shortIds(englishFtl);
  const argumentNames = argumentIds(englishFtl);
  const problems = [];
  const text = ftl.split('\n').filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.replace(/\{ \$([A-Za-z0-9_-]+)( \})?/g, (whole, name, close) => `{$${argumentNames.get(name) ?? name}${close ? '}' : ''}`))
    .map((line) => {
      const entry = /^([a-zA-Z][\w-]*)( =.*)$/.exec(line);
      if (!entry) return line.replace(/^ +/, ' ');
      if (!short.has(entry[1])) problems.push(`${entry[1]} is not in the English catalog`);
      return short.get(entry[1]) + entry[2];
    }).join('\n') + '\n';
  if (/<\/script/i.test(text)) problems.push('it holds "</script"');
  return { text, problems };
}

/** The file, beside a translated page, that holds its training panel's catalog (compact). */
export function trainingCatalogFile(code) {
  return `messages-training.${code}.ftl`;
}
