// The page's languages: `lang` in the link, the browser's preferred languages, the menu, an
// unknown value, embeds; each language's page is painted in it from the start (no English words
// outside the catalog), computes the same numbers, and fits its first-load budget.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { gzippedBytes, open, origin, screenshot, setUp, stats } from './helpers.mjs';
import { ATTRIBUTES, isComputed } from '../../scripts/l10n/catalog.mjs';
import { catalogMessages, translatePage } from '../../scripts/l10n/translate.mjs';
import { compactCatalog } from '../../scripts/l10n/computed.mjs';

setUp();

/** Opens `query` and waits for the page it ends on (another language's replaces it) to be ready. */
async function openIn(query, options = {}) {
  const opened = await open(query, [1366, 768], { ...options, ready: false });
  const { page } = opened;
  await page.waitForFunction(() => window.peLab && document.documentElement.lang &&
    !document.documentElement.hasAttribute('data-leaving'));
  await page.evaluate(() => window.peLab.ready);
  await page.evaluate(() => window.peLab.whenDrawn());
  // The page replaced before it started may have had a request cut short: not a problem.
  opened.problems = opened.problems.filter((p) => !/^request failed: .*\.(js|wasm)$/.test(p));
  return opened;
}

const textOf = (page, selector) => page.locator(selector).first().evaluate((e) => e.textContent.replace(/\s+/g, ' ').trim());

