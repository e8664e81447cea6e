/** The customer's stored packages with their age and storage fees (docs/customer-services.md, "Storage orders"). */
import { offsetOf, pageOf, pageOutput } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { presentPackage } from '../present.ts';
import { customerPackages } from '../repo/packages.ts';
import { StoredPackageItem, StoredPackagesInput } from '../views.ts';
import { storagePricesHidden } from './read.ts';

export const listStoredPackages = defineOperation({
  name: 'list_stored_packages',
  summary: 'Your packages in storage: where, since when, and the storage fees charged and still owed for each.',
  description:
    'A page of the caller’s packages of every storage order, newest first; `state` (expected, stored, reserved, shipped, released) and `warehouse_id` filter. Each has its tracking number, state, received_at and location, its age in storage days since it was received (the business’s storage day), the storage periods charged so far, and the fees charged for it (tax included) and what of them the wallet still owes (fees the business settles with you offline are not owed here). When the business hides its storage prices from the customer the fee amounts are left out and `price_hidden` is true. For customer accounts only (staff get 403 FORBIDDEN).',
  tag: 'Storage',
  roles: ['customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/customer/stored-packages' },
  graphql: { name: 'storedPackages', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  input: StoredPackagesInput,
  output: pageOutput('packages', StoredPackageItem),
  async handler(input, ctx) {
    const hidden = await storagePricesHidden(ctx);
    const { total, rows } = await customerPackages(ctx.em, {
      businessId: ctx.caller.businessId,
      customerId: ctx.caller.id,
      state: input.state,
      warehouseId: input.warehouse_id,
      limit: input.per_page,
      offset: offsetOf(input),
    });
    return pageOf(
      input,
      'packages',
      total,
      rows.map((r) => presentPackage(r, hidden)),
    );
  },
});
