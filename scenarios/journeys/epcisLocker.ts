/**
 * A carrier's scanners take a package from its receiving at the business's warehouse to a locker compartment, one
 * GS1 EPCIS 2.0 document per scan; the recipient gets the pickup code by mail and collects the parcel with it.
 */
import { randomUUID } from 'node:crypto';
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';
import { assignToCarrier, carrierIngestKey, createOrder, handOver } from './steps.ts';

interface Place {
  code: string;
  identifier: string;
}

/** The business's warehouse and a place for its locker, created when missing. */
async function places(w: World): Promise<{ warehouse: Place; locker: Place }> {
  const admin = await w.token('admin');
  const list = async (kind: string): Promise<(Place & { device_id: string | null })[]> =>
    (await w.api.call('GET', `/v1/places?kind=${kind}`, { token: admin })).body.places;
  const create = async (body: Record<string, string>): Promise<Place> => {
    const place = (await w.api.call('POST', '/v1/places', { token: admin, body, expect: 201 })).body.place;
    w.journal.step(`place ${place.code} (${body.kind}) created: ${place.identifier}`);
    return place;
  };
  const warehouse =
    (await list('warehouse'))[0] ??
    (await create({ kind: 'warehouse', code: 'SCENARIO-WH', name: 'Scenario warehouse' }));
  const locker =
    (await list('locker')).find((p) => p.device_id === w.accounts.locker) ??
    (await create({
      kind: 'locker',
      code: `SCENARIO-${w.accounts.locker}`.slice(0, 40),
      name: `Locker ${w.accounts.locker}`,
      device_id: w.accounts.locker,
    }));
  return { warehouse, locker };
}

/** The carrier delivers through the business's network: a supplier account, opened when missing. */
async function supplierAccount(w: World): Promise<void> {
  const admin = await w.token('admin');
  const accounts: { carrier_code: string; ended_at: string | null }[] = (
    await w.api.call('GET', '/v1/carrier-supplier-accounts', { token: admin })
  ).body.accounts;
  if (accounts.some((a) => a.carrier_code === w.accounts.carrierCode && a.ended_at === null)) return;
  await w.api.call('POST', '/v1/carrier-supplier-accounts', {
    token: admin,
    body: { carrier_code: w.accounts.carrierCode, member_number: `M-${w.run}` },
    expect: 201,
  });
  w.journal.step(`supplier account opened for ${w.accounts.carrierCode}`);
}

/** A compartment of a locker place: an SGLN's extension, or a third segment of our URN. */
const compartment = (locker: Place, grid: string) =>
  locker.identifier.startsWith('urn:epc:id:sgln:')
    ? locker.identifier.replace(/\.0$/, `.${grid}`)
    : `${locker.identifier}:${grid}`;

export async function epcisLocker(w: World): Promise<void> {
  await w.businessWebhooks();
  await w.providerWebhooks('carrier');
  const { warehouse, locker } = await places(w);
  await supplierAccount(w);
  const order = await createOrder(w, [900]);
  const [parcel] = order.packages as [string];
  const assignment = await assignToCarrier(w, order);
  await handOver(w, assignment.number, [parcel]);
  const key = await carrierIngestKey(w);
  const admin = await w.token('admin');
  const distribution = async () => {
    const res = await w.api.call('GET', `/v1/distribution/packages/${parcel}`, { token: admin, expect: [200, 404] });
    return res.status === 200 ? res.body : null;
  };

  /** One scan of the carrier's, sent as an EPCIS document of one ObjectEvent. */
  const scan = async (bizStep: string, disposition: string, at: string, where: string) => {
    w.journal.step(`EPCIS ${bizStep} ${where}`);
    const document = {
      '@context': ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld'],
      type: 'EPCISDocument',
      schemaVersion: '2.0',
      creationDate: new Date().toISOString(),
      epcisBody: {
        eventList: [
          {
            type: 'ObjectEvent',
            eventID: `urn:uuid:${randomUUID()}`,
            eventTime: new Date().toISOString(),
            eventTimeZoneOffset: '+00:00',
            action: 'OBSERVE',
            epcList: [`urn:otep:tracking:${parcel}`],
            bizStep,
            disposition,
            readPoint: { id: at },
          },
        ],
      },
    };
    const res = await w.api.call('POST', '/v1/otep/ingest/epcis', { token: key, body: document });
    if (res.body.accepted !== 1)
      throw new ScenarioError(`the EPCIS ${bizStep} event was not accepted: ${JSON.stringify(res.body)}`);
  };
  const reaches = async (status: string, scans: number) => {
    const d = await w.until(`package ${parcel} ${status}`, async () => {
      const body = await distribution();
      return body?.scans?.length >= scans && body;
    });
    w.journal.workflow(d.distribution.workflow_id, `distribution of ${parcel}`);
    const last = d.scans.at(-1);
    if (last.outcome !== 'applied' || d.distribution.status !== status)
      throw new ScenarioError(
        `package ${parcel}: expected ${status}, got ${d.distribution.status} (last scan ${last.outcome} ${last.flag ?? ''})`,
      );
    w.journal.step(
      `package ${parcel} ${status}${d.distribution.location.grid_code ? ` in compartment ${d.distribution.location.grid_code}` : ''}`,
    );
    return d.distribution;
  };

  await scan('receiving', 'in_progress', warehouse.identifier, `at ${warehouse.code}`);
  await reaches('created', 1);
  await scan('departing', 'in_transit', warehouse.identifier, `from ${warehouse.code}`);
  await reaches('in_transit', 2);
  await scan('arriving', 'in_progress', locker.identifier, `at ${locker.code}`);
  await reaches('delivered', 3);
  // Stocked into the first compartment that is free: the courier tries the next when one holds another parcel.
  let shelved;
  for (let n = 1, scans = 4; !shelved && n <= 24; n++, scans++) {
    const grid = `A${String(n).padStart(2, '0')}`;
    await scan('stocking', 'sellable_accessible', compartment(locker, grid), `at ${locker.code}, compartment ${grid}`);
    const d = await w.until(`the stocking scan of ${parcel}`, async () => {
      const body = await distribution();
      return body && body.scans.length >= scans && body;
    });
    if (d.scans.at(-1).flag === 'compartment_occupied')
      w.journal.step(`compartment ${grid} holds another parcel: flagged, not applied`);
    else shelved = await reaches('shelved', scans);
  }
  if (!shelved) throw new ScenarioError(`no free compartment in ${locker.code}`);
  for (const step of ['created', 'loaded', 'delivered', 'shelved'])
    await w.webhook(`carrier_package.distribution.${step}`, parcel);
  w.journal.workflow(
    `device-order-${shelved.device_order_id}`,
    `device order ${shelved.device_order_id} of the compartment`,
  );
  await w.webhook('device_order.stored', parcel);

  const code = await w.pickupCode(w.recipient);
  const collected = await w.api.call('POST', `/v1/device-orders/${shelved.device_order_id}/collect`, {
    token: admin,
    body: { pickup_code: code },
  });
  w.journal.step(
    `the recipient collects ${parcel} with the code from the mail: device order ${collected.body.device_order.status}`,
  );
  await w.webhook('device_order.collected', parcel);
}
