/**
 * The route board (docs/routes.md, "The route board"): a route planned for a placeholder driver is offered to the
 * business's two contractors. The first claims its seat, the second waits on standby; the first withdraws and the
 * second is promoted; the business closes the board early, the seat is awarded, the contractor names its driver, and
 * the board settles at once. Every route_board.changed comes to the scenario's receiver.
 */
import { randomBytes } from 'node:crypto';
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';
import { createOrder } from './steps.ts';

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

/** A driver of the business made for this run, so that it has no route that day yet. */
async function newDriver(w: World, admin: string, name: string): Promise<number> {
  const res = await w.api.call('POST', '/v1/drivers', {
    token: admin,
    body: {
      name: `${name} ${w.run}`,
      email: `${name.toLowerCase()}.${w.run.toLowerCase()}@example.com`,
      password: randomBytes(12).toString('base64url'),
    },
    expect: 201,
  });
  const id = res.body.driver.id as number;
  w.journal.step(`driver ${name} ${w.run} (${id}) added`);
  return id;
}

export async function routeBoard(w: World): Promise<void> {
  const [first, second] = w.accounts.contractors ?? [];
  if (!first || !second) throw new ScenarioError('the route board scenario needs two contractor accounts');
  const admin = await w.token('admin');
  await w.routeBoardWebhooks();
  const placeholder = await newDriver(w, admin, 'Placeholder');
  const theirs = await newDriver(w, admin, 'Contractor');
  const order = await createOrder(w, [900]);
  const assigned = await w.api.call('POST', '/v1/dispatch/assign', {
    token: admin,
    body: { order_id: order.id, driver_id: placeholder },
  });
  const routeId: number = assigned.body.assignment.route_id;
  w.journal.step(`order ${order.id} on route ${routeId} of the placeholder driver`);

  const created = await w.api.call('POST', '/v1/route-boards', {
    token: admin,
    body: { route_date: tomorrow(), route_ids: [routeId], closes_at: inHours(1), settles_at: inHours(2) },
    expect: 201,
  });
  const board = created.body.board as { id: number; workflow_id: string; seats: { id: number }[] };
  const seat = board.seats[0]!.id;
  const about = `RBC-${board.id}.`;
  w.journal.step(`board ${board.id} offers route ${routeId} as seat ${seat} (workflow ${board.workflow_id})`);
  const event = (action: string) => w.webhook('route_board.changed', about, { also: (b) => b.data?.action === action });
  await event('board_opened');

  const [t1, t2] = [await w.api.login(first), await w.api.login(second)];
  const claim = async (token: string, who: string) => {
    const res = await w.api.call('POST', `/v1/route-boards/${board.id}/claims`, {
      token,
      body: { seat_id: seat },
      expect: 201,
    });
    w.journal.step(`${who} claims seat ${seat}: ${res.body.claim.status}, position ${res.body.claim.position}`);
    return res.body.claim.id as number;
  };
  const c1 = await claim(t1, 'the first contractor');
  const c2 = await claim(t2, 'the second contractor');
  await event('standby');
  await w.api.call('POST', `/v1/route-boards/${board.id}/claims/${c1}/withdraw`, { token: t1, expect: 200 });
  w.journal.step('the first contractor withdraws');
  await event('promoted');

  await w.api.call('POST', `/v1/route-boards/${board.id}/close`, { token: admin, expect: 200 });
  w.journal.step('the business closes the board early');
  await event('awarded');
  const named = await w.api.call('POST', `/v1/route-boards/${board.id}/claims/${c2}/assign`, {
    token: t2,
    body: { driver_id: theirs },
    expect: 200,
  });
  w.journal.step(`the second contractor names driver ${theirs}: ${named.body.claim.status}`);
  await event('settled');
  const route = await w.api.call('GET', `/v1/route-boards/${board.id}`, { token: admin });
  const s = route.body.board.seats[0];
  if (route.body.board.status !== 'settled' || s.route_driver_id !== theirs)
    throw new ScenarioError(`board ${board.id} is ${route.body.board.status}, its route's driver ${s.route_driver_id}`);
  w.journal.step(`board ${board.id} settled: route ${routeId} is driven by ${theirs}`);
}
