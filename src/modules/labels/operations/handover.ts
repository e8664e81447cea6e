/**
 * Handing labels to the carriers (docs/labels.md, "submitShippingInformation", "endofday"): submitting their data,
 * and the end of day that puts every open label of a carrier account on one manifest. Carriers are called outside any
 * transaction; each outcome is written in one transaction of its own, and the labels' tracking processes are told.
 */
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { errors, type FieldError } from '../../../platform/errors.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { dateParam, eachOnce, pathId } from '../../../platform/catalog/schemas.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { CarrierError, type CarrierLabelRef } from '../carriers/adapter.ts';
import { adapterFor, callCarrier, CARRIER_CODES } from '../carriers/registry.ts';
import { carrierKeyOf } from '../domain.ts';
import { accountById, openAccount } from '../repo/accounts.ts';
import {
  labelOrdersOf,
  markManifested,
  markSubmitted,
  openLabelOrders,
  orderIdsByNumbers,
  type LabelOrderRow,
} from '../repo/labelOrders.ts';
import { endOfDayBusiness, insertManifest, manifestOf, withEndOfDayLock, type ManifestRow } from '../repo/manifests.ts';
import { orderFactsOf } from '../repo/orderFacts.ts';
import { signalHandedOver, tellProcess } from '../trackingProcess.ts';
import { CarrierErrorView } from '../views.ts';
import type { LabelEnv } from './purchase.ts';

const TAG = 'Labels';
const MAX_ITEMS = 500;

/** What a carrier is told of a label: its shipment and numbers, and the key it was bought with. */
const refOf = (row: LabelOrderRow): CarrierLabelRef => ({
  carrier_shipment_id: row.carrier_shipment_id ?? '',
  tracking_numbers: row.carrier_tracking_numbers,
  idempotency_key: carrierKeyOf(row.order_id, row.attempt),
});

/** Label orders by carrier account, in the order given. */
function byAccount(rows: readonly LabelOrderRow[]): Map<number, LabelOrderRow[]> {
  const groups = new Map<number, LabelOrderRow[]>();
  for (const row of rows) groups.set(row.carrier_account_id, [...(groups.get(row.carrier_account_id) ?? []), row]);
  return groups;
}

async function openedAccount(env: LabelEnv, businessId: number, accountId: number) {
  const account = await accountById(env.em, businessId, accountId);
  // A disconnected account's labels are still handed over (docs/labels.md, "Carrier accounts").
  if (!account) throw new Error(`label orders of business ${businessId} name no carrier account ${accountId}`);
  return account;
}

const carrierErrorOf = (err: CarrierError) => ({
  carrier: err.carrier,
  code: err.code,
  message: err.message,
  retryable: err.retryable,
});

// ---------------------------------------------------------------------------------------------------------------
// submitShippingInformation

const SubmitItem = z.union([
  z.object({
    order_id: z.number().int(),
    result: z.literal(true),
    state: z
      .enum(['submitted', 'manifested'])
      .describe('The label’s state now: submitted (its data is with the carrier) or manifested'),
  }),
  z.object({
    order_id: z.number().int(),
    result: z.literal(false),
    code: z
      .enum(['NO_LABEL', 'LABEL_VOIDED', 'NOT_A_LABEL_ORDER', 'CARRIER_ERROR'])
      .describe('Why this order’s label was not submitted'),
    message: z.string(),
    carrier_error: CarrierErrorView.optional().describe('With CARRIER_ERROR: the carrier’s own code and message'),
  }),
]);
type SubmitItem = z.input<typeof SubmitItem>;

export const SubmitAnswer = z.object({
  result: z.literal(true),
  results: z.array(SubmitItem).describe('One per order named, in the order given'),
});
export type SubmitAnswer = z.input<typeof SubmitAnswer>;

const SubmitInput = z
  .object({
    order_ids: eachOnce(
      z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(MAX_ITEMS),
      'labels.duplicate_order',
    )
      .optional()
      .describe(`The label orders, 1 to ${MAX_ITEMS}, each once; or give tracking_numbers`),
    tracking_numbers: eachOnce(
      z.array(z.string().trim().min(1).max(64)).min(1).max(MAX_ITEMS),
      'labels.duplicate_number',
    )
      .optional()
      .describe('Their tracking numbers (the order’s, a package’s or a carrier’s), each once; or give order_ids'),
  })
  .strict();
type SubmitInput = z.output<typeof SubmitInput>;

