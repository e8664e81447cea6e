/**
 * A partner locker provider delivers a parcel into a locker of the business: it opens the door remotely, the
 * courier deposits and closes it, and the recipient collects the parcel with the pickup code.
 *
 * Live, the scenario plays the locker (its door reports, with a device key of the run) and the recipient (the code
 * from the notice mailed to them). In sandbox mode it acts only as the provider, against a simulated locker that
 * reports its doors itself, and types the pickup code from the `delivered` event on the sandbox screen.
 */
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';

interface Locker {
  device_id: string;
  sandbox: boolean;
  free: Record<string, number>;
}

export async function partnerLocker(w: World, opts: { sandbox: boolean }): Promise<void> {
  const provider = await w.token('lockerProvider');
  await w.providerWebhooks('lockerProvider', { sandbox: opts.sandbox });
  const lockers: Locker[] = (await w.api.call('GET', '/v1/partner-locker/lockers', { token: provider })).body.lockers;
  const locker = lockers.find((l) => (opts.sandbox ? l.sandbox : l.device_id === w.accounts.locker));
  if (!locker)
    throw new ScenarioError(
      opts.sandbox
        ? 'the provider may deliver into no sandbox locker'
        : `the provider may not deliver into ${w.accounts.locker}`,
    );
  const size = ['M', 'S', 'L', 'XL'].find((s) => (locker.free[s] ?? 0) > 0);
  if (!size) throw new ScenarioError(`${locker.device_id} has no free compartment`);

  const created = await w.api.call('POST', '/v1/partner-locker/deliveries', {
    token: provider,
    expect: 201,
    body: {
      device_id: locker.device_id,
      parcels: [{ reference: `SCENARIO-${w.run}`, size }],
      recipient: { name: 'Ada Scenario', email: w.recipient },
      open_mode: 'remote_open',
    },
  });
  const delivery = created.body.delivery;
  const about = `"delivery_id":"${delivery.id}"`;
  w.receiver.follow(about);
  const door = delivery.parcels[0].compartment_number as number;
  w.journal.step(
    `delivery ${delivery.id} into ${locker.device_id}${opts.sandbox ? ' (sandbox)' : ''}: compartment ${delivery.parcels[0].pickup_locker_code ?? door} (${size}) reserved, ${delivery.status}`,
  );
  w.journal.workflow(`locker-delivery-${delivery.id}`, `partner locker delivery ${delivery.id}`);

  // The locker's own reports, with a key of its that lives as long as the run.
  let lockerKey = '';
  if (!opts.sandbox) {
    const admin = await w.token('admin');
    const key = (
      await w.api.call('POST', `/v1/devices/${locker.device_id}/keys`, {
        token: admin,
        body: { name: `scenario ${w.run}` },
        expect: 201,
      })
    ).body.key;
    w.defer(() => w.api.call('DELETE', `/v1/devices/${locker.device_id}/keys/${key.key_id}`, { token: admin }));
    lockerKey = key.secret;
  }
  const doorMoves = async (who: string) => {
    if (opts.sandbox) {
      w.journal.step(`${who}; the simulated locker reports the door opened and closed`);
      return;
    }
    for (const state of ['opened', 'closed']) {
      await w.api.call('POST', `/v1/lockers/${locker.device_id}/doors`, {
        token: lockerKey,
        body: { compartment_number: door, state, at: new Date().toISOString() },
      });
    }
    w.journal.step(`${who}; the locker reports door ${door} opened, then closed`);
  };

  const opened = await w.api.call('POST', `/v1/partner-locker/deliveries/${delivery.id}/open`, { token: provider });
  w.journal.step(`the provider opens the door remotely: ${opened.body.delivery.status}`);
  await w.webhook('partner_locker.delivery.doors_opened', about);
  await doorMoves('the courier deposits the parcel');
  const delivered = await w.webhook('partner_locker.delivery.delivered', about);
  w.journal.step(`deposit confirmed by ${delivered.body.data.confirmed_by}`);

  let code: string;
  if (opts.sandbox) {
    code = delivered.body.data.pickup_code;
    const pickup = await w.api.call('POST', `/v1/partner-locker/sandbox/${locker.device_id}/code`, {
      token: provider,
      body: { code },
    });
    w.journal.step(
      `the provider types the pickup code from the delivered event on the sandbox screen: opens ${pickup.body.opened}`,
    );
    await doorMoves('the recipient takes the parcel');
  } else {
    code = await w.pickupCode(w.recipient);
    const pickup = await w.api.call('POST', `/v1/lockers/${locker.device_id}/code`, {
      token: lockerKey,
      body: { code },
    });
    w.journal.step(`the recipient types the code from the mail on the locker's screen: opens ${pickup.body.opened}`);
    await doorMoves('the recipient takes the parcel');
  }
  await w.webhook('partner_locker.pickup.completed', about);
  const final = (await w.api.call('GET', `/v1/partner-locker/deliveries/${delivery.id}`, { token: provider })).body
    .delivery;
  if (final.status !== 'picked_up')
    throw new ScenarioError(`delivery ${delivery.id} ended ${final.status}, not picked_up`);
  w.journal.step(`delivery ${delivery.id} ${final.status}`);
}
