/**
 * The one way to call a carrier (docs/labels.md, "Failures"; carriers/registry.ts callCarrier): whatever an adapter
 * throws reaches the operations as a CarrierError, never as a server error: a bug or crash in the adapter is
 * CARRIER_INTERNAL (not retryable, logged with its stack), a call past the deadline TIMEOUT (retryable, its signal
 * aborted), the carrier's own refusal as it is. And the carriers' service codes come from the registry's entries,
 * equal to what each adapter offers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { z } from 'zod';
import {
  CarrierError,
  type CarrierAccount,
  type CarrierAdapter,
  type CarrierCall,
} from '../../../src/modules/labels/carriers/adapter.ts';
import {
  adapterFor,
  callCarrier,
  CARRIER_CODES,
  CARRIER_SERVICES,
  type CarrierEnv,
} from '../../../src/modules/labels/carriers/registry.ts';
import { CARRIER_SERVICES as EXPORTED_SERVICES } from '../../../src/modules/labels/index.ts';
import type { Config } from '../../../src/platform/config.ts';
import type { Em } from '../../../src/platform/db/orm.ts';

const ACCOUNT: CarrierAccount = {
  id: 7,
  account_number: 'ACC-7',
  currency: 'EUR',
  test_mode: true,
  credentials: { api_key: 'secret-key-never-logged' },
};

/** An environment with a deadline of `timeoutMs` and a log whose lines are kept. */
function envOf(timeoutMs = 200) {
  const lines: Record<string, any>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const config = { labels: { carrierTimeoutMs: timeoutMs, rateTtlMinutes: 30, sandboxDaySeconds: 1 } };
  const env: CarrierEnv = { em: {} as Em, config: config as unknown as Config, log };
  return { env, lines };
}

/** An adapter whose rates call runs `rates`; nothing else of it is called here. */
const adapterWith = (rates: (call: CarrierCall) => Promise<never>) =>
  ({
    code: 'test_carrier',
    name: 'Test Carrier',
    services: [],
    formats: ['PDF'],
    previewable: true,
    credentials: z.object({}),
    rates,
  }) as unknown as CarrierAdapter;

describe('callCarrier', () => {
  test('an unexpected error thrown by the adapter is CARRIER_INTERNAL, not retryable, logged with its stack', async () => {
    const { env, lines } = envOf();
    const adapter = adapterWith(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'total')");
    });
    const caught = await callCarrier(env, adapter, ACCOUNT, (call) => adapter.rates(call, {} as never)).then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(caught instanceof CarrierError, String(caught));
    assert.deepEqual([caught.carrier, caught.code, caught.retryable], ['test_carrier', 'CARRIER_INTERNAL', false]);
    assert.equal(caught.message, 'The carrier call failed unexpectedly.');
    assert.doesNotMatch(caught.message, /reading 'total'/, "the adapter's own text stays in the log");
    const logged = lines.find((l) => l.msg === 'carrier call failed');
    assert.ok(logged, JSON.stringify(lines));
    assert.equal(logged.level, 50, 'error level');
    assert.equal(logged.carrier, 'test_carrier');
    assert.equal(logged.carrier_account_id, ACCOUNT.id);
    assert.match(logged.err.stack, /TypeError: Cannot read properties of undefined/);
    assert.ok(!JSON.stringify(lines).includes('secret-key-never-logged'), 'no credential in the log');
  });

  test("a thrown non-Error value is CARRIER_INTERNAL too; the carrier's own CarrierError passes unchanged", async () => {
    const { env } = envOf();
    const odd = adapterWith(() => Promise.reject('socket hang up'));
    await assert.rejects(
      callCarrier(env, odd, ACCOUNT, (call) => odd.rates(call, {} as never)),
      (err: unknown) => err instanceof CarrierError && err.code === 'CARRIER_INTERNAL',
    );
    const refusal = new CarrierError('test_carrier', 'ADDRESS_INVALID', 'No such street.');
    const refusing = adapterWith(() => Promise.reject(refusal));
    await assert.rejects(
      callCarrier(env, refusing, ACCOUNT, (call) => refusing.rates(call, {} as never)),
      (err: unknown) => err === refusal,
    );
  });

  test('a call past the deadline is TIMEOUT, retryable, and its signal is aborted', async () => {
    const { env } = envOf(50);
    let signal: AbortSignal | null = null;
    const slow = adapterWith(async (call) => {
      signal = call.signal;
      return new Promise<never>(() => undefined);
    });
    await assert.rejects(
      callCarrier(env, slow, ACCOUNT, (call) => slow.rates(call, {} as never)),
      (err: unknown) => err instanceof CarrierError && err.code === 'TIMEOUT' && err.retryable,
    );
    assert.equal((signal as AbortSignal | null)?.aborted, true);
  });

  test("an answer within the deadline is the adapter's answer", async () => {
    const { env } = envOf();
    assert.equal(
      await callCarrier(
        env,
        adapterWith(async () => undefined as never),
        ACCOUNT,
        async () => 42,
      ),
      42,
    );
  });
});

describe('the carriers registry', () => {
  test("each carrier's service codes are its adapter's, taken from the registry alone", () => {
    const { env } = envOf();
    assert.deepEqual(Object.keys(CARRIER_SERVICES), CARRIER_CODES);
    for (const code of CARRIER_CODES)
      assert.deepEqual(
        CARRIER_SERVICES[code],
        adapterFor(code, env).services.map((s) => s.code),
        code,
      );
    assert.deepEqual(EXPORTED_SERVICES, {
      sandbox_swift: ['swift_overnight', 'swift_express'],
      sandbox_parcel: ['parcel_ground', 'parcel_economy'],
    });
  });
});