describe('languages', () => {
  test('lang=zh gives the Chinese page, with the same numbers as the English one', async () => {
    const zh = await openIn('lang=zh&d=48');
    const { page } = zh;
    assert.match(page.url(), /\/index\.zh\.html\?/);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
    assert.equal(await page.evaluate(() => window.peLab.lang), 'zh');
    assert.match(await page.title(), /位置编码/);
    assert.match(await textOf(page, '#attention-title'), /\p{Script=Han}/u);
    assert.equal(await page.locator('#lang-select').inputValue(), 'zh');
    // The link's own keys are kept: the same view.
    assert.equal((await page.evaluate(() => window.peLab.state)).d, 48);
    const en = await openIn('lang=en&d=48');
    assert.equal(await en.page.evaluate(() => document.documentElement.lang), 'en');
    assert.match(en.page.url(), /\/\?/);
    const numbers = (s) => ({ rows: s.rows, columns: s.columns, pMin: s.pMin, pMax: s.pMax,
      maxProjectionError: s.maxProjectionError, attention: s.panels.attention.weights });
    assert.deepEqual(numbers(await stats(page)), numbers(await stats(en.page)));
    await screenshot(page, 'languages-zh-laptop', { fullPage: false });
    assert.deepEqual(zh.problems, []);
    assert.deepEqual(en.problems, []);
    await zh.context.close();
    await en.context.close();
  });

  test('without lang, the English page follows the browser\'s languages; lang=en keeps English', async () => {
    const chinese = await openIn('', { locale: 'zh-CN' });
    assert.equal(await chinese.page.evaluate(() => document.documentElement.lang), 'zh');
    const english = await openIn('lang=en', { locale: 'zh-CN' });
    assert.equal(await english.page.evaluate(() => document.documentElement.lang), 'en');
    const french = await openIn('', { locale: 'fr-FR' });
    assert.equal(await french.page.evaluate(() => document.documentElement.lang), 'en');
    for (const opened of [chinese, english, french]) {
      assert.deepEqual(opened.problems, []);
      await opened.context.close();
    }
  });

  test('on the Chinese page the wasm writes Chinese: a notice, the takeaways, the training verdict and findings', async () => {
    const query = 'lang=zh&compute=bogus&trainer=cpu&tenc=rope,none&tseeds=2&tsteps=40&tn=10&tk=2';
    const { page, context, problems } = await openIn(query);
    // The notice's words come from locales/computed/zh.ftl, its value from the link.
    assert.equal(await textOf(page, '#notices-list'), 'compute = “bogus”不是 auto、gpu 或 cpu；改用 auto。');
    for (const id of ['attention-takeaway', 'heatmap-takeaway', 'rope-takeaway']) {
      assert.match(await textOf(page, `#${id}`), /\p{Script=Han}/u, id);
    }
    await page.evaluate(() => window.peLab.train());
    const train = (await stats(page)).panels.train;
    assert.ok(train.verdict.length > 0 && train.findings.length > 0);
    for (const sentence of [...train.verdict, ...train.findings]) assert.match(sentence, /\p{Script=Han}/u, sentence);
    // The same run on the English page: the same numbers in every sentence.
    const en = await openIn(query.replace('lang=zh', 'lang=en'));
    await en.page.evaluate(() => window.peLab.train());
    const english = (await stats(en.page)).panels.train;
    const numbers = (sentences) => sentences.join(' ').match(/\d+(?:\.\d+)?/g).sort();
    assert.deepEqual(numbers(train.verdict), numbers(english.verdict));
    await screenshot(page, 'languages-zh-train-verdict', { fullPage: false });
    assert.deepEqual(problems, []);
    assert.deepEqual(en.problems, []);
    await context.close();
    await en.context.close();
  });

  test('an unknown language gives English and a notice', async () => {
    const { page, context, problems } = await openIn('lang=klingon');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.ok(await page.locator('#notices').isVisible());
    assert.match(await textOf(page, '#notices-list'), /lang = 'klingon' is not one of: en, zh; showing English\./);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the menu switches the language and keeps the view', async () => {
    const { page, context, problems } = await openIn('d=40');
    await page.locator('#lang-select').selectOption('zh');
    await page.waitForURL(/index\.zh\.html/);
    await page.waitForFunction(() => window.peLab && window.peLab.lang === 'zh');
    await page.evaluate(() => window.peLab.ready);
    assert.equal((await page.evaluate(() => window.peLab.state)).d, 40);
    assert.match(page.url(), /[?&]lang=zh/);
    await page.locator('#lang-select').selectOption('en');
    await page.waitForURL((url) => !/index\.zh\.html/.test(url.pathname));
    await page.waitForFunction(() => window.peLab && window.peLab.lang === 'en');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.deepEqual(problems.filter((p) => !/^request failed: .*\.(js|wasm)$/.test(p)), []);
    await context.close();
  });

  test('an embed takes lang', async () => {
    const { page, context, problems } = await openIn('embed=heatmap&lang=zh');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
    assert.match(await textOf(page, '#heatmap-title'), /\p{Script=Han}/u);
    assert.ok(await page.locator('#panel-heatmap').isVisible());
    assert.ok(await page.locator('#panel-attention').isHidden());
    assert.deepEqual(problems, []);
    await context.close();
  });

  // The Chinese first load: 563,579 B with the static page translated; 608,748 B with the
  // catalogs of the computed sentences in index.zh.html and the English one in the wasm, over the
  // 590 KB target; 582,719 B with the training panel's catalog fetched with the training module
  // instead, and the page's wasm 23 KB smaller (see train.test.mjs). It may not grow.
  // 2026-12-02: + about 1.6 KB, the same wasm as the English page's (drawing only what is seen);
  // then the takeaways that answer their questions, with the posters at half resolution (see
  // train.test.mjs): 585,572 B; 584,200 B with the short argument names. The training verdict's
  // headline slot (an element and its markup) and the binary panel's paint of P's waiting cells:
  // 585,065 B. The panels in their folders (see train.test.mjs): 584,866 B. The pretrained panel
  // and the learned panel's trained table (see train.test.mjs): 586,248 B.
  const CHINESE_FIRST_LOAD_NOW = 586248;
  const CHINESE_TARGET = 590_000;
  let chineseTotal;

  test('the Chinese page is Chinese before the wasm starts, and its first load does not grow', async () => {
    const { page, context, requests, release } = await open(`${origin}/index.zh.html?compute=cpu`, [1366, 768], { holdWasm: true });
    await page.waitForSelector('#lede');
    // Before the wasm: the static page, in Chinese (its words come from locales/zh.ftl).
    assert.match(await textOf(page, '#lede summary'), /\p{Script=Han}/u);
    assert.match(await textOf(page, '#copy-link'), /\p{Script=Han}/u);
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
    release();
    await page.evaluate(() => window.peLab.ready);
    await page.evaluate(() => window.peLab.whenDrawn());
    await page.waitForTimeout(500);
    const files = gzippedBytes(requests);
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    const paths = files.map((f) => f.path).join(', ');
    console.log(`# Chinese first load: ${paths}; ${total} B gzip -9; first contentful paint ${paint?.toFixed(0)} ms`);
    assert.ok(!files.some((f) => f.path.endsWith('/index.html')), paths);
    // The training panel's catalog comes with the training module, not with the page.
    assert.ok(!files.some((f) => f.path.includes('messages-training')), paths);
    // 2 KB of slack: compression moves a little with every build.
    assert.ok(total <= CHINESE_FIRST_LOAD_NOW + 2048, `${total} B, more than ${CHINESE_FIRST_LOAD_NOW} B`);
    chineseTotal = total;
    await context.close();
  });

  test('the Chinese first load is at most 590 KB', () => {
    assert.ok(chineseTotal <= CHINESE_TARGET, `${chineseTotal} B`);
  });
});

