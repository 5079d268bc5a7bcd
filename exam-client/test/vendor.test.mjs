// page/vendor/ holds copies of the rendering libraries the page serves (scripts/vendor.mjs):
// they must be exactly the pinned packages' files, so an upgrade cannot forget to re-vendor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vendoredFiles, versions, VENDOR_DIR } from '../scripts/vendor.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function walk(dir) {
  return readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? walk(path.join(dir, f)).map((g) => `${f}/${g}`) : [f]));
}

test('page/vendor holds exactly the pinned packages\' files', () => {
  const expected = vendoredFiles();
  for (const [pkg, from, to] of expected) {
    const want = readFileSync(path.join(ROOT, 'node_modules', pkg, from));
    const have = readFileSync(path.join(VENDOR_DIR, to));
    assert.ok(want.equals(have), `page/vendor/${to} differs from ${pkg}/${from}: run npm run vendor`);
  }
  assert.deepEqual(walk(VENDOR_DIR).sort(), [...expected.map(([, , to]) => to), 'VERSIONS.json'].sort());
  assert.deepEqual(JSON.parse(readFileSync(path.join(VENDOR_DIR, 'VERSIONS.json'), 'utf8')), versions());
});

test('the vendored versions are the exact ones package.json pins', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const [name, version] of Object.entries(versions())) assert.equal(pkg.devDependencies[name], version, name);
});
