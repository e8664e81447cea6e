/** The shipping methods a business can rate (docs/labels.md, "Our own operations"): its accounts and their services. */
import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { adapterFor } from '../carriers/registry.ts';
import { LABEL_FORMATS } from '../domain.ts';
import { activeAccounts } from '../repo/accounts.ts';

const ServiceView = z.object({
  code: z.string(),
  name: z.string(),
  transit_days: z.object({ min: z.number().int(), max: z.number().int() }).describe('Business days, by zone'),
  max_weight_grams: z.number().int().describe('The most one parcel may weigh'),
});

const MethodView = z.object({
  carrier_account_id: z.number().int(),
  carrier: z.string(),
  carrier_name: z.string(),
  account_name: z.string(),
  services: z.array(ServiceView),
  formats: z.array(z.enum(LABEL_FORMATS)),
});

export const labelMethods = defineOperation({
  name: 'labelservice_methods',
  summary: "The business's active carrier accounts, each with its carrier's services and label formats; no price.",
  description:
    'What labelservice_rate can be asked for: every active carrier account of the business (oldest first) with its carrier’s services (code, name, transit days range, largest parcel) and the label formats it prints. No price: rate a shipment for prices. A business without an active account answers an empty list.',
  tag: 'Labels',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/labelservice/methods' },
  graphql: { name: 'labelserviceMethods', kind: 'query' },
  mcp: { scope: 'labels:read', risk: 'low', tool: 'get_shipping_methods', servers: ['user', 'developer'] },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), methods: z.array(MethodView) }),
  async handler(_input, ctx) {
    const accounts = await activeAccounts(ctx.em, ctx.caller.businessId);
    return {
      result: true as const,
      methods: accounts.map((a) => {
        const adapter = adapterFor(a.carrier, ctx);
        return {
          carrier_account_id: a.id,
          carrier: a.carrier,
          carrier_name: adapter.name,
          account_name: a.name,
          services: adapter.services.map((s) => ({
            code: s.code,
            name: s.name,
            transit_days: { min: s.transit_days.min, max: s.transit_days.max },
            max_weight_grams: s.max_weight_grams,
          })),
          formats: [...adapter.formats],
        };
      }),
    };
  },
});
