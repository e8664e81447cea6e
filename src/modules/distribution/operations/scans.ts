/** Warehouse scans and what they made of each package: its distribution, its history, a warehouse's list, the flagged scans. */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { offsetOf, pageOf, pageOutput, pageParams, timeParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { STAFF } from '../../../platform/roles.ts';
import { findScanPackage, findScanPlace } from '../repo/distributions.ts';
import { findDistribution, listFlaggedScans, listWarehousePackages } from '../repo/reads.ts';
import { contentKey, sendScan } from '../scanning.ts';
import { ACTION_PLACE_KINDS, CODE_PATTERN, DISTRIBUTION_STATUSES, SCAN_ACTIONS, SCAN_FLAGS } from '../domain.ts';
import { DistributionView, presentDistribution, presentScan, ScanView } from '../views.ts';
import { runOrderAtWarehouseHooks } from '../../orders/index.ts';

const TAG = 'Distribution';
/** How far ahead of this server's clock a scanner's clock may run. */
const CLOCK_SKEW_MS = 5 * 60_000;
const packageNumber = z.string().trim().min(1).max(40);
const placeRef = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('A place code of the business, or its identifier (SGLN or urn:tms:place:...)');

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
  input: z
    .object({
      scan_id: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'scan id')
        .nullish()
        .describe(
          "The scanner's id of the scan; a scan sent again with it is a duplicate. Without it, the same content is the same scan",
        ),
      package_number: packageNumber,
      action: z.enum(SCAN_ACTIONS),
      location: placeRef,
      destination: placeRef.nullish().describe('On a received scan: the locker or store the package goes to'),
      grid_code: z.string().trim().min(1).max(32).nullish().describe('On a shelved scan at a locker: the compartment'),
      shelf_code: z
        .string()
        .trim()
        .regex(CODE_PATTERN, 'shelf code')
        .transform((c) => c.toUpperCase())
        .nullish()
        .describe('On a shelved scan at a store: the shelf (kept upper-case)'),
      scanned_at: timeParam(),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    scan: z.object({
      id: z.string(),
      outcome: z.enum(['applied', 'duplicate', 'flagged']),
      flag: z.enum(SCAN_FLAGS).nullable(),
    }),
    package: z.object({ package_number: z.string(), status: z.enum(DISTRIBUTION_STATUSES).nullable() }),
  }),
  async handler(input, ctx) {
    const { businessId } = ctx.caller;
    const gridCode = input.grid_code ?? null;
    const shelfCode = input.shelf_code ?? null;
    if (Date.parse(input.scanned_at) > Date.now() + CLOCK_SKEW_MS)
      throw errors.field('scanned_at', 'field.recorded_in_future');
    const pkg = await findScanPackage(ctx.em, businessId, input.package_number);
    if (!pkg) throw errors.field('package_number', 'field.unknown_package');
    const place = await findScanPlace(ctx.em, businessId, input.location, gridCode);
    if (!place) throw errors.field('location', 'field.unknown_place');
    if (ctx.caller.place && ctx.caller.place.id !== place.id)
      throw errors.field('location', 'distribution.scanner_elsewhere', { place: ctx.caller.place.code });
    const kinds = ACTION_PLACE_KINDS[input.action];
    if (!kinds.includes(place.kind))
      throw errors.field('location', 'field.wrong_place_kind', { kinds: kinds.join(', ') });
    const shelving = input.action === 'shelved';
    if (input.destination != null && input.action !== 'received')
      throw errors.field('destination', 'field.not_for_this_step', { step: 'received' });
    if (gridCode !== null && !(shelving && place.kind === 'locker'))
      throw errors.field('grid_code', 'field.not_for_this_step', { step: 'shelved at a locker' });
    if (shelfCode !== null && !(shelving && place.kind === 'store'))
      throw errors.field('shelf_code', 'field.not_for_this_step', { step: 'shelved at a store' });
    if (shelving && place.kind === 'locker' && gridCode === null) throw errors.field('grid_code', 'field.required');
    if (shelving && place.kind === 'store' && shelfCode === null) throw errors.field('shelf_code', 'field.required');
    if (gridCode !== null && !place.gridKnown) throw errors.field('grid_code', 'field.unknown_grid');
    const destination = input.destination == null ? null : await findScanPlace(ctx.em, businessId, input.destination);
    if (input.destination != null && !destination) throw errors.field('destination', 'field.unknown_place');
    if (destination && destination.kind === 'warehouse')
      throw errors.field('destination', 'field.wrong_place_kind', { kinds: 'locker, store' });

    const scannedAt = new Date(input.scanned_at).toISOString();
    const facts = {
      action: input.action,
      placeCode: place.code,
      destinationCode: destination?.code ?? null,
      gridCode,
      shelfCode,
      scannedAt,
    };
    const outcome = await sendScan(ctx, businessId, pkg, {
      ...facts,
      key: input.scan_id ?? contentKey(facts),
      source: 'scanner',
      placeId: place.id,
      deviceCode: place.deviceCode,
      destinationId: destination?.id ?? null,
      actorId: ctx.caller.id,
    });
    // A package received at (or taken back to) a warehouse is held there: an interception waiting for it hears so.
    if (outcome.outcome === 'applied' && (input.action === 'received' || input.action === 'removed'))
      await runOrderAtWarehouseHooks(ctx, [
        { packageNumber: pkg.number, place: place.code, source: 'scan', reportedBy: businessId, occurredAt: scannedAt },
      ]);
    return {
      result: true as const,
      scan: { id: outcome.scan_id, outcome: outcome.outcome, flag: outcome.flag },
      package: { package_number: pkg.number, status: outcome.status },
    };
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
