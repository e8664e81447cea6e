/**
 * A label order read back (docs/labels.md): its detail (getShippingDetail) and its label's bytes (getShippingLabel),
 * found by order id or by any of its tracking numbers, within the caller's business (a customer account: its own
 * orders only).
 */
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { errors } from '../../../platform/errors.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { OTEP_OF_ORDER_STATUS } from '../../tracking/index.ts';
import { LABEL_FORMATS, MEDIA_TYPE, type LabelFormat } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { labelDocument, labelOrderOf, type LabelOrderRow } from '../repo/labelOrders.ts';
import { newestEventOf, orderPackages } from '../repo/orderDetail.ts';
import { orderFactsOf, orderIdByTrackingNumber, type LabelOrderFacts } from '../repo/orderFacts.ts';
import { LabelPriceShape, LabelView, partyOf, PartyView } from '../views.ts';
import { presentLabel, priceFields, statusFor } from './present.ts';
import { orderPricesHidden } from './rate.ts';

/** How an order is named in a body: by its id, or by a tracking number of it (the order's, a package's, a carrier's). */
export interface OrderLookup {
  order_id?: number | undefined;
  tracking_number?: string | undefined;
}

export const OrderLookupShape = {
  order_id: z.number().int().min(1).max(2_147_483_647).optional().describe('The order’s id; or give tracking_number'),
  tracking_number: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe('The order’s tracking number, a package number or a carrier tracking number; or give order_id'),
};

/**
 * The order a lookup names, as the caller may see it: 404 for none, another business's, or (customer accounts) an
 * order not placed by or for it; 422 unless exactly one of order_id and tracking_number is given.
 */
export async function findOrder(ctx: BusinessContext, by: OrderLookup): Promise<LabelOrderFacts> {
  if ((by.order_id === undefined) === (by.tracking_number === undefined))
    throw errors.field(by.order_id === undefined ? 'order_id' : 'tracking_number', 'labels.order_or_tracking_number');
  const businessId = ctx.caller.businessId;
  const id = by.order_id ?? (await orderIdByTrackingNumber(ctx.em, businessId, by.tracking_number!));
  const [order] = id === null ? [] : await orderFactsOf(ctx.em, businessId, [id]);
  if (!order || (ctx.caller.role === 'customer' && order.customerId !== ctx.caller.id)) throw errors.notFound();
  return order;
}

/** The label order a lookup names (findOrder's rules); a local order of the business is 409 NOT_A_LABEL_ORDER. */
export async function findLabelOrder(
  ctx: BusinessContext,
  by: OrderLookup,
): Promise<{ order: LabelOrderFacts; label: LabelOrderRow }> {
  const order = await findOrder(ctx, by);
  const label = await labelOrderOf(ctx.em, ctx.caller.businessId, order.id);
  if (!label) throw fail('NOT_A_LABEL_ORDER', 'labels.not_a_label_order');
  return { order, label };
}

export const ShippingDetail = z.object({
  result: z.literal(true),
  order_id: z.number().int(),
  order_ref: z.string().nullable(),
  tracking_number: z.string().describe('The order’s own tracking number'),
  status_id: z.number().int(),
  status: z.string(),
  label: LabelView,
  shipper: PartyView,
  recipient: PartyView,
  parcels: z.array(
    z.object({
      position: z.number().int(),
      package_number: z.string(),
      carrier_tracking_number: z.string().nullable().describe('The carrier’s number of this parcel, once bought'),
      weight_grams: z.number().int().nullable(),
      length_mm: z.number().int().nullable(),
      width_mm: z.number().int().nullable(),
      height_mm: z.number().int().nullable(),
      reference: z.string().nullable(),
    }),
  ),
  rate_id: z.string().nullable(),
  ...LabelPriceShape,
  last_event: z
    .object({
      code: z.string().describe('Its OTEP status code (otep:core:...)'),
      description: z.string().nullable(),
      occurred_at: z.string(),
    })
    .nullable()
    .describe('The newest event of the order’s timeline; null when it has none'),
});
export type ShippingDetail = z.input<typeof ShippingDetail>;

/** The detail of a label order the caller found with findLabelOrder. */
export async function shippingDetail(
  ctx: BusinessContext,
  found: { order: LabelOrderFacts; label: LabelOrderRow },
): Promise<ShippingDetail> {
  const { order, label } = found;
  const [packages, newest, hidden] = await Promise.all([
    orderPackages(ctx.em, order.id),
    newestEventOf(ctx.em, order.id),
    orderPricesHidden(ctx, order.priceFamily),
  ]);
  const code =
    newest && (newest.status_code ?? OTEP_OF_ORDER_STATUS.get(newest.after_status ?? -1)?.code ?? 'otep:core:info');
  return {
    result: true as const,
    order_id: order.id,
    order_ref: order.orderRef ?? null,
    tracking_number: order.trackingNumber,
    ...statusFor(ctx, order.statusId),
    label: presentLabel(ctx, label),
    shipper: partyOf(label.shipment.shipper),
    recipient: partyOf(label.shipment.recipient),
    parcels: packages.map((p, i) => ({
      position: p.position,
      package_number: p.package_number,
      carrier_tracking_number: p.carrier_reference,
      weight_grams: p.weight_grams,
      length_mm: p.length_mm,
      width_mm: p.width_mm,
      height_mm: p.height_mm,
      reference: label.shipment.parcels[i]?.reference ?? null,
    })),
    rate_id: label.rate_id,
    ...priceFields(order, hidden),
    last_event: newest
      ? { code: code!, description: newest.description, occurred_at: new Date(newest.occurred_at).toISOString() }
      : null,
  };
}

