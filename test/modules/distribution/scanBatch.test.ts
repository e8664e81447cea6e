// A hub's intake sends many scans in one request: each judged by its package's process as if sent alone, answered in
// input order, the batch refused whole when one item is bad.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';

describe('distribution scan batches', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let staff: string;
  let minute = 0;
  const at = (m = ++minute) => new Date(Date.UTC(2026, 10, 24, 9, m)).toISOString();
  const batch = (scans: Record<string, unknown>[], token = staff) =>
    app.http.post('/v1/distribution/scan-batches', { scans }, { token });
  const packages = async (count: number) => {
    const numbers: string[] = [];
    for (let i = 0; i < count; i++) numbers.push((await makeOrder(app.em(), b.business.id)).trackingNumber);
    return numbers;
  };
  const received = (number: string, location = 'WH') => ({
    package_number: number,
    action: 'received',
    location,
    scanned_at: at(),
  });
  const outcomes = (body: any) =>
    body.scans.map((s: any) => [s.package.package_number, s.scan.outcome, s.package.status, s.scan.flag]);

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    staff = await app.login(b.users.employee.email, PASSWORD);
    for (const code of ['WH', 'WH2'])
      assert.equal(
        (await app.http.post('/v1/places', { kind: 'warehouse', code, name: code }, { token: admin })).status,
        201,
      );
  });
  after(() => app.running.close());

  test('received scans of several packages are applied and answered in input order', async () => {
    const numbers = await packages(20);
    const res = await batch(numbers.map((n) => received(n)));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result, true);
    assert.deepEqual(
      outcomes(res.body),
      numbers.map((n) => [n, 'applied', 'created', null]),
    );
    const read = await app.http.get(`/v1/distribution/packages/${numbers[7]}`, { token: staff });
    assert.deepEqual([read.body.distribution.status, read.body.scans.length], ['created', 1]);
  });

  test("a package's scans are sent in their order; a scan id twice in a batch is a duplicate", async () => {
    const [first, second] = await packages(2);
    const res = await batch([
      { scan_id: 'b-1', ...received(first!) },
      received(second!),
      { scan_id: 'b-2', package_number: first, action: 'loaded', location: 'WH', scanned_at: at() },
      { scan_id: 'b-2', package_number: first, action: 'loaded', location: 'WH', scanned_at: at() },
    ]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(outcomes(res.body), [
      [first, 'applied', 'created', null],
      [second, 'applied', 'created', null],
      [first, 'applied', 'in_transit', null],
      [first, 'duplicate', 'in_transit', null],
    ]);
    assert.equal(res.body.scans[3].scan.id, res.body.scans[2].scan.id, 'the duplicate names the scan it repeats');
    const read = await app.http.get(`/v1/distribution/packages/${first}`, { token: staff });
    assert.deepEqual(
      read.body.scans.map((s: { action: string; outcome: string }) => [s.action, s.outcome]),
      [
        ['received', 'applied'],
        ['loaded', 'applied'],
      ],
    );
  });

  test('one bad item refuses the whole batch, naming it, and nothing is recorded', async () => {
    const numbers = await packages(3);
    const res = await batch([
      received(numbers[0]!),
      received(numbers[1]!),
      received('TMS000000000000'),
      received(numbers[2]!),
    ]);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    assert.deepEqual(
      res.body.errors.map((e: { field: string }) => e.field),
      ['scans.2.package_number'],
    );
    for (const n of numbers) {
      const read = await app.http.get(`/v1/distribution/packages/${n}`, { token: staff });
      assert.deepEqual([read.body.distribution, read.body.scans], [null, []], `${n} was not scanned`);
    }
  });

  test('a batch holds 1 to 100 scans', async () => {
    const [number] = await packages(1);
    const tooMany = await batch(Array.from({ length: 101 }, () => received(number!)));
    assert.equal(tooMany.status, 422);
    assert.deepEqual(
      tooMany.body.errors.map((e: { field: string }) => e.field),
      ['scans'],
    );
    assert.equal((await batch([])).status, 422);
    const read = await app.http.get(`/v1/distribution/packages/${number}`, { token: staff });
    assert.deepEqual(read.body.scans, []);
  });

  test('GraphQL carries the same batch', async () => {
    const [number] = await packages(1);
    const res = await app.http.graphql(
      `mutation ($scans: [DistributionScanBatchScansItemInput!]!) {
        distributionScanBatch(scans: $scans) { scans { scan { outcome } package { package_number status } } }
      }`,
      { scans: [received(number!)] },
      { token: staff },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data?.distributionScanBatch?.scans,
      [{ scan: { outcome: 'applied' }, package: { package_number: number, status: 'created' } }],
      JSON.stringify(res.body),
    );
  });

  test("a scanner key sends batches of its own place's scans only", async () => {
    const created = await app.http.post('/v1/places/WH/scanner-keys', { name: 'intake' }, { token: admin });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { secret } = created.body.key;
    const numbers = await packages(3);
    const elsewhere = await batch([received(numbers[0]!), received(numbers[1]!, 'WH2')], secret);
    assert.equal(elsewhere.status, 422, JSON.stringify(elsewhere.body));
    assert.deepEqual(
      elsewhere.body.errors.map((e: { field: string }) => e.field),
      ['scans.1.location'],
    );
    const own = await batch([received(numbers[0]!), received(numbers[2]!)], secret);
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.deepEqual(outcomes(own.body), [
      [numbers[0], 'applied', 'created', null],
      [numbers[2], 'applied', 'created', null],
    ]);
    const read = await app.http.get(`/v1/distribution/packages/${numbers[1]}`, { token: staff });
    assert.deepEqual(read.body.scans, [], 'the refused batch recorded nothing');
  });
});
