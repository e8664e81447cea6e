import type { Em } from '../../platform/db/orm.ts';
import {
  claimAttempt,
  deliveryStates,
  deliveryUrls,
  recordAttempts,
  type AttemptOutcome,
  type AttemptRecord,
  type NewDelivery,
  type PreparedEvent,
} from './repo/deliveries.ts';
import type { AttemptResult } from './contract.ts';
import type { OriginSlots } from './originSlots.ts';
import { postOutbound, REQUEST_TIMEOUT_MS } from './outbound.ts';
import { eachInPool } from './pool.ts';
import { buildRequest } from './request.ts';
import { sha256 } from './signing.ts';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { webhookAttemptDuration, webhookAttempts } from '../../platform/telemetry/metrics.ts';
import { inSpan } from '../../platform/telemetry/tracing.ts';

/** Attempts under way at once, for the relay's first attempts and for each batch of retries. */
export const ATTEMPTS_IN_FLIGHT = 32;
/** Signature headers are proofs, not secrets, but the log keeps only what explains a delivery. */
const LOGGED_HEADERS =
  /^(content-type|x-webhook-(event-id|id|delivery-id|timestamp|key-id|content-digest|test)|x-ohp-(event|delivery|timestamp)|webhook-id|webhook-timestamp|ce-.*|traceparent)$/i;

/** What every attempt needs besides its delivery: where the catalog is published, and the target policy. */
export interface SendOptions {
  publicBaseUrl: string;
  allowPrivateTargets: boolean;
}

export interface DeliverDeps extends SendOptions {
  em: Em;
  /** Seconds an attempt's lease lasts beyond the request timeout: a crashed attempt holds its delivery this long. */
  leaseMarginSec: number;
  /** The per-origin bound on retry POSTs under way, shared by every worker. */
  slots: OriginSlots;
}

/**
 * Signs and sends one attempt of a delivery (claimed, or not yet written); the caller writes what it did. The POST
 * is a span of the event's trace, and its `traceparent` header names that span.
 */
export function sendAttempt(
  d: NewDelivery,
  attempt: number,
  prepared: PreparedEvent,
  opts: SendOptions,
): Promise<AttemptOutcome> {
  const attributes = {
    'tms.delivery_key': d.delivery_key,
    'tms.event_type': d.event_type,
    'tms.attempt': attempt,
    'server.address': hostOf(d.url),
  };
  return inSpan(
    'webhook POST',
    { parent: prepared.traceParent, kind: SpanKind.CLIENT, attributes },
    async (span, traceParent) => {
      const outcome = await signAndPost(d, attempt, prepared, opts, traceParent);
      span.setAttribute('http.response.status_code', outcome.responseStatus ?? 0);
      if (outcome.outcome !== 'delivered')
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? `HTTP ${outcome.responseStatus}` });
      webhookAttempts.inc({ outcome: outcome.outcome, kind: attempt === 1 ? 'first' : 'retry' });
      webhookAttemptDuration.observe(outcome.latencyMs / 1000);
      return outcome;
    },
  );
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

async function signAndPost(
  d: NewDelivery,
  attempt: number,
  { payload, eventBusinessId, keys }: PreparedEvent,
  opts: SendOptions,
  traceParent: string | null,
): Promise<AttemptOutcome> {
  let status: number | null = null;
  let error: string | null = 'the receiver has no signing secret';
  let headers: Record<string, string> = {};
  let body = '';
  const started = performance.now();
  const attemptedAt = Date.now();
  if (keys?.secrets.length) {
    ({ headers, body } = buildRequest(
      {
        sender: d.sender,
        deliveryKey: d.delivery_key,
        businessId: eventBusinessId,
        eventType: d.event_type,
        referenceType: d.reference_type,
        referenceId: d.reference_id,
        format: d.format,
        standardWebhooks: d.standard_webhooks,
        payload,
      },
      keys,
      attempt,
      Math.floor(Date.now() / 1000),
      opts.publicBaseUrl,
    ));
    if (traceParent) headers.traceparent = traceParent;
    ({ status, error } = await postOutbound(d.url, headers, body, { allowPrivate: opts.allowPrivateTargets }));
  }
  const ok = status !== null && status >= 200 && status < 300;
  return {
    attempt,
    url: d.url,
    requestHeaders: Object.fromEntries(
      Object.entries(headers)
        .filter(([k]) => LOGGED_HEADERS.test(k))
        .map(([k, v]) => [k.toLowerCase(), v]),
    ),
    bodySha256: sha256(body).toString('hex'),
    bodyBytes: Buffer.byteLength(body),
    responseStatus: status,
    latencyMs: Math.round(performance.now() - started),
    attemptedAt,
    error,
    outcome: ok ? 'delivered' : attempt >= d.max_attempts ? 'dead' : 'retrying',
  };
}

/** Retry POSTs under way to one origin at most, across every worker, and how long a batch waits for a slot before deferring. */
export const RETRIES_PER_ORIGIN = 32;
const ORIGIN_WAIT_MS = 10_000;

/**
 * Makes the next attempt of each delivery (at its `notBefore` time at the earliest, then a slot for its receiver's
 * origin, claim, sign anew, POST; 32 under way at once) and logs them in one write. Only a 2xx answer counts.
 * A delivery not attempted is reported as it stands: finished; `leased` while a lease a crashed attempt left
 * behind has not ended; `busy` when its origin had no free slot in time.
 */
export async function attemptDeliveries(
  deps: DeliverDeps,
  deliveryIds: number[],
  notBefore: Record<number, number> = {},
): Promise<Record<number, AttemptResult>> {
  const records: AttemptRecord[] = [];
  const unclaimed: number[] = [];
  const results: Record<number, AttemptResult> = {};
  const urls = await deliveryUrls(deps.em, deliveryIds);
  await eachInPool(deliveryIds, ATTEMPTS_IN_FLIGHT, async (id) => {
    const url = urls.get(id);
    if (url === undefined) return;
    // Due a moment later than the round began (ids come in due order): wait for it, so that no retry goes early.
    const wait = (notBefore[id] ?? 0) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const origin = new URL(url).origin;
    if (!(await deps.slots.acquire(origin, ORIGIN_WAIT_MS))) {
      results[id] = { state: 'busy', attempts: 0, attemptedAt: null };
      return;
    }
    try {
      const claimed = await claimAttempt(deps.em, id, REQUEST_TIMEOUT_MS / 1000 + deps.leaseMarginSec);
      if (claimed)
        records.push({ deliveryId: id, ...(await sendAttempt(claimed.delivery, claimed.attempt, claimed, deps)) });
      else unclaimed.push(id);
    } finally {
      deps.slots.release(origin);
    }
  });
  await recordAttempts(deps.em, records);
  for (const r of records)
    results[r.deliveryId] = { state: r.outcome, attempts: r.attempt, attemptedAt: r.attemptedAt };
  for (const row of await deliveryStates(deps.em, unclaimed)) {
    const open = row.status === 'pending' || row.status === 'retrying';
    results[row.id] = { state: open && row.leased ? 'leased' : row.status, attempts: row.attempts, attemptedAt: null };
  }
  // A delivery that no longer exists (pruned) has nothing left to attempt.
  for (const id of deliveryIds) results[id] ??= { state: 'dead', attempts: 0, attemptedAt: null };
  return results;
}
