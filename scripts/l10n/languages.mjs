// The page's languages: one row each (its catalog is locales/<code>.ftl, its glossary
// locales/glossary-<code>.md). English is the source (index.html); every other language gets a
// page of its own, written by build-pages.mjs, so that its first paint is already in it. The head
// script of index.html holds the same code → page table (build-pages.mjs checks it), and
// src/model/query/mod.rs's LANGUAGES the same codes (a native test checks them against locales/).
export const LANGUAGES = [
  { code: 'en', name: 'English', page: 'index.html' },
  { code: 'zh', name: '简体中文', page: 'index.zh.html' },
];

export const SOURCE = LANGUAGES[0];
