/**
 * The staff's ship-out operations (docs/customer-services.md, "Ship-outs"): price a ship-out of a service priced
 * later, the warehouse steps pick, pack and hand over (each judged by the ship-out's process), and the record of a
 * payment made outside the wallet. Scoped to the caller's business: another business's ship-out is NOT_FOUND.
 */
import { z } from 'zod';
import { pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { PROCESS_GONE, refusalOf } from '../../../platform/temporal/refusals.ts';
import { STAFF } from '../../../platform/roles.ts';
import { customerServiceSettings } from '../../customer-services/index.ts';
import { formatDecimal, minorDigits, parseDecimal } from '../../delivery-prices/index.ts';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { unwind } from '../activities.ts';
import {
  HAND_OVER_REFUSED,
  handOverUpdate,
  packUpdate,
  pickUpdate,
  SHIPOUT_WRONG_STATE,
  shipoutWorkflowId,
} from '../contract.ts';
import { fail } from '../errorCodes.ts';
import { recordPrice, setStatus, shipoutOf, type StoredPriceLine } from '../repo.ts';
import { ShipoutAnswer } from '../views.ts';
import { presentShipout } from './present.ts';
import { tellProcess } from './process.ts';
import type { shipoutWorkflow } from '../workflows.ts';
import { failPayment } from '../../wallet/index.ts';

const TAG = 'Ship-outs';
const SCOPE = 'For the business’s client admins and employees; a ship-out of another business is NOT_FOUND.';

async function shipoutOr404(ctx: BusinessContext, id: number) {
  const row = await shipoutOf(ctx.em, ctx.caller.businessId, id);
  if (!row) throw errors.notFound();
  return row;
}

const answer = async (ctx: BusinessContext, id: number) => ({
  result: true as const,
  shipout: await presentShipout(ctx, await shipoutOr404(ctx, id)),
});

const money = z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, 'a decimal string');

export const priceShipout = defineOperation({
  name: 'price_shipout',
  summary: 'Price a ship-out of a service priced later (method 2): it becomes payable.',
  description: `Only a ship-out \`awaiting_price\` (else SHIPOUT_WRONG_STATE). \`total\` is the price, tax included, in the business’s customer-services currency (a decimal string with at most its decimals); \`tax\` its tax (0 when absent); \`lines\` the price details, whose amounts with the tax add up to the total (one line “Ship-out” of total less tax when absent). The ship-out is then \`pending_payment\` (\`paid\` at once when the total is 0) and expires unpaid after the business’s unpaid expiry. ${SCOPE}`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/client/shipouts/{id}/price' },
  graphql: { name: 'priceShipout', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No such ship-out in the business',
    SHIPOUT_WRONG_STATE: 'The ship-out is not awaiting its price',
  },
  input: z
    .object({
      id: pathId,
      total: money.describe('The price, tax included'),
      tax: money.optional().describe('Its tax; 0 when absent'),
      lines: z
        .array(
          z
            .object({
              code: z.string().trim().min(1).max(32),
              description: z.string().trim().min(1).max(200),
              quantity: z.number().int().min(1).max(100_000),
              unit_amount: money,
              amount: money,
            })
            .strict(),
        )
        .min(1)
        .max(50)
        .optional()
        .describe('The price details; their amounts plus the tax make the total'),
    })
    .strict(),
  output: ShipoutAnswer,
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const settings = await customerServiceSettings(ctx.em, businessId);
    const status = await ctx.em.transactional(async (tx) => {
      const row = await shipoutOf(tx, businessId, input.id, { lock: true });
      if (!row) throw errors.notFound();
      if (row.status !== 'awaiting_price')
        throw fail('SHIPOUT_WRONG_STATE', 'shipouts.wrong_state', { status: row.status });
      const digits = minorDigits(row.currency);
      const parse = (field: string, text: string) => {
        const v = parseDecimal(text, digits);
        if (v === null) throw errors.field(field, 'shipouts.bad_amount', { digits });
        return v;
      };
      const total = parse('total', input.total);
      const tax = input.tax === undefined ? 0n : parse('tax', input.tax);
      if (tax > total) throw errors.field('tax', 'shipouts.lines_total', { sum: formatDecimal(tax, digits) });
      let details: StoredPriceLine[];
      if (input.lines) {
        const sum = input.lines.reduce((s, l, i) => s + parse(`lines.${i}.amount`, l.amount), 0n);
        if (sum + tax !== total)
          throw errors.field('lines', 'shipouts.lines_total', { sum: formatDecimal(sum + tax, digits) });
        details = input.lines.map((l) => ({ ...l, amount: formatDecimal(parse('lines', l.amount), digits) }));
      } else {
        const net = formatDecimal(total - tax, digits);
        details = [{ code: 'shipout', description: 'Ship-out', quantity: 1, unit_amount: net, amount: net }];
      }
      const next = total === 0n ? ('paid' as const) : ('pending_payment' as const);
      await recordPrice(tx, row.id, {
        total,
        tax,
        details,
        status: next,
        expiresAt: new Date(Date.now() + settings.unpaid_expiry_seconds * 1000),
      });
      return next;
    });
    await tellProcess(ctx, input.id, status);
    return answer(ctx, input.id);
  },
});