/** The orders a submit names, in its order; 422 on each one the business does not have. */
async function namedOrders(ctx: BusinessContext, input: SubmitInput): Promise<number[]> {
  if ((input.order_ids === undefined) === (input.tracking_numbers === undefined))
    throw errors.field(input.order_ids === undefined ? 'order_ids' : 'tracking_numbers', 'labels.orders_or_numbers');
  const businessId = ctx.caller.businessId;
  if (input.order_ids) {
    const known = new Set((await orderFactsOf(ctx.em, businessId, input.order_ids)).map((o) => o.id));
    const unknown: FieldError[] = input.order_ids.flatMap((id, i) =>
      known.has(id) ? [] : [{ field: `order_ids.${i}`, key: 'labels.unknown_order' as const }],
    );
    if (unknown.length > 0) throw errors.validation(unknown);
    return input.order_ids;
  }
  const numbers = input.tracking_numbers!;
  const ids = await orderIdsByNumbers(ctx.em, businessId, numbers);
  const unknown: FieldError[] = numbers.flatMap((n, i) =>
    ids.has(n) ? [] : [{ field: `tracking_numbers.${i}`, key: 'labels.unknown_number' as const }],
  );
  if (unknown.length > 0) throw errors.validation(unknown);
  // Two numbers of one order (its own and a parcel's) name it once.
  return [...new Set(numbers.map((n) => ids.get(n)!))];
}

/** The item of a label not to be submitted now: handed over already (true), or why it cannot be. */
function settledItem(ctx: BusinessContext, orderId: number, row: LabelOrderRow | undefined): SubmitItem | null {
  const refused = (code: 'NO_LABEL' | 'LABEL_VOIDED' | 'NOT_A_LABEL_ORDER', key: Parameters<typeof translate>[0]) => ({
    order_id: orderId,
    result: false as const,
    code,
    message: translate(key, ctx.lang),
  });
  if (!row) return refused('NOT_A_LABEL_ORDER', 'labels.not_a_label_order');
  switch (row.state) {
    case 'pending':
    case 'failed':
      return refused('NO_LABEL', 'labels.no_label');
    case 'voided':
      return refused('LABEL_VOIDED', 'labels.voided');
    case 'submitted':
    case 'manifested':
      return { order_id: orderId, result: true, state: row.state };
    case 'purchased':
      return null;
  }
}

/**
 * Sends the data of the named purchased labels to their carriers, one call per carrier account, and marks them
 * submitted; their tracking processes are told that the carrier has them. Labels handed over already call no
 * carrier. Answers one item per order.
 */
export async function submitShippingInformation(ctx: BusinessContext, input: SubmitInput): Promise<SubmitAnswer> {
  const businessId = ctx.caller.businessId;
  const orderIds = await namedOrders(ctx, input);
  const rows = new Map((await labelOrdersOf(ctx.em, businessId, orderIds)).map((r) => [r.order_id, r]));
  const items = new Map<number, SubmitItem>();
  const toSubmit: LabelOrderRow[] = [];
  for (const id of orderIds) {
    const item = settledItem(ctx, id, rows.get(id));
    if (item) items.set(id, item);
    else toSubmit.push(rows.get(id)!);
  }
  for (const [accountId, labels] of byAccount(toSubmit)) {
    const account = await openedAccount(ctx, businessId, accountId);
    const adapter = adapterFor(account.carrier, ctx);
    try {
      await callCarrier(ctx, adapter, openAccount(account), (call) => adapter.submit(call, labels.map(refOf)));
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err;
      const message = translate('labels.submit_refused', ctx.lang, { code: err.code, message: err.message });
      for (const l of labels)
        items.set(l.order_id, {
          order_id: l.order_id,
          result: false,
          code: 'CARRIER_ERROR',
          message,
          carrier_error: carrierErrorOf(err),
        });
      continue;
    }
    // One statement: the labels still purchased become submitted, once, whatever call moved another meanwhile.
    const moved = await markSubmitted(
      ctx.em,
      labels.map((l) => l.order_id),
    );
    for (const m of moved)
      await tellProcess(ctx.log, 'handed over', () =>
        signalHandedOver(
          ctx.temporal,
          { orderId: m.order_id, businessId: ctx.caller.businessId },
          new Date(m.submitted_at),
        ),
      );
    for (const m of moved) items.set(m.order_id, { order_id: m.order_id, result: true, state: 'submitted' });
    // A label another call moved meanwhile (submitted, manifested, voided) is answered as it is now.
    const others = labels.filter((l) => !items.has(l.order_id)).map((l) => l.order_id);
    if (others.length === 0) continue;
    for (const now of await labelOrdersOf(ctx.em, businessId, others))
      items.set(
        now.order_id,
        settledItem(ctx, now.order_id, now) ?? { order_id: now.order_id, result: true, state: 'submitted' },
      );
  }
  return { result: true as const, results: orderIds.map((id) => items.get(id)!) };
}

