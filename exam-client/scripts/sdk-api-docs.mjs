#!/usr/bin/env node
// Writes docs/sdk-api.md from sdk/index.d.ts (npm run docs): the types are the one source of the
// API reference, so the page cannot drift from them (test/package.test.mjs regenerates and compares).
// A line scanner, not a compiler: index.d.ts keeps every top-level declaration at column 0.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
export const SOURCE = here('../sdk/index.d.ts');
export const TARGET = here('../../docs/sdk-api.md');

const KINDS = [
  ['class', /^export declare class (\w+)/],
  ['function', /^export declare function (\w+)/],
  ['constant', /^export declare const (\w+)/],
  ['interface', /^export interface (\w+)/],
  ['type', /^export type (\w+)/],
];
const SECTIONS = [['class', 'Classes'], ['function', 'Functions'], ['constant', 'Constants'], ['interface', 'Interfaces'], ['type', 'Types']];

/** Top-level declarations of a .d.ts text: {kind, name, doc, code}, in source order. */
export function declarations(source) {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const out = [];
  let doc = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('/**')) {
      doc = [];
      for (; i < lines.length; i++) {
        doc.push(lines[i]);
        if (lines[i].includes('*/')) break;
      }
      continue;
    }
    const kind = KINDS.find(([, re]) => re.test(line));
    if (!kind) {
      if (line.trim() !== '') doc = [];
      continue;
    }
    const code = [line];
    // A declaration ends on a line at column 0 that closes it (`}`, `});`, `>;`) or on its own line's `;`.
    let depth = count(line);
    while (depth > 0 && i + 1 < lines.length) {
      code.push(lines[++i]);
      depth += count(lines[i]);
    }
    out.push({ kind: kind[0], name: line.match(kind[1])[1], doc: docText(doc), code: code.join('\n') });
    doc = [];
  }
  return out;
}

function count(line) {
  let d = 0;
  for (const c of line.replace(/'[^']*'/g, "''")) {
    if ('{(<['.includes(c)) d++;
    else if ('})>]'.includes(c)) d--;
  }
  // `=>` is an arrow, not a closing bracket.
  return d + (line.match(/=>/g) || []).length;
}

function docText(lines) {
  return lines
    .map((l) => l.replace(/^\s*\/\*\*\s?/, '').replace(/\s*\*\/\s*$/, '').replace(/^\s*\*\s?/, ''))
    .join('\n')
    .trim();
}

/** The Markdown page for a .d.ts text. */
export function render(source) {
  const decls = declarations(source);
  const parts = [
    '# Exam Suite browser SDK — API reference',
    '',
    '<!-- Generated from exam-client/sdk/index.d.ts by `npm run docs` in exam-client/. Do not edit: edit the types and regenerate. -->',
    '',
    'The typed surface of `@examsuite/exam-client` (`import { ExamClient } from \'@examsuite/exam-client\'`).',
    'What the SDK does and why is in [exam-client/README.md](../exam-client/README.md); the HTTP contract it speaks is [api.md](api.md) §3–4.',
    '',
  ];
  for (const [kind, title] of SECTIONS) {
    const list = decls.filter((d) => d.kind === kind);
    if (list.length === 0) continue;
    parts.push(`## ${title}`, '');
    parts.push(list.map((d) => `[\`${d.name}\`](#${d.name.toLowerCase()})`).join(' · '), '');
    for (const d of list) {
      parts.push(`### ${d.name}`, '');
      if (d.doc) parts.push(d.doc, '');
      parts.push('```ts', d.code, '```', '');
    }
  }
  return parts.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(TARGET, render(readFileSync(SOURCE, 'utf8')));
  console.log(`wrote ${TARGET}`);
}
