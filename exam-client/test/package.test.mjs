// The published package (issue 22): `npm pack` ships the SDK and its papers only — never the tests,
// the e2e, the reference page, the console or their server — and docs/sdk-api.md is what
// `npm run docs` makes of sdk/index.d.ts today.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { render, SOURCE, TARGET } from '../scripts/sdk-api-docs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

function packedFiles() {
  // --ignore-scripts: a dry run must not run lifecycle scripts; npm_config_* from `npm test` is dropped so the JSON is plain.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, env, encoding: 'utf8' });
  const [result] = JSON.parse(out);
  return { result, files: result.files.map((f) => f.path) };
}

test('package.json describes a publishable, scoped, licensed package', () => {
  assert.equal(pkg.name, '@examsuite/exam-client');
  assert.notEqual(pkg.private, true);
  assert.equal(pkg.license, 'Apache-2.0');
  assert.deepEqual(pkg.files, ['sdk/', 'README.md', 'LICENSE', 'CHANGELOG.md']);
  assert.equal(pkg.sideEffects, false);
  assert.equal(pkg.types, 'sdk/index.d.ts');
  assert.match(pkg.repository.url, /^git\+https:\/\//);
  assert.equal(pkg.repository.directory, 'exam-client');
  assert.ok(pkg.keywords.length > 0);
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'the SDK has no runtime dependencies');
});

test('npm run sbom writes the SDK\'s CycloneDX bill of materials: the package, and no runtime dependency to list', () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  execFileSync('npm', ['run', '--silent', 'sbom'], { cwd: root, env, encoding: 'utf8' });
  const bom = JSON.parse(readFileSync(new URL('../sbom.cdx.json', import.meta.url), 'utf8'));
  assert.equal(bom.bomFormat, 'CycloneDX');
  assert.equal(bom.metadata.component.purl, `pkg:npm/%40examsuite/exam-client@${pkg.version}`);
  assert.deepEqual(bom.components ?? [], [], 'what the SDK ships is its own code');
});

test('npm pack ships every SDK module and nothing of the page, console, server or tests', () => {
  const { result, files } = packedFiles();
  assert.equal(result.name, '@examsuite/exam-client');
  const banned = files.filter((f) => /^(test|e2e|page|console|scripts|examples|node_modules)\//.test(f) || f === 'server.mjs' || f === 'package-lock.json');
  assert.deepEqual(banned, []);
  for (const module of readdirSync(new URL('../sdk/', import.meta.url))) {
    assert.ok(files.includes(`sdk/${module}`), `sdk/${module} is packed`);
  }
  for (const paper of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
    assert.ok(files.includes(paper), `${paper} is packed`);
  }
  assert.deepEqual(files.filter((f) => !f.startsWith('sdk/')).sort(), ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
});

test('the version has its CHANGELOG entry', () => {
  const changelog = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
  assert.match(changelog, new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]`, 'm'));
});

test('docs/sdk-api.md matches a fresh generation from sdk/index.d.ts (run `npm run docs`)', () => {
  const types = readFileSync(SOURCE, 'utf8');
  assert.equal(readFileSync(TARGET, 'utf8'), render(types));
  // Every exported name has its section.
  for (const [, name] of types.matchAll(/^export (?:declare )?(?:class|function|const|interface|type) (\w+)/gm)) {
    assert.match(render(types), new RegExp(`^### ${name}$`, 'm'));
  }
});
