import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { guardedLookup, isPrivateAddress, isPrivateUrl } from '../../../src/modules/webhooks/targetPolicy.ts';

/** Each IPv6 form that embeds an IPv4 address (judged by it), and the IPv6-only private ranges: [address, private, form]. */
const IPV6_FORMS: [string, boolean, string][] = [
  ['::ffff:7f00:1', true, 'IPv4-mapped 127.0.0.1'],
  ['::ffff:169.254.169.254', true, 'IPv4-mapped 169.254.169.254, dotted'],
  ['::ffff:808:808', false, 'IPv4-mapped 8.8.8.8'],
  ['::7f00:1', true, 'IPv4-compatible 127.0.0.1'],
  ['::a9fe:a9fe', true, 'IPv4-compatible 169.254.169.254'],
  ['::808:808', false, 'IPv4-compatible 8.8.8.8'],
  ['::ffff:0:7f00:1', true, 'IPv4-translated 127.0.0.1'],
  ['::ffff:0:a00:1', true, 'IPv4-translated 10.0.0.1'],
  ['::ffff:0:808:808', false, 'IPv4-translated 8.8.8.8'],
  ['64:ff9b::a9fe:a9fe', true, 'NAT64 169.254.169.254'],
  ['64:ff9b::808:808', false, 'NAT64 8.8.8.8'],
  ['64:ff9b:1::7f00:1', true, 'NAT64 local-use, 127.0.0.1 in the /96 layout'],
  ['64:ff9b:1:808:8:800::', true, 'NAT64 local-use, 8.8.8.8 in the /48 layout: the whole /48 is private'],
  ['2002:7f00:1::', true, '6to4 of 127.0.0.1'],
  ['2002:a9fe:a9fe::', true, '6to4 of 169.254.169.254'],
  ['2002:c0a8:101::1', true, '6to4 of 192.168.1.1'],
  ['2002:808:808::', false, '6to4 of 8.8.8.8'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', true, 'Teredo, client 127.0.0.1 (stored inverted)'],
  ['2001:0:4136:e378:8000:63bf:5601:5601', true, 'Teredo, client 169.254.169.254'],
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', true, 'Teredo, server 10.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false, 'Teredo, server 65.54.227.120 and client 8.8.8.8'],
  ['fec0::1', true, 'site-local'],
  ['feff::1', true, 'site-local, top of fec0::/10'],
  ['fc00::1', true, 'unique local'],
  ['FD12:3456::1', true, 'unique local, upper case'],
  ['2606:4700::1111', false, 'global'],
  ['2001:4860:4860::8888', false, 'global, beside Teredo 2001::/32'],
];

describe('webhook target policy', () => {
  test('an IPv6 address that embeds an IPv4 address is judged by it; site-local and unique-local are private', () => {
    const misjudged = IPV6_FORMS.filter(
      ([ip, isPrivate]) =>
        isPrivateAddress(ip) !== isPrivate || isPrivateUrl(`https://[${ip}]:8443/hook`) !== isPrivate,
    ).map(([ip, isPrivate, form]) => `${form} (${ip}) should be ${isPrivate ? 'private' : 'public'}`);
    assert.deepEqual(misjudged, []);
    assert.equal(isPrivateAddress('fe80::1%eth0'), true, 'a zone id does not hide link-local');
    assert.equal(isPrivateAddress('fec0::1%2'), true, 'nor site-local');
  });

  test('URLs: every spelling the URL parser accepts for a private literal or localhost is refused; a zone id is no URL', () => {
    const passed = [
      'http://0x7f.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://0/',
      'http://127.0.0.1./',
      'http://[::FFFF:7F00:1]/',
      'http://[::127.0.0.1]/',
      'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
      'http://localhost./',
      'http://api.localhost./',
    ].filter((url) => !isPrivateUrl(url));
    assert.deepEqual(passed, []);
    assert.throws(() => isPrivateUrl('http://[fe80::1%25eth0]/'), { code: 'ERR_INVALID_URL' });
  });

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
