// What a reader meets before any "More": the words of running text in each panel as rendered
// (read-outs and captions included; headings, controls, tables, figures, formula markup and
// whatever a closed <details> hides left out). Shared by the lesson tests and by anyone checking
// a panel's text while writing it (`node tests/e2e/reading.mjs` prints every panel's count).
import { launch, open, startServer } from './helpers.mjs';

export const WORD_LIMITS = { median: 80, max: 150 };

/** Words before "More", per panel name, of every visible `section.panel`. */
export function wordsBeforeMore(page) {
  return page.evaluate(() => {
    const skip = [
      'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'button', 'label', 'select', 'option', 'input', 'textarea',
      'table', 'math', 'canvas', 'svg', 'summary', '[role=toolbar]', '.panel-controls', '.column-picker',
      '.toggles', '.panel-tools', 'details:not([open])',
    ].join(',');
    const counts = {};
    for (const section of document.querySelectorAll('section.panel')) {
      if (!section.checkVisibility()) continue;
      let words = 0;
      const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
        words += node.textContent.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
      }
      counts[section.id.replace(/^panel-/, '')] = words;
    }
    return counts;
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { server, origin } = await startServer();
  const browser = await launch({ webgpu: false });
  const { page } = await open(`${origin}/?compute=cpu`, [1366, 9000], { browser });
  await page.evaluate(() => window.peLab.whenDrawn());
  const counts = await wordsBeforeMore(page);
  for (const [name, words] of Object.entries(counts)) console.log(`${name.padEnd(12)} ${words}`);
  console.log(`median ${median(Object.values(counts))}, max ${Math.max(...Object.values(counts))}`);
  await browser.close();
  server.close();
}
