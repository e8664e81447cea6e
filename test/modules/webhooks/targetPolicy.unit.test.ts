import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { guardedLookup, isPrivateAddress, isPrivateUrl } from '../../../src/modules/webhooks/targetPolicy.ts';

describe('webhook target policy', () => {
  test('loopback, private, link-local, CGNAT, multicast and reserved addresses are private; public ones are not', () => {
    for (const ip of [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::169.254.169.254',
    ]) {
      assert.equal(isPrivateAddress(ip), true, ip);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      assert.equal(isPrivateAddress(ip), false, ip);
    assert.equal(isPrivateAddress('not-an-ip'), true, 'what is not an address is not trusted');
  });

  test('URLs: private IP literals and localhost names are refused when saved; other names wait for the connect-time check', () => {
    for (const url of [
      'http://127.0.0.1:3000/x',
      'https://[::1]/x',
      'http://localhost/x',
      'http://api.localhost/x',
      'http://LOCALHOST/x',
      'http://169.254.169.254/latest',
    ]) {
      assert.equal(isPrivateUrl(url), true, url);
    }
    for (const url of ['https://hooks.example.com/x', 'http://8.8.8.8/x', 'https://[2606:4700:4700::1111]/x'])
      assert.equal(isPrivateUrl(url), false, url);
  });

  test('guardedLookup refuses a name that resolves only to private addresses, and passes public ones through', async () => {
    const lookup = (host: string, all: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) => {
        guardedLookup(host, { all }, (err, address) => resolve({ err, address }));
      });
    const local = await lookup('localhost', false);
    assert.equal(local.err?.code, 'EPRIVATETARGET');
    const pub = await lookup('8.8.8.8', false);
    assert.equal(pub.err, null);
    assert.equal(pub.address, '8.8.8.8');
    const all = await lookup('8.8.8.8', true);
    assert.deepEqual(all.address, [{ address: '8.8.8.8', family: 4 }]);
  });
});
