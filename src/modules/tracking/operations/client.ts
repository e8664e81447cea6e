/**
 * The authenticated OTEP reads (docs/otep.md, "Reading as the business"): the native timeline of one of the
 * business's parcels with the business's own fields the public one leaves out, and the parcels its lockers hold.
 */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { intParam, pathCode } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { STAFF, type Role } from '../../../platform/roles.ts';
import { storedParcels } from '../../lockers/index.ts';
import { orderVisibleTo } from '../../orders/index.ts';
import { clientPackage, eventAnnotations } from '../repo/client.ts';
import { loadTimelines } from '../repo/timeline.ts';
import { FORMATS } from '../formats/index.ts';
import type { Timeline } from '../model.ts';

const anyJson = z.unknown();
/** Most parcels one page of the locker storage read holds. */
export const MAX_STORAGE_PAGE = 100;
/** Staff read any parcel of the business; a customer account the parcels of its own orders, without carrier names. */
const READERS: readonly Role[] = [...STAFF, 'customer'];

const viewerOf = (ctx: BusinessContext) => ({
  businessId: ctx.caller.businessId,
  userId: ctx.caller.id,
  role: ctx.caller.role,
});

/** The timeline in the native format, as otep_tracking_get answers it. */
const native = (ctx: BusinessContext, t: Timeline) =>
  FORMATS.get('otep')!.project(t, { baseUrl: ctx.config.publicBaseUrl }) as Record<string, unknown>;

export const otepClientTracking = defineOperation({
  name: 'otep_client_tracking',
  summary: "The native OTEP timeline of one of the business's parcels, with the business's own fields.",
  description:
    "The timeline otep_tracking_get answers in the `otep` format, plus what the public one leaves out: a `client` member with the order's id, reference and type, the package's position, the order's package count, the carrier's reference of the package and the carrier holding the order (id and name); and, on each event, a `client` member: for a carrier's event the carrier that pushed it, for the business's own status change its operation type and description. A tracking number is an order's or any of its packages'. The business's staff read any parcel of the business; a customer account the parcels of its own orders, without carrier names (the carrier stays masked for it). Another business's parcel answers NOT_FOUND.",
  tag: 'OTEP',
  roles: READERS,
  business: true,
  rest: { method: 'GET', path: '/v1/otep/client/trackings/{tracking_number}' },
  failures: { NOT_FOUND: 'No parcel of the business has this tracking number' },
  graphql: { name: 'otepClientTracking', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z.object({ tracking_number: z.string().trim().min(1).max(64) }).strict(),
  output: anyJson,
  async handler(input, ctx) {
    const tn = input.tracking_number;
    const pkg = await clientPackage(ctx.em, tn, orderVisibleTo(viewerOf(ctx)));
    if (!pkg) throw errors.notFound();
    const timeline = (await loadTimelines(ctx.em, [tn])).get(tn);
    if (!timeline) throw errors.notFound();
    const staff = STAFF.includes(ctx.caller.role);
    const notes = await eventAnnotations(ctx.em, tn, pkg.order_id);
    const doc = native(ctx, timeline);
    const events = (doc.events as Record<string, unknown>[]).map((e) => {
      const note = notes.get(String(e.id)) ?? {};
      return { ...e, client: staff || !('carrier' in note) ? note : { carrier: null } };
    });
    return {
      ...doc,
      events,
      client: {
        order_id: pkg.order_id,
        order_ref: pkg.order_ref,
        order_type: pkg.order_type,
        package_position: pkg.position,
        packages: pkg.packages,
        carrier_reference: staff ? pkg.carrier_reference : null,
        carrier: staff && pkg.carrier_id !== null ? { id: pkg.carrier_id, name: pkg.carrier_name } : null,
      },
    };
  },
});

export const otepClientLockerStorage = defineOperation({
  name: 'otep_client_locker_storage',
  summary: "The parcels stored in the business's lockers, each with its OTEP timeline.",
  description: `One row per occupied compartment of the business's lockers (of one locker with \`device_code\`), in compartment order: the locker's code and name, the compartment's grid code and number, since when the parcel is there, which process holds it (\`device-order\` or \`locker-delivery\`), the parcel's reference (its tracking number when it is an order's package) and its native OTEP timeline, or null when the reference is no parcel this service tracks. Pages of \`limit\` (50 by default, at most ${MAX_STORAGE_PAGE}); the next page is asked with \`after\` set to \`next_after\`. For the business's staff.`,
  tag: 'OTEP',
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/otep/client/locker-storage' },
  graphql: { name: 'otepClientLockerStorage', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z
    .object({
      device_code: pathCode(64).optional(),
      limit: intParam(MAX_STORAGE_PAGE).default(50),
      after: intParam().optional().describe('`next_after` of the previous page'),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    parcels: z.array(
      z.object({
        device: z.object({ code: z.string(), name: z.string() }),
        compartment: z.object({ grid_code: z.string(), number: z.number().int() }),
        placed_at: z.string(),
        held_by: z.enum(['device-order', 'locker-delivery']),
        reference: z.string(),
        timeline: anyJson,
      }),
    ),
    next_after: z.number().int().nullable(),
  }),
  async handler(input, ctx) {
    const rows = await storedParcels(ctx.em, ctx.caller.businessId, {
      deviceCode: input.device_code,
      after: input.after ?? 0,
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const timelines = await loadTimelines(ctx.em, [...new Set(page.map((r) => r.reference))]);
    return {
      result: true as const,
      parcels: page.map((r) => {
        const t = timelines.get(r.reference);
        return {
          device: { code: r.device_code, name: r.device_name },
          compartment: { grid_code: r.grid_code, number: r.compartment_number },
          placed_at: new Date(r.placed_at).toISOString(),
          held_by: r.held_by,
          reference: r.reference,
          timeline: t ? native(ctx, t) : null,
        };
      }),
      next_after: rows.length > input.limit ? page.at(-1)!.compartment_id : null,
    };
  },
});
