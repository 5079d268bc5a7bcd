import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchProctoring } from '../sdk/proctor.js';

test('visibility, focus, fullscreen exit and paste become proctoring events; stop() detaches', () => {
  const doc = new EventTarget();
  const win = new EventTarget();
  doc.visibilityState = 'visible';
  doc.fullscreenElement = null;
  const seen = [];
  const stop = watchProctoring({ document: doc, window: win }, (type) => seen.push(type));
  doc.visibilityState = 'hidden';
  doc.dispatchEvent(new Event('visibilitychange'));
  doc.visibilityState = 'visible';
  doc.dispatchEvent(new Event('visibilitychange'));
  win.dispatchEvent(new Event('blur'));
  doc.fullscreenElement = {};
  doc.dispatchEvent(new Event('fullscreenchange')); // entering is not reported
  doc.fullscreenElement = null;
  doc.dispatchEvent(new Event('fullscreenchange'));
  doc.dispatchEvent(new Event('paste'));
  assert.deepEqual(seen, ['TAB_HIDDEN', 'FOCUS_LOST', 'FULLSCREEN_EXIT', 'PASTE']);
  stop();
  win.dispatchEvent(new Event('blur'));
  assert.equal(seen.length, 4);
});

test('a paste tells how many characters were pasted, never what', () => {
  const doc = new EventTarget();
  const seen = [];
  watchProctoring({ document: doc, window: null }, (type, fields) => seen.push([type, fields]));
  const paste = new Event('paste');
  paste.clipboardData = { getData: (kind) => (kind === 'text' ? 'x'.repeat(742) : '') };
  doc.dispatchEvent(paste);
  doc.dispatchEvent(new Event('paste')); // no clipboard data: no length
  assert.deepEqual(seen, [['PASTE', { length: 742 }], ['PASTE', undefined]]);
});