const accents = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú' };
const pseudo = (text) => text.replace(/[A-Za-z]+/g, (word) => `${word.replace(/[aeiouAEIOU]/g, (c) => accents[c])}ʼ`);

/** A pseudo-locale of a catalog: every word accented and marked with ʼ, markup and escapes kept. */
function pseudoCatalog(ftl) {
  const outsideMarkup = (value) => value.replace(/(^|>)([^<]*)/g, (_, open, text) => open + text
    .split(/(\{"[^"]*"\}|&[a-z]+;)/).map((part, k) => (k % 2 ? part : pseudo(part))).join(''));
  return ftl.split('\n').map((line) => {
    const message = /^([a-zA-Z][\w-]* = )(.*)$/.exec(line);
    if (message) return message[1] + outsideMarkup(message[2]);
    const attribute = /^(    \.[\w-]+ = )(.*)$/.exec(line);
    return attribute ? attribute[1] + pseudo(attribute[2]) : line;
  }).join('\n');
}

/**
 * A pseudo-locale of a catalog of computed sentences (locales/computed, locales/training): the
 * words of every text, variant and string literal accented and marked; ids, variables, variant
 * keys and references kept.
 */
function pseudoComputedCatalog(ftl) {
  // Text outside placeables, and inside string literals; a placeable's other parts are syntax.
  const words = (text) => text.split(/(\{[^{}]*?(?:\}|$))/).map((part, k) => (k % 2
    ? part.replace(/"((?:[^"\\]|\\.)*)"/g, (_, literal) => `"${pseudo(literal)}"`)
    : pseudo(part))).join('');
  return ftl.split('\n').map((line) => {
    if (line.startsWith('#') || !line.trim()) return line;
    const entry = /^(-?[a-zA-Z][\w-]* = )(.*)$/.exec(line);
    if (entry) return entry[1] + words(entry[2]);
    const variant = /^(\s*\*?\[[^\]]*\])(.*)$/.exec(line);
    if (variant) return variant[1] + words(variant[2]);
    return words(line);
  }).join('\n');
}

