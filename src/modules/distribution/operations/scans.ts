/** Warehouse scans and what they made of each package: its distribution, its history, a warehouse's list, the flagged scans. */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { offsetOf, pageOf, pageOutput, pageParams } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { STAFF } from '../../../platform/roles.ts';
import { findDistribution, listFlaggedScans, listWarehousePackages } from '../repo/reads.ts';
import { checkScan, packageNumber, scanAnswer, scanInput, scanLookups, sendCheckedScan } from '../scanChecks.ts';
import { CODE_PATTERN } from '../domain.ts';
import { DistributionView, presentDistribution, presentScan, ScanView } from '../views.ts';

const TAG = 'Distribution';

export const distributionScan = defineOperation({
  name: 'distribution_scan',
  summary: 'Record a warehouse scan of a package and move its distribution: applied, flagged or a duplicate.',
  description:
    "Staff call it signed in; a scanner uses its place's scanner key, for scans at that place only. The first scan starts the package's process; a scan that does not fit (out of order, wrong place or status) is kept flagged and moves nothing. Idempotent by `scan_id`, or by content without one. An applied step sends a `carrier_package.distribution.*` event when the carrier has a supplier account; shelving mails the recipient and, at a locker, stores a device order. Bad fields are VALIDATION_FAILED.",
  tag: TAG,
  roles: STAFF,
  auth: ['session', 'scanner_key'],
  business: true,
  rest: { method: 'POST', path: '/v1/distribution/scans' },
  graphql: { name: 'distributionScan', kind: 'mutation' },
  input: scanInput,
  output: z.object({ result: z.literal(true), ...scanAnswer }),
  async handler(input, ctx) {
    const checked = await checkScan(await scanLookups(ctx.em, ctx.caller.businessId), ctx.caller, input);
    return { result: true as const, ...(await sendCheckedScan(ctx, checked)) };
  },
});

export const distributionPackageGet = defineOperation({
  name: 'distribution_package_get',
  summary: "A package's distribution and every scan it received, applied or flagged, oldest first.",
  description:
    'Use it to see where a package is and why a scan did not move it: `distribution` (null until its first applied scan) holds the status, warehouse, destination, step times and workflow id, and `scans` every scan, from scanners or carrier events, with its outcome and flag. The package number is the tracking number of the package, unique across businesses. Refuses a number of no package of the business (NOT_FOUND).',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/distribution/packages/{package_number}' },
  failures: { NOT_FOUND: 'No package of the business has this number' },
  graphql: { name: 'distributionPackage', kind: 'query' },
  input: z.object({ package_number: packageNumber }).strict(),
  output: z.object({
    result: z.literal(true),
    distribution: DistributionView.nullable().describe('Null until its first applied scan'),
    scans: z.array(ScanView),
  }),
  async handler(input, ctx) {
    const found = await findDistribution(ctx.em, ctx.caller.businessId, input.package_number);
    if (!found) throw errors.notFound();
    return {
      result: true as const,
      distribution: found.distribution && presentDistribution(found.distribution),
      scans: found.scans.map(presentScan),
    };
  },
});

export const warehouseDistributionList = defineOperation({
  name: 'warehouse_distribution_list',
  summary:
    "A warehouse's distribution list: the packages waiting there to be loaded (received, or removed from a truck), oldest first.",
  description:
    'Lists the packages whose status is `created` or `removed` at this warehouse, the oldest step first, as the work list for loading trucks; a loaded package leaves it and a removed one comes back. Paginated with `page` and `per_page` (at most 200), with `total`. Refuses a code that is no warehouse of the business, including a locker or store place (NOT_FOUND).',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/places/{code}/distribution-list' },
  failures: { NOT_FOUND: 'No warehouse of the business has this code' },
  graphql: { name: 'warehouseDistributionList', kind: 'query' },
  input: z
    .object({
      code: z
        .string()
        .trim()
        .regex(CODE_PATTERN, 'place code')
        .transform((c) => c.toUpperCase()),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('packages', DistributionView),
  async handler(input, ctx) {
    const page = await listWarehousePackages(
      ctx.em,
      ctx.caller.businessId,
      input.code,
      input.per_page,
      offsetOf(input),
    );
    if (!page) throw errors.notFound();
    return pageOf(input, 'packages', page.total, page.items.map(presentDistribution));
  },
});

export const flaggedScanList = defineOperation({
  name: 'distribution_flagged_scans',
  summary: "Scans kept without moving their package, newest first: the operator's queue.",
  description:
    'A scan is flagged when the package was never received (`not_received`), its status does not allow the step (`does_not_fit`), it came before the last applied step (`out_of_order`), it was at the wrong place (`wrong_place`), the compartment was taken (`compartment_occupied`) or the package was already shelved (`process_ended`). Paginated. A flagged scan is never applied later: read the package with distribution_package_get and send a corrected scan.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/distribution/flagged-scans' },
  graphql: { name: 'distributionFlaggedScans', kind: 'query' },
  input: z.object({ ...pageParams }).strict(),
  output: pageOutput('scans', ScanView),
  async handler(input, ctx) {
    const page = await listFlaggedScans(ctx.em, ctx.caller.businessId, input.per_page, offsetOf(input));
    return pageOf(input, 'scans', page.total, page.items.map(presentScan));
  },
});
