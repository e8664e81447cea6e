import { z } from 'zod';
import { ASSIGNMENT_STATUSES, CANCEL_REASONS, type AssignmentStatus, type CancelReason } from './domain.ts';

export const AssignmentView = z.object({
  number: z.string().describe('Assignment number'),
  status: z.enum(ASSIGNMENT_STATUSES),
  source: z.enum(['manual', 'rule']),
  order: z.object({ id: z.number().int(), order_ref: z.string().nullable(), tracking_number: z.string() }),
  provider: z.object({ code: z.string(), name: z.string() }),
  packages: z
    .array(z.object({ package_number: z.string(), handed_over_at: z.string().nullable() }))
    .describe('Every package of the order, with when the warehouse handed it over'),
  legs: z
    .array(z.object({ carrier_order_number: z.string(), package_numbers: z.array(z.string()) }))
    .describe('Orders the provider placed with its carrier, with the packages on each'),
  handover_deadline: z.string().describe('Packages not all handed over by then: the order falls back to self delivery'),
  handed_over_at: z.string().nullable(),
  cancel_reason: z.enum(CANCEL_REASONS).nullable(),
  ended_at: z.string().nullable(),
  created_at: z.string(),
  workflow_id: z.string(),
});
export type AssignmentView = z.input<typeof AssignmentView>;

export interface AssignmentRow {
  id: number;
  number: string;
  status: AssignmentStatus;
  source: 'manual' | 'rule';
  order_id: number;
  order_ref: string | null;
  tracking_number: string;
  provider_code: string;
  provider_name: string;
  packages: { package_number: string; handed_over_at: string | null }[];
  legs: { carrier_order_number: string; package_numbers: string[] }[];
  delivered_packages: number;
  handover_deadline: Date;
  handed_over_at: Date | null;
  cancel_reason: CancelReason | null;
  ended_at: Date | null;
  created_at: Date;
}

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export function presentAssignment(r: AssignmentRow): AssignmentView {
  return {
    number: r.number,
    status: r.status,
    source: r.source,
    order: { id: r.order_id, order_ref: r.order_ref, tracking_number: r.tracking_number },
    provider: { code: r.provider_code, name: r.provider_name },
    packages: r.packages.map((p) => ({
      package_number: p.package_number,
      handed_over_at: p.handed_over_at && new Date(p.handed_over_at).toISOString(),
    })),
    legs: r.legs,
    handover_deadline: iso(r.handover_deadline)!,
    handed_over_at: iso(r.handed_over_at),
    cancel_reason: r.cancel_reason,
    ended_at: iso(r.ended_at),
    created_at: iso(r.created_at)!,
    workflow_id: `third-party-delivery-${r.id}`,
  };
}