/** Sends a staff step to the process; a step its status does not allow is SHIPOUT_WRONG_STATE with the status. */
async function step(ctx: BusinessContext, id: number, update: typeof pickUpdate) {
  await shipoutOr404(ctx, id);
  try {
    await ctx.temporal.workflow
      .getHandle<typeof shipoutWorkflow>(shipoutWorkflowId(id))
      .executeUpdate(update, { args: [{ userId: ctx.caller.id }] });
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal === SHIPOUT_WRONG_STATE || refusal === PROCESS_GONE) {
      const row = await shipoutOr404(ctx, id);
      throw fail('SHIPOUT_WRONG_STATE', 'shipouts.wrong_state', { status: row.status });
    }
    if (refusal === HAND_OVER_REFUSED && err instanceof WorkflowUpdateFailedError) {
      const cause = err.cause as ApplicationFailure;
      const code = cause.details?.[0];
      if (code === 'NO_CARRIER_ACCOUNT') throw new AppError(409, 'NO_CARRIER_ACCOUNT', 'labels.no_carrier_account');
      throw new AppError(424, 'CARRIER_ERROR', 'shipouts.no_carrier_rate');
    }
    throw err;
  }
  return answer(ctx, id);
}

const stepOperation = (
  name: string,
  path: string,
  graphql: string,
  summary: string,
  description: string,
  update: typeof pickUpdate,
  failures: Record<string, string | true> = {},
) =>
  defineOperation({
    name,
    summary,
    description: `${description} ${SCOPE}`,
    tag: TAG,
    roles: STAFF,
    business: true,
    rest: { method: 'POST', path },
    graphql: { name: graphql, kind: 'mutation' },
    failures: {
      NOT_FOUND: 'No such ship-out in the business',
      SHIPOUT_WRONG_STATE: 'The ship-out’s status does not allow this step',
      ...failures,
    },
    input: z.object({ id: pathId }).strict(),
    output: ShipoutAnswer,
    async handler(input, ctx) {
      return step(ctx, input.id, update);
    },
  });

export const pickShipout = stepOperation(
  'pick_shipout',
  '/v1/client/shipouts/{id}/pick',
  'pickShipout',
  'The warehouse took the ship-out’s packages off the shelf: paid -> picked.',
  'Only a `paid` ship-out (else SHIPOUT_WRONG_STATE, with its status); it can no longer be cancelled.',
  pickUpdate,
);

export const packShipout = stepOperation(
  'pack_shipout',
  '/v1/client/shipouts/{id}/pack',
  'packShipout',
  'The warehouse packed the ship-out: picked -> packed.',
  'Only a `picked` ship-out (else SHIPOUT_WRONG_STATE, with its status).',
  packUpdate,
);

export const handOverShipout = stepOperation(
  'hand_over_shipout',
  '/v1/client/shipouts/{id}/hand-over',
  'handOverShipout',
  'The ship-out leaves: its outbound order is placed or its label bought, the wallet holds are taken.',
  'Only a `packed` ship-out (else SHIPOUT_WRONG_STATE). A service of the own fleet places a delivery order at the ship-out’s price (the price family storage_services); a carrier service buys the label of its carrier and service (once, key `tms:sho-<id>`; a carrier refusal leaves the label order in LABEL_PURCHASE_FAILED, bought again later by staff). The holds are posted (the money moves to the business), the packages are `shipped` and the ship-out `handed_over` with its `order`. NO_CARRIER_ACCOUNT or CARRIER_ERROR when the carrier cannot be rated; nothing changed then.',
  handOverUpdate,
  { NO_CARRIER_ACCOUNT: 'The service’s carrier is not connected', CARRIER_ERROR: 'The carrier gave no rate' },
);

export const settleShipoutOffline = defineOperation({
  name: 'settle_shipout_offline',
  summary: 'Record that a ship-out was paid outside the wallet: it is paid, and its holds are given back.',
  description: `For a \`pending_payment\` ship-out (SHIPOUT_NOT_PRICED while awaiting its price, NOTHING_DUE once paid, SHIPOUT_WRONG_STATE when cancelled or expired): any wallet hold on it is voided and it is \`paid\`, so the warehouse may pick it. The way to settle a ship-out of a customer whose storage prices are hidden. For the business’s client admins; a ship-out of another business is NOT_FOUND.`,
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/client/shipouts/{id}/settle-offline' },
  graphql: { name: 'settleShipoutOffline', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No such ship-out in the business',
    SHIPOUT_NOT_PRICED: true,
    NOTHING_DUE: 'The ship-out is paid',
    SHIPOUT_WRONG_STATE: 'The ship-out is cancelled or expired',
  },
  input: z.object({ id: pathId }).strict(),
  output: ShipoutAnswer,
  async handler(input, ctx) {
    await ctx.em.transactional(async (tx) => {
      const row = await shipoutOf(tx, ctx.caller.businessId, input.id, { lock: true });
      if (!row) throw errors.notFound();
      if (row.status === 'awaiting_price') throw fail('SHIPOUT_NOT_PRICED', 'shipouts.not_priced');
      if (row.status === 'cancelled' || row.status === 'expired')
        throw fail('SHIPOUT_WRONG_STATE', 'shipouts.wrong_state', { status: row.status });
      if (row.status !== 'pending_payment') throw failPayment('NOTHING_DUE', 'shipouts.nothing_due');
      await unwind(tx, { ...row, settled_offline: false }, { release: false });
      await setStatus(tx, row.id, 'paid', { settledOffline: true });
    });
    await tellProcess(ctx, input.id, 'paid');
    return answer(ctx, input.id);
  },
});

export const STAFF_OPERATIONS = [priceShipout, pickShipout, packShipout, handOverShipout, settleShipoutOffline];
