import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeDraft, compareStamps, withEpochs } from '../sdk/merge.js';

const rec = (questionId, value, version, { epoch = 2, ackedVersion = 0, sentVersion = 0 } = {}) => [
  questionId,
  { questionId, value, epoch, version, ackedVersion, sentVersion },
];

test('stamps compare by epoch first, then version', () => {
  assert.ok(compareStamps({ epoch: 2, version: 1 }, { epoch: 1, version: 99 }) > 0);
  assert.ok(compareStamps({ epoch: 1, version: 5 }, { epoch: 1, version: 6 }) < 0);
  assert.equal(compareStamps({ epoch: 1, version: 5 }, { epoch: 1, version: 5 }), 0);
});

test('server-only answers are adopted, local-only answers are pushed', () => {
  const local = new Map([rec('q1', 'a', 3)]);
  const plan = mergeDraft(local, { q2: { value: 'b', version: 7 } }, { tokenEpoch: 2 });
  assert.deepEqual(plan.adopt, [{ questionId: 'q2', value: 'b', version: 7, epoch: null }]);
  assert.deepEqual(plan.push, ['q1']);
});

test('a dirty local change of the current epoch is pushed even when the server version is higher', () => {
  const local = new Map([rec('q1', 'mine', 4, { ackedVersion: 2 })]);
  const plan = mergeDraft(local, { q1: { value: 'old', version: 2 } }, { tokenEpoch: 2 });
  assert.deepEqual(plan.push, ['q1']);
  assert.deepEqual(plan.adopt, []);
});

test('an acknowledged local answer that the server changed since is replaced by the server value', () => {
  const local = new Map([rec('q1', 'mine', 4, { ackedVersion: 4, sentVersion: 4 })]);
  const plan = mergeDraft(local, { q1: { value: 'other device', version: 2 } }, { tokenEpoch: 2 });
  assert.deepEqual(plan.adopt.map((a) => a.value), ['other device']);
  assert.deepEqual(plan.push, []);
});

test('equal version and value means in sync', () => {
  const local = new Map([rec('q1', ['2', '5'], 4, { ackedVersion: 4 })]);
  const plan = mergeDraft(local, { q1: { value: ['2', '5'], version: 4 } }, { tokenEpoch: 2 });
  assert.deepEqual(plan.inSync, [{ questionId: 'q1', version: 4 }]);
});

test('after a generation change, acknowledged answers newer than the restored ones are pushed again', () => {
  const local = new Map([rec('q1', 'x', 9, { ackedVersion: 9 }), rec('q2', 'y', 3, { ackedVersion: 3 }), rec('q3', 'z', 5, { ackedVersion: 5 })]);
  const server = { q1: { value: 'older', version: 6 }, q3: { value: 'z', version: 5 } };
  const regen = mergeDraft(local, server, { tokenEpoch: 2, regenerated: true });
  assert.deepEqual(regen.push.sort(), ['q1', 'q2']);
  assert.deepEqual(regen.inSync, [{ questionId: 'q3', version: 5 }]);
  const same = mergeDraft(local, server, { tokenEpoch: 2, regenerated: false });
  assert.deepEqual(same.push, ['q2'], 'without a new generation a lower server version is a newer write elsewhere');
});

test('dirty changes from before a takeover lose to a server value another device wrote since', () => {
  // Written under epoch 1, never acknowledged; now signed in again (epoch 3).
  const local = new Map([
    rec('q1', 'offline here', 12, { epoch: 1, ackedVersion: 10, sentVersion: 12 }),
    rec('q2', 'offline here', 13, { epoch: 1, ackedVersion: 11, sentVersion: 11 }),
  ]);
  const server = { q1: { value: 'other device', version: 2 }, q2: { value: 'as acked', version: 11 } };
  const plan = mergeDraft(local, server, { tokenEpoch: 3 });
  assert.deepEqual(plan.adopt.map((a) => a.questionId), ['q1']);
  assert.deepEqual(plan.push, ['q2'], 'the server has not moved since this device sent q2');
});

test('with epochs in the server draft the rule is exact', () => {
  const local = new Map([rec('q1', 'l', 50, { epoch: 1 }), rec('q2', 'l', 2, { epoch: 3 }), rec('q3', 'same', 4, { epoch: 2 })]);
  const server = {
    q1: { value: 's', version: 1, epoch: 2 },
    q2: { value: 's', version: 40, epoch: 2 },
    q3: { value: 'same', version: 4, epoch: 2 },
  };
  const plan = mergeDraft(local, server, { tokenEpoch: 3 });
  assert.deepEqual(plan.adopt.map((a) => a.questionId), ['q1']);
  assert.deepEqual(plan.push, ['q2']);
  assert.deepEqual(plan.inSync, [{ questionId: 'q3', version: 4 }]);
});

test('withEpochs folds the GET draft\'s epochs map into each answer\'s stamp', () => {
  const draft = { answers: { q1: { value: 'a', version: 3 }, q2: { value: 'b', version: 1 } }, epochs: { q1: 2 } };
  assert.deepEqual(withEpochs(draft), { q1: { value: 'a', version: 3, epoch: 2 }, q2: { value: 'b', version: 1 } });
  assert.deepEqual(withEpochs({}), {});
});