export const LabelDocumentAnswer = z.object({
  result: z.literal(true),
  order_id: z.number().int(),
  tracking_number: z.string().describe('The order’s own tracking number'),
  format: z.enum(LABEL_FORMATS),
  media_type: z.enum(['application/pdf', 'application/zpl']),
  label_base64: z.string().describe('The document, base64: a 4x6 in PDF (288 x 432 pt) or ZPL II for 203 dpi'),
  sha256: z.string().describe('SHA-256 of the document’s bytes, hex'),
  pages: z.number().int().describe('One page (ZPL: one ^XA..^XZ format) per parcel'),
});
export type LabelDocumentAnswer = z.input<typeof LabelDocumentAnswer>;

/**
 * The label's document of an order of the caller's business, in a format: 409 NO_LABEL while its purchase is pending
 * or failed, LABEL_VOIDED once voided, NOT_A_LABEL_ORDER for a local order; 422 on `format` when its carrier has none.
 */
export async function labelDocumentAnswer(
  ctx: BusinessContext,
  orderId: number,
  format: LabelFormat,
): Promise<LabelDocumentAnswer> {
  const businessId = ctx.caller.businessId;
  const [label, [order]] = await Promise.all([
    labelOrderOf(ctx.em, businessId, orderId),
    orderFactsOf(ctx.em, businessId, [orderId]),
  ]);
  if (!order) throw errors.notFound();
  if (!label) throw fail('NOT_A_LABEL_ORDER', 'labels.not_a_label_order');
  if (label.state === 'pending' || label.state === 'failed') throw fail('NO_LABEL', 'labels.no_label');
  if (label.state === 'voided') throw fail('LABEL_VOIDED', 'labels.voided');
  const doc = label.formats.includes(format) ? await labelDocument(ctx.em, orderId, format) : null;
  if (!doc) throw errors.field('format', 'labels.format_unavailable', { format });
  return {
    result: true as const,
    order_id: orderId,
    tracking_number: order.trackingNumber,
    format,
    media_type: MEDIA_TYPE[format] as LabelDocumentAnswer['media_type'],
    label_base64: doc.content.toString('base64'),
    sha256: doc.sha256,
    pages: doc.pages,
  };
}

const LOOKUP_RULE =
  'Name the order with exactly one of `order_id` and `tracking_number` (the order’s tracking number, one of its package numbers, or a carrier tracking number); both or neither is VALIDATION_FAILED. An order of another business, or one a customer account did not place, is NOT_FOUND; a local delivery order of the business is NOT_A_LABEL_ORDER.';

export const labelShippingDetail = defineOperation({
  name: 'labelservice_get_shipping_detail',
  summary: 'Read a label order: its label, parties, parcels, price and newest tracking event.',
  description: `Answers the label order with its label (state, carrier, service, carrier tracking numbers, shipment id, formats, when it was bought, submitted, manifested or voided, and why its last purchase failed), the shipper and recipient as rated, each parcel with its package number and carrier tracking number, the rate it was bought at, its price (left out with \`price_hidden: true\` for a customer account its business hides label prices from) and \`last_event\`, the newest event of its tracking timeline. ${LOOKUP_RULE} A customer account reads a carrier's status as ours (CARRIER_ON_THE_WAY as ON_THE_WAY).`,
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/labelservice/getShippingDetail' },
  graphql: { name: 'labelserviceShippingDetail', kind: 'query' },
  mcp: { scope: 'labels:write', risk: 'high', tool: 'get_shipping_detail' },
  failures: { NOT_FOUND: 'No such order the caller may see', NOT_A_LABEL_ORDER: true },
  input: z.object(OrderLookupShape).strict(),
  output: ShippingDetail,
  async handler(input, ctx) {
    return shippingDetail(ctx, await findLabelOrder(ctx, input));
  },
});

export const shippingGetLabel = defineOperation({
  name: 'shipping_get_label',
  summary: 'Download the label of a label order, as PDF (4x6 in) or ZPL.',
  description: `Answers the label's document as the carrier made it, base64 in \`label_base64\` with its media type, SHA-256 and page count (one page per parcel): a 4x6 inch PDF (288 x 432 pt) by default, or ZPL II for a 203 dpi printer with \`format: "ZPL"\`. The barcode is a Code 128 of the parcel's carrier tracking number. ${LOOKUP_RULE} A label whose purchase is pending or failed is NO_LABEL; a voided one LABEL_VOIDED; a format the carrier does not make is VALIDATION_FAILED on \`format\`.`,
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/shipping/getShippingLabel' },
  graphql: { name: 'shippingLabel', kind: 'query' },
  mcp: {
    scope: 'labels:write',
    risk: 'high',
    tool: { user: 'download_shipping_label', developer: 'get_shipping_label' },
    servers: ['user', 'developer'],
  },
  failures: {
    NOT_FOUND: 'No such order the caller may see',
    NOT_A_LABEL_ORDER: true,
    NO_LABEL: true,
    LABEL_VOIDED: true,
  },
  input: z
    .object({
      ...OrderLookupShape,
      format: z.enum(LABEL_FORMATS).optional().describe('PDF (default) or ZPL'),
    })
    .strict(),
  output: LabelDocumentAnswer,
  async handler(input, ctx) {
    const { order } = await findLabelOrder(ctx, input);
    return labelDocumentAnswer(ctx, order.id, input.format ?? 'PDF');
  },
});
