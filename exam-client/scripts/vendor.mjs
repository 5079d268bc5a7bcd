#!/usr/bin/env node
/**
 * Copies the page's rendering libraries from node_modules (their versions pinned in
 * package.json and package-lock.json) into page/vendor/, which the page serves at /vendor/ and
 * which goes into the page's image as it is (./exam images copies page/). Run after changing a
 * version: `npm run vendor`; test/vendor.test.mjs fails while a copy differs from node_modules.
 *
 *   markdown-it  (browser ESM build)          Markdown → HTML, raw HTML off
 *   katex        (ESM, CSS, the woff2 fonts)   LaTeX, drawn into elements (no inline styles)
 *   dompurify    (ESM)                         the client's second line over the rendered HTML
 *   highlight.js (@highlightjs/cdn-assets ESM, common languages, one theme)
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = path.join(ROOT, 'node_modules');
export const VENDOR_DIR = path.join(ROOT, 'page', 'vendor');

/** [package, file in the package, file under page/vendor] */
export function vendoredFiles() {
  const katexFonts = readdirSync(path.join(MODULES, 'katex', 'dist', 'fonts'))
    .filter((f) => f.endsWith('.woff2'))
    .map((f) => ['katex', `dist/fonts/${f}`, `katex/fonts/${f}`]);
  return [
    ['markdown-it', 'dist/browser/markdown-it.esm.min.mjs', 'markdown-it/markdown-it.esm.min.mjs'],
    ['markdown-it', 'LICENSE', 'markdown-it/LICENSE'],
    ['katex', 'dist/katex.mjs', 'katex/katex.mjs'],
    ['katex', 'dist/katex.min.css', 'katex/katex.min.css'],
    ['katex', 'LICENSE', 'katex/LICENSE'],
    ...katexFonts,
    ['dompurify', 'dist/purify.es.mjs', 'dompurify/purify.es.mjs'],
    ['dompurify', 'LICENSE', 'dompurify/LICENSE'],
    ['@highlightjs/cdn-assets', 'es/highlight.min.js', 'highlight/highlight.min.js'],
    ['@highlightjs/cdn-assets', 'styles/github.min.css', 'highlight/github.min.css'],
    ['@highlightjs/cdn-assets', 'LICENSE', 'highlight/LICENSE'],
  ];
}

export function versions() {
  const out = {};
  for (const name of ['markdown-it', 'katex', 'dompurify', '@highlightjs/cdn-assets']) {
    out[name] = JSON.parse(readFileSync(path.join(MODULES, name, 'package.json'), 'utf8')).version;
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  rmSync(VENDOR_DIR, { recursive: true, force: true });
  for (const [pkg, from, to] of vendoredFiles()) {
    mkdirSync(path.dirname(path.join(VENDOR_DIR, to)), { recursive: true });
    copyFileSync(path.join(MODULES, pkg, from), path.join(VENDOR_DIR, to));
  }
  writeFileSync(path.join(VENDOR_DIR, 'VERSIONS.json'), `${JSON.stringify(versions(), null, 2)}\n`);
  console.log(`page/vendor/: ${vendoredFiles().length} files, ${JSON.stringify(versions())}`);
}