describe('the catalogs hold every word the wasm writes', () => {
  test('on the Chinese page with pseudo-English computed catalogs, every sentence the wasm writes is pseudo, the training lab\'s too', async () => {
    const original = await (await fetch(`${origin}/index.zh.html`)).text();
    const pseudoCompact = (set) => {
      const english = readFileSync(`locales/${set}/en.ftl`, 'utf8');
      return compactCatalog(english, pseudoComputedCatalog(english)).text;
    };
    // The page's catalog is in the page; the training panel's is the file its element names,
    // fetched with the training module.
    const computed = /(<script type="text\/x-fluent" id="messages-computed">)[\s\S]*?(<\/script>)/;
    assert.match(original, computed, 'index.zh.html carries messages-computed');
    const html = original.replace(computed, (_, open, close) => `${open}\n${pseudoCompact('computed')}${close}`);
    const trainingFile = /<script type="text\/x-fluent" id="messages-training" src="([^"]+)"><\/script>/.exec(original)?.[1];
    assert.equal(trainingFile, 'messages-training.zh.ftl');
    assert.ok((await fetch(`${origin}/${trainingFile}`)).ok, trainingFile);
    // A short run on the CPU: 2 encodings, 1 seed, 40 steps.
    const query = 'compute=cpu&trainer=cpu&tenc=rope,none&tseeds=1&tsteps=40&tn=10&tk=2&d=33&cols=0,1,2,3,4';
    const { page, context, problems } = await open(`${origin}/index.zh.html?${query}`, [1366, 768], { ready: false });
    await page.route('**/index.zh.html*', (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }));
    await page.route(`**/${trainingFile}`, (route) => route.fulfill({ body: pseudoCompact('training'), contentType: 'text/plain; charset=utf-8' }));
    await page.reload();
    await page.evaluate(() => window.peLab.ready);
    await page.evaluate(() => window.peLab.whenDrawn());
    const stats = await page.evaluate(() => window.peLab.train());
    assert.equal(stats.done, true);
    await page.evaluate(() => {
      for (const details of document.querySelectorAll('details')) details.open = true;
      for (const section of document.querySelectorAll('section[id^="panel-"]')) section.scrollIntoView();
    });
    await page.evaluate(() => window.peLab.whenDrawn());
    // Notation (d, n, ms, 2j, q, W_q) has no vowel or at most two letters; code words are names
    // that stay as they are in every language: the link's keys and values (encodings, tasks,
    // panels), the page's names for its backends, and notation with vowels. Quoted words are the
    // example sentence's tokens (data), as are the two sentences the order panel shows.
    const codeWords = ['rope', 'none', 'sinusoidal', 'concat', 'learned', 'conv', 'alibi', 't5', 'shaw',
      'shift', 'reverse', 'histogram', 'auto', 'cpu', 'gpu', 'swap',
      'base', 'delta', 'pair', 'pos', 'cols', 'tenc', 'heads', 'lens', 'perm', 'scale', 'beta', 'valid_len',
      'RoPE', 'ALiBi', 'NoPE', 'YaRN', 'NTK', 'WebGPU', 'CPU', 'GPU', 'Rust', 'WebAssembly', 'SwiftShader', 'Google',
      'pe', 'lab', 'PNG', 'CSV', 'SVG', 'sin', 'cos', 'max', 'min', 'softmax', 'float', 'Float', 'Julia', 'LayerNorm',
      'logits', 'logit', 'Lmax', 'Adam', 'MLP', 'ReLU', 'Shaw', 'Transformer', 'PyTorch', 'MXNet', 'd2l',
      'RoFormer'];
    const dataIds = ['order-original', 'order-permuted'];
    const report = await page.evaluate(([codeWords, dataIds]) => {
      // Quoted tokens, element ids (export-png-…, kebab-case) and a function's name applied
      // (attention(X)) are data or notation.
      const unquoted = (text) => text.replace(/“[^”]*”|"[^"]*"|‘[^’]*’/g, ' ')
        .replace(/\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g, ' ').replace(/\b[a-z]+\(/g, ' ');
      const english = (text) => (unquoted(text).match(/\p{L}+/gu) ?? []).filter((word) => !/[áéíóúÁÉÍÓÚʼ]/.test(word)
        && /[aeiouAEIOU]/.test(word) && word.length > 2 && !codeWords.includes(word) && !/\p{Script=Han}/u.test(word));
      const outside = [];
      let checked = 0;
      const walk = (node) => {
        if (node.nodeType === 3) {
          const text = node.textContent;
          // The static page's words are Chinese; the wasm's come from the pseudo catalogs.
          if (!text.trim() || /\p{Script=Han}/u.test(text)) return;
          checked += 1;
          const words = english(text);
          if (words.length) outside.push(`${node.parentElement.localName}#${node.parentElement.id}: ${text.trim().slice(0, 80)}`);
          return;
        }
        if (node.nodeType !== 1) return;
        if (['script', 'style', 'math', 'var', 'code', 'sub', 'sup'].includes(node.localName)) return;
        // A menu's options of tokens are the sentence's words (data).
        if (node.getAttribute('translate') === 'no' || dataIds.includes(node.id) || node.localName === 'option') return;
        for (const name of ['title', 'aria-label', 'aria-valuetext', 'placeholder', 'alt']) {
          const value = node.getAttribute(name);
          if (value && !/\p{Script=Han}/u.test(value) && english(value).length) outside.push(`${node.localName}#${node.id} [${name}]: ${value.slice(0, 80)}`);
        }
        for (const child of node.childNodes) walk(child);
      };
      walk(document.body);
      return { outside, checked };
    }, [codeWords, dataIds]);
    console.log(`# pseudo-locale of the wasm's catalogs: ${report.checked} text nodes without Chinese checked, ${report.outside.length} with English words`);
    for (const line of report.outside) console.log(`#   ${line}`);
    assert.deepEqual(problems, []);
    await context.close();
    assert.deepEqual(report.outside, []);
  });
});

