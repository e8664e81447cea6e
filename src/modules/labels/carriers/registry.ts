/**
 * Carrier code to adapter (docs/labels.md, "Carriers behind one interface"), and the one way to call a carrier:
 * under a deadline, with anything thrown turned into a CarrierError, so no carrier failure reaches a caller as a
 * server error. Adding a carrier is one entry in CARRIERS (its provider code, its services and its adapter) and its
 * provider business in a migration; everything else, CARRIER_SERVICES included, is derived from the entries.
 */
import type { Config } from '../../../platform/config.ts';
import type { Em } from '../../../platform/db/orm.ts';
import type { Logger } from '../../../platform/logger.ts';
import { StopsAtWorkflow } from '../../../platform/catalog/dryRun.ts';
import {
  CarrierError,
  type CarrierAccount,
  type CarrierAdapter,
  type CarrierCall,
  type CarrierService,
} from './adapter.ts';
import { sandboxAdapter, sandboxServices } from './sandbox/adapter.ts';
import { SANDBOX_PARCEL, SANDBOX_SWIFT } from './sandbox/tariffs.ts';

/** What an adapter may use: the database (the sandbox's own ledger), the configuration and the log. */
export interface CarrierEnv {
  em: Em;
  config: Config;
  log: Logger;
  /** An MCP dry run (an operation's context says so): only a previewable adapter is called. */
  dryRun?: boolean;
}

interface CarrierEntry {
  /** The code of its provider business: a label order's carrier_provider_id, its tracking events' ingest identity. */
  providerCode: string;
  /** Its adapter's services, known without a connection (a module names a carrier service ahead of any rate). */
  services: readonly CarrierService[];
  adapter: (env: CarrierEnv) => CarrierAdapter;
}

const CARRIERS = {
  sandbox_swift: {
    providerCode: 'SANDBOX-SWIFT',
    services: sandboxServices(SANDBOX_SWIFT),
    adapter: (env) => sandboxAdapter(SANDBOX_SWIFT, { em: env.em, daySeconds: env.config.labels.sandboxDaySeconds }),
  },
  sandbox_parcel: {
    providerCode: 'SANDBOX-PARCEL',
    services: sandboxServices(SANDBOX_PARCEL),
    adapter: (env) => sandboxAdapter(SANDBOX_PARCEL, { em: env.em, daySeconds: env.config.labels.sandboxDaySeconds }),
  },
} satisfies Record<string, CarrierEntry>;

export type CarrierCode = keyof typeof CARRIERS;
export const CARRIER_CODES = Object.keys(CARRIERS) as [CarrierCode, ...CarrierCode[]];

export const isCarrierCode = (code: string): code is CarrierCode => Object.hasOwn(CARRIERS, code);

export function adapterFor(code: string, env: CarrierEnv): CarrierAdapter {
  if (!isCarrierCode(code)) throw new Error(`no carrier ${code}`);
  return CARRIERS[code].adapter(env);
}

export const providerCodeOf = (code: CarrierCode): string => CARRIERS[code].providerCode;

/** Each carrier's service codes, from its registry entry: a new carrier's entry is the only change they need. */
export const CARRIER_SERVICES: Readonly<Record<CarrierCode, readonly string[]>> = Object.fromEntries(
  CARRIER_CODES.map((code) => [code, CARRIERS[code].services.map((s) => s.code)]),
) as Record<CarrierCode, string[]>;

/**
 * Runs one carrier call under the deadline (LABEL_CARRIER_TIMEOUT_MS): past it the call's signal aborts and the
 * answer is TIMEOUT (retryable); a CarrierError passes as it is; anything else thrown is CARRIER_INTERNAL, logged
 * with its stack. The account's credentials are in the call only, never in the log.
 */
export async function callCarrier<T>(
  env: CarrierEnv,
  adapter: CarrierAdapter,
  account: CarrierAccount,
  run: (call: CarrierCall) => Promise<T>,
): Promise<T> {
  if (env.dryRun && !adapter.previewable) throw new StopsAtWorkflow('call', `carrier ${adapter.code}`);
  const controller = new AbortController();
  const log = env.log.child({ carrier: adapter.code, carrier_account_id: account.id });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new CarrierError(adapter.code, 'TIMEOUT', 'The carrier did not answer in time.', true));
    }, env.config.labels.carrierTimeoutMs);
  });
  try {
    return await Promise.race([run({ account, signal: controller.signal, log }), deadline]);
  } catch (err) {
    if (err instanceof CarrierError) throw err;
    log.error({ err }, 'carrier call failed');
    throw new CarrierError(adapter.code, 'CARRIER_INTERNAL', 'The carrier call failed unexpectedly.');
  } finally {
    clearTimeout(timer);
  }
}
