import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServerClock } from '../sdk/time.js';

test('offset comes from the body serverTime at the request midpoint', () => {
  let local = 1_000_000;
  const clock = new ServerClock(() => local);
  clock.observe({ serverTime: new Date(1_000_000 + 60_000 + 50).toISOString() }, null, 1_000_000, 1_000_100);
  assert.equal(clock.offsetMs, 60_000);
  local = 2_000_000;
  assert.equal(clock.now(), 2_060_000);
});

test('the Date header is used until a precise serverTime has been seen, never after', () => {
  const clock = new ServerClock(() => 0);
  const date = new Date(Date.parse('2026-12-01T08:00:10Z')).toUTCString();
  clock.observe(null, date, Date.parse('2026-12-01T08:00:00Z'), Date.parse('2026-12-01T08:00:00Z'));
  assert.equal(clock.offsetMs, 10_500, 'Date truncates to seconds: +500 ms is the expected value');
  clock.observe({ serverTime: '2026-12-01T08:00:20.000Z' }, null, Date.parse('2026-12-01T08:00:00Z'), Date.parse('2026-12-01T08:00:00Z'));
  assert.equal(clock.offsetMs, 20_000);
  clock.observe({}, new Date(Date.parse('2026-12-01T09:00:00Z')).toUTCString(), Date.parse('2026-12-01T08:00:00Z'), Date.parse('2026-12-01T08:00:00Z'));
  assert.equal(clock.offsetMs, 20_000, 'a coarse Date header does not override a precise sample');
});
