import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import {
  installSecretKeys,
  isSealed,
  openSecret,
  sealedKeyId,
  sealingKeyId,
  sealSecret,
} from '../../src/platform/secretBox.ts';

const SECRET = 'whsec-like-secret-0123456789';

test('a sealed secret opens for its purpose only, and a new seal each time', () => {
  installSecretKeys([randomBytes(32)]);
  const sealed = sealSecret('webhook_settings.sign_secret', SECRET);
  assert.ok(isSealed(sealed));
  assert.ok(!sealed.includes(SECRET));
  assert.notEqual(sealSecret('webhook_settings.sign_secret', SECRET), sealed, 'a fresh IV per seal');
  assert.equal(openSecret('webhook_settings.sign_secret', sealed), SECRET);
  assert.throws(() => openSecret('webhook_endpoint.secret', sealed), 'another purpose does not open it');
});

test('an altered value does not open', () => {
  installSecretKeys([randomBytes(32)]);
  const sealed = sealSecret('p', SECRET);
  const body = sealed.split('.').at(-1)!;
  const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
  assert.throws(() => openSecret('p', `${sealed.slice(0, sealed.length - body.length)}${flipped}`));
});

test('the first key seals, every key opens; a key no longer held names itself in the error', () => {
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
  installSecretKeys([oldKey]);
  const underOld = sealSecret('p', SECRET);
  const oldId = sealingKeyId();
  installSecretKeys([newKey, oldKey]);
  assert.notEqual(sealingKeyId(), oldId);
  assert.equal(sealedKeyId(underOld), oldId);
  assert.equal(sealedKeyId(sealSecret('p', SECRET)), sealingKeyId());
  assert.equal(openSecret('p', underOld), SECRET);
  installSecretKeys([newKey]);
  assert.throws(() => openSecret('p', underOld), new RegExp(`key ${oldId}`));
});

test('a value stored before sealing passes through, and is told apart', () => {
  installSecretKeys([randomBytes(32)]);
  assert.equal(isSealed(SECRET), false);
  assert.equal(sealedKeyId(SECRET), null);
  assert.equal(openSecret('p', SECRET), SECRET);
});

test('no key installed: sealing refuses with a clear error', () => {
  assert.throws(() => installSecretKeys([]), /at least one secrets key/);
});