export const labelSubmitShippingInformation = defineOperation({
  name: 'labelservice_submit_shipping_information',
  summary: 'Send the data of purchased labels to their carriers: each label becomes submitted.',
  description: `Names up to ${MAX_ITEMS} label orders by \`order_ids\` or by \`tracking_numbers\` (exactly one of the two; a tracking number is the order’s, a package’s or a carrier’s). The purchased labels among them are sent to their carriers, one call per carrier account, and become \`submitted\`: the carrier has their data, and each parcel’s tracking starts (its journey is told from now). The answer has one item per order, in the order given: \`{order_id, result: true, state}\` for a label submitted now or handed over before (submitted or manifested: no carrier is called again), or \`{order_id, result: false, code, message}\` with NO_LABEL (its purchase is pending or failed), LABEL_VOIDED, NOT_A_LABEL_ORDER (a local delivery order), or CARRIER_ERROR with the carrier’s \`carrier_error\` (the labels of that account stay purchased; submitting them again is safe). An order the business does not have refuses the whole call: VALIDATION_FAILED on \`order_ids.<i>\` (or \`tracking_numbers.<i>\`). A submitted label can still be voided until the end of day manifests it.`,
  tag: TAG,
  roles: [...STAFF],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/submitShippingInformation' },
  graphql: { name: 'labelserviceSubmitShippingInformation', kind: 'mutation' },
  mcp: { scope: 'labels:write', risk: 'high', tool: 'submit_shipping_information' },
  input: SubmitInput,
  output: SubmitAnswer,
  handler: (input, ctx) => submitShippingInformation(ctx, input),
});

// ---------------------------------------------------------------------------------------------------------------
// endofday

export const ManifestView = z.object({
  manifest_id: z.number().int().describe('Read it again with labelservice_manifest'),
  carrier: z.string(),
  carrier_name: z.string(),
  carrier_account_id: z.number().int(),
  carrier_manifest_id: z.string().describe('The carrier’s id of the manifest, printed as its barcode'),
  ship_date: z.string().describe('YYYY-MM-DD'),
  order_ids: z.array(z.number().int()).describe('The label orders on it, ascending'),
  created_at: z.string(),
  media_type: z.literal('application/pdf'),
  document_base64: z.string().describe('The manifest document (PDF) the carrier’s driver signs and scans'),
});
export type ManifestView = z.input<typeof ManifestView>;

const EndOfDayCarrierError = CarrierErrorView.extend({
  carrier_account_id: z.number().int(),
  order_ids: z.array(z.number().int()).describe('Its open labels, which stay open for the next end of day'),
});

export const EndOfDayAnswer = z.object({
  result: z.literal(true),
  manifests: z.array(ManifestView).describe('One per carrier account with open labels; empty when none was open'),
  carrier_errors: z.array(EndOfDayCarrierError).describe('The carrier accounts whose manifest failed'),
});
export type EndOfDayAnswer = z.input<typeof EndOfDayAnswer>;

export function presentManifest(env: LabelEnv, m: ManifestRow): ManifestView {
  return {
    manifest_id: m.id,
    carrier: m.carrier,
    carrier_name: adapterFor(m.carrier, env).name,
    carrier_account_id: m.carrier_account_id,
    carrier_manifest_id: m.carrier_manifest_id,
    ship_date: m.ship_date,
    order_ids: m.order_ids,
    created_at: new Date(m.created_at).toISOString(),
    media_type: 'application/pdf',
    document_base64: Buffer.from(m.document).toString('base64'),
  };
}

export interface EndOfDayOptions {
  carriers?: readonly string[] | undefined;
  /** YYYY-MM-DD; today in the business's timezone when absent. */
  shipDate?: string | undefined;
}

export interface EndOfDayOutcome {
  manifests: ManifestRow[];
  carrierErrors: (ReturnType<typeof carrierErrorOf> & { carrier_account_id: number; order_ids: number[] })[];
}

/**
 * The end of day of a business (docs/labels.md, "endofday"), for a caller or for its schedule: every open label
 * (purchased or submitted), per carrier account, on one manifest. The carriers are asked in parallel, outside any
 * transaction; each manifest is then written with its labels manifested in one transaction, and the tracking of the
 * labels not handed over before starts. A carrier that fails keeps its labels open. One end of day of a business
 * runs at a time (withEndOfDayLock), so no label is on two manifests.
 */
