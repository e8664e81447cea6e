import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareVersions, SEMVER, updateAction, visibleQuickActions } from '../../../src/modules/apps/domain.ts';

test('semantic versions order by precedence: numbers as numbers, a pre-release before its release, build ignored', () => {
  const ordered = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
    '1.2.0',
    '1.10.0',
    '2.0.0',
  ];
  for (let i = 0; i < ordered.length - 1; i++) {
    assert.ok(compareVersions(ordered[i]!, ordered[i + 1]!) < 0, `${ordered[i]} < ${ordered[i + 1]}`);
    assert.ok(compareVersions(ordered[i + 1]!, ordered[i]!) > 0);
  }
  assert.equal(compareVersions('1.2.3+build.5', '1.2.3'), 0);
  for (const v of ['1.2', 'v1.2.3', '01.2.3', '1.2.3-', '1.2.3-01']) assert.equal(SEMVER.test(v), false, v);
});

test('the update verdict and the shortcuts shown', () => {
  const policy = {
    minimum_version: '1.2.0',
    recommended_version: '1.4.0',
    below_minimum: 'block',
    below_recommended: 'suggest_update',
    store_url: null,
  } as const;
  assert.equal(updateAction(policy, '1.1.99'), 'block');
  assert.equal(updateAction(policy, '1.2.0'), 'suggest_update');
  assert.equal(updateAction(policy, '1.4.0-rc.1'), 'suggest_update');
  assert.equal(updateAction(policy, '1.4.0'), 'none');
  assert.equal(
    updateAction({ ...policy, below_minimum: 'suggest_update', below_recommended: 'none' }, '1.0.0'),
    'suggest_update',
  );
  assert.deepEqual(
    visibleQuickActions(['wallet', 'send', 'pay'], { 'orders.send': true, 'wallet.view': true, 'payments.pay': false }),
    ['wallet', 'send'],
  );
});
