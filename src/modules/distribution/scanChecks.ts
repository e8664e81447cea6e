/**
 * One warehouse scan as the API takes it: its shape, the checks that refuse it before anything is written, and its
 * send to the package's process. distribution_scan runs them for one scan, distribution_scan_batch for many.
 */
import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import { timeParam } from '../../platform/catalog/schemas.ts';
import type { BusinessContext, Caller } from '../../platform/catalog/types.ts';
import type { Em } from '../../platform/db/orm.ts';
import { runOrderAtWarehouseHooks } from '../orders/index.ts';
import type { ScanArgs } from './contract.ts';
import { ACTION_PLACE_KINDS, CODE_PATTERN, DISTRIBUTION_STATUSES, SCAN_ACTIONS, SCAN_FLAGS } from './domain.ts';
import {
  findScanPackage,
  findScanPackages,
  findScanPlace,
  type ScanPackage,
  type ScanPlace,
} from './repo/distributions.ts';
import { contentKey, sendScan } from './scanning.ts';

/** How far ahead of this server's clock a scanner's clock may run. */
const CLOCK_SKEW_MS = 5 * 60_000;
export const packageNumber = z.string().trim().min(1).max(40);
const placeRef = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('A place code of the business, or its identifier (SGLN or urn:tms:place:...)');

/** One scan: distribution_scan's input, and each item of a batch. */
export const scanInput = z
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
  .strict();
export type ScanInput = z.output<typeof scanInput>;

/** What one scan answers: its outcome and where its package stands. */
export const scanAnswer = {
  scan: z.object({
    id: z.string(),
    outcome: z.enum(['applied', 'duplicate', 'flagged']),
    flag: z.enum(SCAN_FLAGS).nullable(),
  }),
  package: z.object({ package_number: z.string(), status: z.enum(DISTRIBUTION_STATUSES).nullable() }),
};
export type ScanAnswer = { [K in keyof typeof scanAnswer]: z.input<(typeof scanAnswer)[K]> };

/** Where the checks find packages and places: the database one by one, or a batch's packages read at once. */
export interface ScanLookups {
  package(number: string): Promise<ScanPackage | null>;
  place(ref: string, gridCode?: string | null): Promise<ScanPlace | null>;
}

/** Lookups of one business; given the numbers of a batch, its packages are read in one statement. */
export async function scanLookups(em: Em, businessId: number, numbers?: readonly string[]): Promise<ScanLookups> {
  const packages = numbers && (await findScanPackages(em, businessId, numbers));
  // A hub's scans name the same few places: each (place, compartment) is read once per call.
  const places = new Map<string, Promise<ScanPlace | null>>();
  return {
    package: async (number) => (packages ? (packages.get(number) ?? null) : findScanPackage(em, businessId, number)),
    place(ref, gridCode = null) {
      const key = JSON.stringify([ref, gridCode]);
      let found = places.get(key);
      if (!found) places.set(key, (found = findScanPlace(em, businessId, ref, gridCode)));
      return found;
    },
  };
}

/** A scan that passed every check, ready to send. */
export interface CheckedScan {
  businessId: number;
  pkg: ScanPackage;
  place: ScanPlace;
  args: ScanArgs;
}

/**
 * Refuses a scan that names what the business does not have or that no step could take (VALIDATION_FAILED naming
 * the field): a package and places of the business, the place of a kind the action happens at (and the scanner
 * key's own), a compartment or shelf only and always when shelving there, a time not ahead of the clock.
 */
export async function checkScan(
  lookups: ScanLookups,
  caller: Caller & { businessId: number },
  input: ScanInput,
): Promise<CheckedScan> {
  const gridCode = input.grid_code ?? null;
  const shelfCode = input.shelf_code ?? null;
  if (Date.parse(input.scanned_at) > Date.now() + CLOCK_SKEW_MS)
    throw errors.field('scanned_at', 'field.recorded_in_future');
  const pkg = await lookups.package(input.package_number);
  if (!pkg) throw errors.field('package_number', 'field.unknown_package');
  const place = await lookups.place(input.location, gridCode);
  if (!place) throw errors.field('location', 'field.unknown_place');
  if (caller.place && caller.place.id !== place.id)
    throw errors.field('location', 'distribution.scanner_elsewhere', { place: caller.place.code });
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
  const destination = input.destination == null ? null : await lookups.place(input.destination);
  if (input.destination != null && !destination) throw errors.field('destination', 'field.unknown_place');
  if (destination && destination.kind === 'warehouse')
    throw errors.field('destination', 'field.wrong_place_kind', { kinds: 'locker, store' });

  const facts = {
    action: input.action,
    placeCode: place.code,
    destinationCode: destination?.code ?? null,
    gridCode,
    shelfCode,
    scannedAt: new Date(input.scanned_at).toISOString(),
  };
  return {
    businessId: caller.businessId,
    pkg,
    place,
    args: {
      ...facts,
      key: input.scan_id ?? contentKey(facts),
      source: 'scanner',
      placeId: place.id,
      deviceCode: place.deviceCode,
      destinationId: destination?.id ?? null,
      actorId: caller.id,
    },
  };
}

/** Sends a checked scan to its package's process, which judges it, and tells the order hooks of a package held. */
export async function sendCheckedScan(
  ctx: Pick<BusinessContext, 'em' | 'temporal' | 'log' | 'config'>,
  checked: CheckedScan,
): Promise<ScanAnswer> {
  const { pkg, args } = checked;
  const outcome = await sendScan(ctx, checked.businessId, pkg, args);
  // A package received at (or taken back to) a warehouse is held there: an interception waiting for it hears so.
  if (outcome.outcome === 'applied' && (args.action === 'received' || args.action === 'removed'))
    await runOrderAtWarehouseHooks(ctx, [
      {
        packageNumber: pkg.number,
        place: checked.place.code,
        source: 'scan',
        reportedBy: checked.businessId,
        occurredAt: args.scannedAt,
      },
    ]);
  return {
    scan: { id: outcome.scan_id, outcome: outcome.outcome, flag: outcome.flag },
    package: { package_number: pkg.number, status: outcome.status },
  };
}