export function runEndOfDay(env: LabelEnv, businessId: number, opts: EndOfDayOptions = {}): Promise<EndOfDayOutcome> {
  return withEndOfDayLock(env.em, businessId, async () => {
    const business = await endOfDayBusiness(env.em, businessId);
    const shipDate = opts.shipDate ?? business.today;
    const open = await openLabelOrders(env.em, businessId, opts.carriers);
    const calls = await Promise.all(
      [...byAccount(open)].map(async ([accountId, labels]) => {
        const account = await openedAccount(env, businessId, accountId);
        const adapter = adapterFor(account.carrier, env);
        try {
          const manifest = await callCarrier(env, adapter, openAccount(account), (call) =>
            adapter.manifest(call, { labels: labels.map(refOf), ship_date: shipDate, shipper_name: business.name }),
          );
          return { account, labels, manifest };
        } catch (err) {
          if (!(err instanceof CarrierError)) throw err;
          return { account, labels, error: err };
        }
      }),
    );
    const outcome: EndOfDayOutcome = { manifests: [], carrierErrors: [] };
    // Written one account after another: each manifest commits by itself, whatever happens to the next.
    for (const c of calls) {
      const orderIds = c.labels.map((l) => l.order_id);
      if (c.error) {
        outcome.carrierErrors.push({
          ...carrierErrorOf(c.error),
          carrier_account_id: c.account.id,
          order_ids: orderIds,
        });
        continue;
      }
      const { row, moved } = await env.em.transactional(async (tx) => {
        const row = await insertManifest(tx, {
          business_id: businessId,
          carrier_account_id: c.account.id,
          carrier: c.account.carrier,
          carrier_manifest_id: c.manifest.carrier_manifest_id,
          ship_date: shipDate,
          order_ids: orderIds,
          document: c.manifest.document,
        });
        return { row, moved: await markManifested(tx, orderIds, row.id) };
      });
      outcome.manifests.push(row);
      for (const m of moved.filter((x) => x.was === 'purchased'))
        await tellProcess(env.log, 'handed over', () =>
          signalHandedOver(env.temporal, { orderId: m.order_id, businessId }, new Date(row.created_at)),
        );
    }
    return outcome;
  });
}

export const labelEndOfDay = defineOperation({
  name: 'labelservice_end_of_day',
  summary: 'Close the day: every open label, per carrier account, goes on one manifest handed to the carrier.',
  description:
    'Puts every open label of the business (purchased or submitted), or those of `carriers`, on one manifest per carrier account, dated `ship_date` (today in the business’s timezone by default; never a past date). Each manifest is made by its carrier (a PDF listing the parcels, with a barcode of the carrier’s manifest id) and kept; its labels become `manifested`: handed over, so no longer voidable (LABEL_NOT_VOIDABLE), and the tracking of those not submitted before starts. The answer lists each manifest with its document (`document_base64`, also read later with labelservice_manifest). A carrier that fails is listed in `carrier_errors` with its own code, and its labels stay open for the next end of day; nothing open answers `manifests: []`. Ends of day of one business run one at a time (a call waits for a running one, the scheduled one included), so no label is on two manifests.',
  tag: TAG,
  roles: [...STAFF],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/endofday' },
  graphql: { name: 'labelserviceEndOfDay', kind: 'mutation' },
  mcp: { scope: 'labels:write', risk: 'high', tool: 'end_of_day' },
  input: z
    .object({
      carriers: eachOnce(z.array(z.enum(CARRIER_CODES)).min(1).max(CARRIER_CODES.length), 'labels.duplicate_carrier')
        .optional()
        .describe('Only the labels of these carriers; every carrier when absent'),
      ship_date: dateParam()
        .optional()
        .describe('The date on the manifests: today in the business’s timezone when absent; never a past date'),
    })
    .strict(),
  output: EndOfDayAnswer,
  async handler(input, ctx) {
    if (input.ship_date && input.ship_date < (await endOfDayBusiness(ctx.em, ctx.caller.businessId)).today)
      throw errors.field('ship_date', 'labels.past_ship_date');
    const outcome = await runEndOfDay(ctx, ctx.caller.businessId, {
      carriers: input.carriers,
      shipDate: input.ship_date,
    });
    return {
      result: true as const,
      manifests: outcome.manifests.map((m) => presentManifest(ctx, m)),
      carrier_errors: outcome.carrierErrors,
    };
  },
});

export const labelManifest = defineOperation({
  name: 'labelservice_manifest',
  summary: 'One end-of-day manifest of the business, with its document.',
  description:
    'Answers a manifest an end of day made (called, or run by the end-of-day schedule): its carrier and account, the carrier’s manifest id, the ship date, the label orders on it and its PDF (`document_base64`). A manifest of another business, or none, is NOT_FOUND.',
  tag: TAG,
  roles: [...STAFF],
  business: true,
  rest: { method: 'GET', path: '/v1/labelservice/manifests/{id}' },
  graphql: { name: 'labelManifest', kind: 'query' },
  failures: { NOT_FOUND: 'The business has no manifest with this id' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), manifest: ManifestView }),
  async handler(input, ctx) {
    const row = await manifestOf(ctx.em, ctx.caller.businessId, input.id);
    if (!row) throw errors.notFound();
    return { result: true as const, manifest: presentManifest(ctx, row) };
  },
});