describe('the catalog holds every word of the static page', () => {
  test('a pseudo-locale leaves no English word outside notation, computed sentences and language names', async () => {
    const source = readFileSync('index.html', 'utf8');
    const pseudo = catalogMessages(pseudoCatalog(readFileSync('locales/en.ftl', 'utf8')), 'en-XA');
    const translated = await translatePage(source, 'en-XA', pseudo);
    const { document } = parseHTML(translated);
    const outside = [];
    let computed = 0;
    // Pseudo words are accented and end in ʼ; notation (d, n, ms, 2j) has no vowel or two letters.
    const isPseudo = (text) => (text.match(/\p{L}+/gu) ?? [])
      .every((word) => /[áéíóúÁÉÍÓÚʼ]/.test(word) || !/[aeiouAEIOU]/.test(word) || word.length <= 2);
    const walker = (node) => {
      const place = (element) => `${element.localName}${element.id ? `#${element.id}` : ''}`;
      if (node.nodeType === 3) {
        if (!isPseudo(node.textContent)) outside.push(`${place(node.parentElement)}: ${node.textContent.trim().slice(0, 60)}`);
        return;
      }
      if (node.nodeType !== 1) return;
      const tag = node.localName;
      if (node.getAttribute('translate') === 'no') return;
      // MathML is kept whole from the page, its spoken label too (not in the catalog yet).
      if (['script', 'style', 'math'].includes(tag)) return;
      for (const name of ATTRIBUTES) {
        if (node.hasAttribute(name) && !isPseudo(node.getAttribute(name))) outside.push(`${place(node)} [${name}]: ${node.getAttribute(name).slice(0, 60)}`);
      }
      if (['var', 'code', 'sub', 'sup', 'canvas'].includes(tag)) return;
      if (isComputed(node)) {
        computed += 1;
        return;
      }
      for (const child of node.childNodes) walker(child);
    };
    walker(document.body);
    console.log(`# pseudo-locale: ${outside.length} text nodes outside the catalog; ${computed} computed by the wasm (its sentences are the next catalog)`);
    assert.deepEqual(outside, []);
  });
});
