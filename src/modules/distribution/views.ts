import { z } from 'zod';
import type { DistributionRow, ScanRow } from './repo/reads.ts';
import { DISTRIBUTION_STATUSES, SCAN_ACTIONS, SCAN_FLAGS, SCAN_SOURCES } from './domain.ts';
import { distributionWorkflowId } from './contract.ts';

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export const DistributionView = z.object({
  package_number: z.string(),
  order_id: z.number().int(),
  order_ref: z.string().nullable(),
  status: z.enum(DISTRIBUTION_STATUSES),
  warehouse: z.string().describe('Code of the warehouse that received the package'),
  destination: z.string().nullable().describe('Code of the locker or store it goes to; null while not known'),
  loaded_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  shelved_at: z.string().nullable(),
  removed_at: z.string().nullable(),
  removal_reason: z.enum(['removed', 'cancelled']).nullable(),
  location: z.object({
    grid_id: z.number().int().nullable(),
    grid_code: z.string().nullable(),
    shelf_code: z.string().nullable(),
  }),
  device_order_id: z.number().int().nullable().describe('The device order of a package shelved into a locker'),
  flagged_scans: z.number().int(),
  last_step_at: z.string(),
  updated_at: z.string(),
  workflow_id: z.string().describe('Its process in the Temporal UI'),
});

export const ScanView = z.object({
  id: z.string(),
  package_number: z.string(),
  source: z.enum(SCAN_SOURCES),
  action: z.enum(SCAN_ACTIONS),
  location: z.string().describe('Place code'),
  destination: z.string().nullable(),
  grid_code: z.string().nullable(),
  shelf_code: z.string().nullable(),
  scanned_at: z.string(),
  recorded_at: z.string(),
  outcome: z.enum(['applied', 'flagged']),
  flag: z.enum(SCAN_FLAGS).nullable(),
  status_after: z.enum(DISTRIBUTION_STATUSES).nullable().describe("The package's status once the scan was judged"),
});

export function presentDistribution(r: DistributionRow): z.input<typeof DistributionView> {
  return {
    package_number: r.package_number,
    order_id: r.order_id,
    order_ref: r.order_ref,
    status: r.status,
    warehouse: r.warehouse,
    destination: r.destination,
    loaded_at: iso(r.loaded_at),
    delivered_at: iso(r.delivered_at),
    shelved_at: iso(r.shelved_at),
    removed_at: iso(r.removed_at),
    removal_reason: r.removal_reason,
    location: { grid_id: r.grid_id, grid_code: r.grid_code, shelf_code: r.shelf_code },
    device_order_id: r.device_order_id,
    flagged_scans: r.flagged_scans,
    last_step_at: iso(r.last_step_at)!,
    updated_at: iso(r.updated_at)!,
    workflow_id: distributionWorkflowId(r.package_number),
  };
}

export function presentScan(r: ScanRow): z.input<typeof ScanView> {
  return {
    id: String(r.id),
    package_number: r.package_number,
    source: r.source,
    action: r.action,
    location: r.location,
    destination: r.destination,
    grid_code: r.grid_code,
    shelf_code: r.shelf_code,
    scanned_at: iso(r.scanned_at)!,
    recorded_at: iso(r.recorded_at)!,
    outcome: r.outcome,
    flag: r.flag,
    status_after: r.status_after,
  };
}
