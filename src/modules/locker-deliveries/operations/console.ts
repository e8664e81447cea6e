/**
 * The business's side of partner deliveries into its lockers: its staff see them and confirm a deposit from the
 * console (confirmed_by console) when the courier could not.
 */
import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { confirmUpdate } from '../contract.ts';
import { LOCKER_DELIVERY_STATUSES } from '../domain.ts';
import { listLockerDeliveries } from '../repo/deliveries.ts';
import { DeliveryResult, loadDelivery, sendUpdate } from '../updates.ts';
import { LockerDeliveryView } from '../views.ts';

const TAG = 'Lockers';
const ADMIN = ['client_admin'] as const;
const NOT_FOUND = "No partner delivery into the business's lockers has this id";

export const lockerDeliveryConsoleList = defineOperation({
  name: 'locker_delivery_console_list',
  summary: "List the partner deliveries into the business's lockers, newest first; filter by status.",
  description:
    "The business's view of what partner providers deliver into its lockers, whichever provider made them, sandbox deliveries included. Paginated with `page` and `per_page` (at most 200), with `total`. A provider lists its own deliveries with locker_delivery_list.",
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'GET', path: '/v1/locker-deliveries' },
  input: z.object({ status: z.enum(LOCKER_DELIVERY_STATUSES).optional(), ...pageParams }).strict(),
  output: pageOutput('deliveries', LockerDeliveryView),
  async handler(input, ctx) {
    const { total, items } = await listLockerDeliveries(ctx.em, {
      owner: { businessId: ctx.caller.businessId },
      status: input.status,
      limit: input.per_page,
      offset: offsetOf(input),
    });
    return pageOf(input, 'deliveries', total, items);
  },
});

export const lockerDeliveryConsoleGet = defineOperation({
  name: 'locker_delivery_console_get',
  summary: "Read one partner delivery into the business's lockers.",
  description:
    "Answers what the provider sees: its status, locker, open mode, recipient, parcels with their compartments, what confirmed it and its expiry times; never a code. Refuses an id that is not a delivery into the business's lockers (NOT_FOUND), including deliveries of other businesses.",
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'GET', path: '/v1/locker-deliveries/{id}' },
  failures: { NOT_FOUND },
  input: z.object({ id: pathId }).strict(),
  output: DeliveryResult,
  async handler(input, ctx) {
    return {
      result: true as const,
      delivery: await loadDelivery(ctx, { businessId: ctx.caller.businessId }, input.id),
    };
  },
});

export const lockerDeliveryConsoleConfirm = defineOperation({
  name: 'locker_delivery_console_confirm',
  summary:
    "Confirm a partner's deposit from the console (confirmed_by console): the recipient's pickup code works from now on (event delivered).",
  description:
    'Use it when the courier put the parcels in but could not confirm (no screen, a "done" button not pressed) and the doors did not settle it. The recipient is mailed the pickup code and the provider gets `partner_locker.delivery.delivered`. Only a delivery that is `depositing` can be confirmed: one awaiting its deposit or already ended answers INVALID_TRANSITION; an id outside the business\'s lockers NOT_FOUND.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/locker-deliveries/{id}/confirm' },
  failures: { NOT_FOUND, INVALID_TRANSITION: 'No deposit under way' },
  input: z.object({ id: pathId }).strict(),
  output: DeliveryResult,
  handler: (input, ctx) =>
    sendUpdate(ctx, { businessId: ctx.caller.businessId }, input.id, 'confirm', (h) =>
      h.executeUpdate(confirmUpdate, { args: [{ by: 'console' }] }),
    ),
});
