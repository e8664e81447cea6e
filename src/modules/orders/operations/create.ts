import { z } from 'zod';
import { createOrder } from '../repo/orders.ts';
import { MAX_PACKAGES, newTrackingNumber, ORDER_STATUS } from '../domain.ts';
import { STAFF } from '../../../platform/roles.ts';
import { dateParam } from '../../../platform/catalog/schemas.ts';
import { actorOf } from '../actor.ts';
import { runOrderCreatedHooks } from '../hooks.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { optionalText, PackageInput, RecipientInput } from '../views.ts';

export const orderCreate = defineOperation({
  name: 'client_order_create',
  summary: 'Create a local delivery (D), pickup (P) or peer-to-peer (P2P) order.',
  description:
    "The order starts in status NEW_ORDER, delivered by the business itself. Without `packages` it gets one unmeasured package (at most 50); the first package's number is the order's tracking number. Emits the order.created webhook event, and when one of the business's third-party rules matches, the order is handed to that delivery provider at once (`third_party_assignment`). Not idempotent: before retrying a call whose answer was lost, look for its `order_ref` with get_orders. Invalid input is VALIDATION_FAILED.",
  tag: 'Client',
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/client/orderCreate' },
  graphql: { name: 'clientOrderCreate', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium', tool: 'create_order', servers: ['user', 'developer'] },
  input: z
    .object({
      type: z.enum(['D', 'P', 'P2P']),
      scheduled_date: dateParam(),
      order_ref: optionalText(100),
      recipient: RecipientInput,
      note: optionalText(1000),
      packages: z
        .array(PackageInput)
        .min(1)
        .max(MAX_PACKAGES)
        .optional()
        .describe(
          "The parcels of the order; one unmeasured package when absent. The first package's number is the order's tracking number.",
        ),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    order_id: z.number().int(),
    tracking_number: z.string(),
    packages: z.array(z.object({ position: z.number().int(), package_number: z.string() })),
    third_party_assignment: z
      .string()
      .nullable()
      .describe("The assignment number when one of the business's third-party rules handed the order to a provider"),
  }),
  async handler(input, ctx) {
    const { caller } = ctx;
    const packages = (input.packages ?? [{}]).map((p) => ({
      weightGrams: p.weight_grams,
      lengthMm: p.length_mm,
      widthMm: p.width_mm,
      heightMm: p.height_mm,
      carrierReference: p.carrier_reference,
    }));
    const { order, packageNumbers } = await createOrder(
      ctx.em,
      {
        businessId: caller.businessId,
        type: input.type,
        orderRef: input.order_ref ?? null,
        trackingNumber: newTrackingNumber(),
        statusId: ORDER_STATUS.NEW_ORDER,
        scheduledDate: input.scheduled_date,
        recipient: input.recipient,
        note: input.note ?? null,
        selfDelivery: true,
        carrierProviderId: null,
        routeId: null,
      },
      packages,
      actorOf(ctx),
    );
    const after = await runOrderCreatedHooks(ctx, {
      id: order.id,
      businessId: caller.businessId,
      postalCode: input.recipient.address.postal_code,
    });
    return {
      result: true as const,
      order_id: order.id,
      tracking_number: order.trackingNumber,
      packages: packageNumbers.map((number, i) => ({ position: i + 1, package_number: number })),
      third_party_assignment: after.thirdPartyAssignment,
    };
  },
});
