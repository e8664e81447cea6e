/** print_local_label (docs/labels.md): the label of a local delivery order, rendered on each call. */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { errors } from '../../../platform/errors.ts';
import { pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { LABEL_FORMATS, MEDIA_TYPE, type LabelFormat } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { localLabelFacts, orderPackages } from '../repo/orderDetail.ts';
import { renderLocalLabel } from '../render/localLabel.ts';
import { LabelDocumentAnswer } from './documents.ts';

/**
 * The label of a local order of the caller's business (a customer account: its own): 404 for another's or none,
 * 409 NOT_LOCAL_ORDER for a label order (its label is the carrier's).
 */
export async function localLabelAnswer(
  ctx: BusinessContext,
  orderId: number,
  format: LabelFormat,
): Promise<LabelDocumentAnswer> {
  const order = await localLabelFacts(ctx.em, ctx.caller.businessId, orderId);
  if (!order || (ctx.caller.role === 'customer' && order.customer_id !== ctx.caller.id)) throw errors.notFound();
  if (order.is_label_order) throw fail('NOT_LOCAL_ORDER', 'labels.not_local_order');
  const packages = await orderPackages(ctx.em, orderId);
  const content = await renderLocalLabel(
    {
      businessName: order.business_name,
      type: order.type,
      orderId,
      orderRef: order.order_ref,
      scheduledDate: order.scheduled_date,
      recipient: order.recipient,
      packages,
      route:
        order.route_id !== null && order.stop_number !== null
          ? { routeId: order.route_id, stopNumber: order.stop_number }
          : null,
    },
    format,
  );
  return {
    result: true as const,
    order_id: orderId,
    tracking_number: order.tracking_number,
    format,
    media_type: MEDIA_TYPE[format] as LabelDocumentAnswer['media_type'],
    label_base64: content.toString('base64'),
    sha256: createHash('sha256').update(content).digest('hex'),
    pages: packages.length,
  };
}

export const orderLocalLabel = defineOperation({
  name: 'order_local_label',
  summary: 'Print the label of a local delivery order: 4x6 PDF or ZPL, one page per package.',
  description:
    "A label for an order the business's own fleet delivers, in the layout of a carrier's label: the business's name as the carrier, the order type (D, P, P2P) as the service, the recipient, the scheduled date, the order's reference, the route and stop number when the order is planned, and each package's number as its Code 128 barcode, one page per package. `format` is PDF (4x6 in, 288 x 432 pt, the default) or ZPL (203 dpi). Rendered on each call from the order as it is now; the answer is shaped as shipping_get_label's. `id` is the order's id. An order of another business, or one a customer account did not place, is NOT_FOUND; a label order is NOT_LOCAL_ORDER (download its carrier label with shipping_get_label).",
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{id}/local-label' },
  graphql: { name: 'orderLocalLabel', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low', tool: 'print_local_label' },
  failures: { NOT_FOUND: 'No such order the caller may see', NOT_LOCAL_ORDER: true },
  input: z.object({ id: pathId, format: z.enum(LABEL_FORMATS).optional().describe('PDF (default) or ZPL') }).strict(),
  output: LabelDocumentAnswer,
  async handler(input, ctx) {
    return localLabelAnswer(ctx, input.id, input.format ?? 'PDF');
  },
});
