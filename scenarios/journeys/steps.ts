/** Steps several journeys take: an order, its hand-over to the carrier, the carrier's ingest key, places. */
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';

export interface Order {
  id: number;
  trackingNumber: string;
  packages: string[];
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** A delivery order of the business with packages of these weights, for the run's recipient. */
export async function createOrder(w: World, weights: number[]): Promise<Order> {
  const res = await w.api.call('POST', '/v1/client/orderCreate', {
    token: await w.token('admin'),
    body: {
      type: 'D',
      scheduled_date: tomorrow(),
      order_ref: `SCENARIO-${w.run}`,
      recipient: {
        name: 'Ada Scenario',
        email: w.recipient,
        address: { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' },
      },
      packages: weights.map((weight_grams) => ({ weight_grams })),
    },
  });
  const order = {
    id: res.body.order_id,
    trackingNumber: res.body.tracking_number,
    packages: res.body.packages.map((p: { package_number: string }) => p.package_number),
  };
  order.packages.forEach((p: string) => w.receiver.follow(p));
  w.journal.step(
    `order ${order.id} created with package${order.packages.length > 1 ? 's' : ''} ${order.packages.join(', ')}`,
  );
  if (res.body.third_party_assignment)
    throw new ScenarioError(
      `a third-party rule of the business took order ${order.id} (${res.body.third_party_assignment}); delete it (GET /api/v1/third-party-rules) and run the scenario again`,
    );
  return order;
}

/** Hands the order to the carrier: the assignment's number and the process it runs in. */
export async function assignToCarrier(
  w: World,
  order: Order,
  handoverDeadlineHours?: number,
): Promise<{ number: string; workflowId: string; deadline: string }> {
  const res = await w.api.call('POST', '/v1/third-party-assignments', {
    token: await w.token('admin'),
    body: {
      order_id: order.id,
      provider_code: w.accounts.carrierCode,
      ...(handoverDeadlineHours && { handover_deadline_hours: handoverDeadlineHours }),
    },
    expect: 201,
  });
  const a = res.body.assignment;
  w.receiver.follow(a.number);
  w.journal.step(
    `order ${order.id} handed to ${w.accounts.carrierCode}: assignment ${a.number}, ${a.status}, handover due by ${a.handover_deadline}`,
  );
  w.journal.workflow(a.workflow_id, `third-party delivery ${a.number}`);
  return { number: a.number, workflowId: a.workflow_id, deadline: a.handover_deadline };
}

/** The warehouse scans each package over to the carrier. */
export async function handOver(w: World, assignment: string, packages: string[]): Promise<void> {
  for (const p of packages) {
    w.journal.step(`warehouse scan: ${p} handed over to the carrier`);
    const res = await w.api.call('POST', `/v1/third-party-assignments/${assignment}/handovers`, {
      token: await w.token('admin'),
      body: { package_number: p, scanned_at: new Date().toISOString() },
    });
    w.journal.step(`assignment ${assignment} ${res.body.assignment.status}`);
  }
}

/** An OTEP ingest key of the carrier for this run, revoked when the world closes. */
export async function carrierIngestKey(w: World): Promise<string> {
  const carrier = await w.token('carrier');
  const credential = (
    await w.api.call('POST', '/v1/otep/credentials', {
      token: carrier,
      body: { name: `scenario ${w.run}` },
      expect: 201,
    })
  ).body.credential;
  w.defer(() => w.api.call('DELETE', `/v1/otep/credentials/${credential.key_id}`, { token: carrier }));
  return credential.secret;
}

/** Reads the assignment until `ok` holds of it. */
export async function assignmentWhen(
  w: World,
  number: string,
  what: string,
  ok: (a: any) => boolean,
  ms?: number,
): Promise<any> {
  const admin = await w.token('admin');
  return w.until(
    `assignment ${number} ${what}`,
    async () => {
      const a = (await w.api.call('GET', `/v1/third-party-assignments/${number}`, { token: admin })).body.assignment;
      return ok(a) && a;
    },
    ms,
  );
}
