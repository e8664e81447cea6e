/**
 * Orders handed to a third-party delivery provider: one of two packages delivered late (partial_delivered, then
 * delivered), and one the provider never takes (the deadline falls back to the business's own delivery).
 */
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';
import { assignmentWhen, assignToCarrier, carrierIngestKey, createOrder, handOver } from './steps.ts';

/** The order status id of a delivered order (docs/order-statuses.md). */
const DELIVERED = 3;

/** The longest the fallback scenario waits for a deadline: a service with business timers at full length fails fast. */
const LONGEST_DEADLINE_WAIT_MS = 5 * 60_000;

export async function twoPackagesOneLate(w: World): Promise<void> {
  await w.businessWebhooks();
  await w.providerWebhooks('carrier');
  const order = await createOrder(w, [1200, 800]);
  const [first, late] = order.packages as [string, string];
  const assignment = await assignToCarrier(w, order);
  await w.webhook('delivery.assignment.created', assignment.number);
  await handOver(w, assignment.number, [first, late]);
  await w.webhook('delivery.assignment.handed_over', assignment.number);

  // The provider's carrier has no multi-piece shipments: one leg, one carrier order, per package.
  const carrier = await w.token('carrier');
  for (const [i, p] of [first, late].entries()) {
    const leg = `CAR-${w.run}-${i + 1}`;
    await w.api.call('POST', `/v1/provider/third-party-assignments/${assignment.number}/legs`, {
      token: carrier,
      body: { carrier_order_number: leg, package_numbers: [p] },
      expect: 201,
    });
    w.journal.step(`the provider reports leg ${leg} with its carrier for ${p}`);
  }

  const key = await carrierIngestKey(w);
  const track = async (subject: string, status: string) => {
    w.journal.step(`OTEP ${status} for ${subject}`);
    const res = await w.api.call('POST', '/v1/otep/ingest', {
      token: key,
      body: {
        events: [
          {
            id: `${w.run}-${subject}-${status}`,
            subject,
            occurred_at: new Date().toISOString(),
            status_code: status,
            otep_version: '1.0.0',
            location: { city: 'Paris', country: 'FR' },
          },
        ],
      },
    });
    if (res.body.accepted !== 1)
      throw new ScenarioError(
        `the tracking event ${status} of ${subject} was not accepted: ${JSON.stringify(res.body)}`,
      );
  };
  await track(first, 'otep:core:in_transit');
  await track(late, 'otep:core:in_transit');
  await track(first, 'otep:core:delivered');
  const partial = await w.webhook('delivery.assignment.partial_delivered', assignment.number);
  const outcomes = (partial.body.data.packages as { tracking_number: string; outcome: string }[])
    .map((p) => `${p.tracking_number} ${p.outcome}`)
    .join(', ');
  w.journal.step(
    `partial delivery: ${outcomes}; legs ${(partial.body.data.legs as { carrier_order_number: string }[]).map((l) => l.carrier_order_number).join(', ')}`,
  );

  await track(late, 'otep:core:out_for_delivery');
  await track(late, 'otep:core:delivered');
  const done = await assignmentWhen(w, assignment.number, 'delivered', (a) => a.status === 'delivered');
  w.journal.step(`assignment ${done.number} ${done.status}`);
  await w.webhook('order.status_change', order.trackingNumber, { also: (b) => b.data?.after_status === DELIVERED });
  const admin = await w.token('admin');
  const status = (await w.api.call('GET', `/v1/orders/${order.id}`, { token: admin })).body.order.status;
  if (status !== 'DELIVERED') throw new ScenarioError(`order ${order.id} is ${status}, not DELIVERED`);
  w.journal.step(`order ${order.id} ${status}`);
}

export async function fallbackToSelfDelivery(w: World): Promise<void> {
  await w.providerWebhooks('carrier');
  const order = await createOrder(w, [500]);
  const assignment = await assignToCarrier(w, order, 1);
  await w.webhook('delivery.assignment.created', assignment.number);
  const wait = new Date(assignment.deadline).getTime() - Date.now();
  if (wait > LONGEST_DEADLINE_WAIT_MS) {
    throw new ScenarioError(
      `the handover deadline is ${Math.round(wait / 60_000)} minutes away: this service runs business timers at full length. ` +
        'Start it with HANDOVER_TIMER_SCALE=0.001, or give --url a free port and the runner starts one that does.',
    );
  }
  w.journal.step(`nobody hands the package over; the deadline passes at ${assignment.deadline}`);
  const cancelled = await w.webhook('delivery.assignment.cancelled', assignment.number, { ms: wait + 60_000 });
  const a = await assignmentWhen(w, assignment.number, 'cancelled', (x) => x.status === 'cancelled');
  w.journal.step(`assignment ${a.number} ${a.status}: ${cancelled.body.data.reason ?? a.cancel_reason}`);
  if (a.cancel_reason !== 'fallback_to_self_delivery')
    throw new ScenarioError(`assignment ${a.number} was cancelled for ${a.cancel_reason}`);
  const pool: { id: number }[] = (await w.api.call('GET', '/v1/planning/orders', { token: await w.token('admin') }))
    .body.orders;
  if (!pool.some((o) => o.id === order.id))
    throw new ScenarioError(`order ${order.id} is not back in the planning pool`);
  w.journal.step(`order ${order.id} is back in the business's planning pool`);
}
