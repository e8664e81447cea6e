/** Many warehouse scans in one request, for a hub's intake: each judged by its package's process as if sent alone. */
import { z } from 'zod';
import { AppError, errors, type FieldError } from '../../../platform/errors.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { STAFF } from '../../../platform/roles.ts';
import { findScanPackage } from '../repo/distributions.ts';
import {
  checkScan,
  scanAnswer,
  scanInput,
  scanLookups,
  sendCheckedScan,
  type CheckedScan,
  type ScanAnswer,
} from '../scanChecks.ts';

/** Most scans in one batch: what a hub's scanners gather in a few seconds, answered well within a request's time. */
export const MAX_BATCH_SCANS = 100;
/** Scans of different packages sent at once; each package's own scans go one after another, in input order. */
export const BATCH_SCANS_IN_FLIGHT = 16;

export const distributionScanBatch = defineOperation({
  name: 'distribution_scan_batch',
  summary: `Record up to ${MAX_BATCH_SCANS} warehouse scans in one call, each answered as distribution_scan answers it.`,
  description: `For a hub's intake sending hundreds of scans a minute. Each item is distribution_scan's input and is judged by its package's process exactly as if sent alone: applied, flagged (kept, moves nothing) or a duplicate (by \`scan_id\`, or by content without one, also within the batch). Every item is checked before any is sent: one bad item refuses the whole batch with VALIDATION_FAILED naming it (\`scans.3.location\`), and nothing is recorded. The scans of one package are sent in their order in the batch, different packages ${BATCH_SCANS_IN_FLIGHT} at a time; \`scans\` answers them in input order. 1 to ${MAX_BATCH_SCANS} items. Staff call it signed in; a scanner uses its place's scanner key, for scans at that place only.`,
  tag: 'Distribution',
  roles: STAFF,
  auth: ['session', 'scanner_key'],
  business: true,
  rest: { method: 'POST', path: '/v1/distribution/scan-batches' },
  graphql: { name: 'distributionScanBatch', kind: 'mutation' },
  input: z.object({ scans: z.array(scanInput).min(1).max(MAX_BATCH_SCANS) }).strict(),
  output: z.object({
    result: z.literal(true),
    scans: z.array(z.object(scanAnswer)).describe('One per item, in input order'),
  }),
  async handler(input, ctx) {
    const { businessId } = ctx.caller;
    const lookups = await scanLookups(
      ctx.em,
      businessId,
      input.scans.map((s) => s.package_number),
    );
    // All items are checked before any is sent, and every bad one is named, so a scanner fixes its batch at once.
    const checked: CheckedScan[] = [];
    const refused: FieldError[] = [];
    for (const [i, item] of input.scans.entries()) {
      try {
        checked.push(await checkScan(lookups, ctx.caller, item));
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'VALIDATION_FAILED' && err.fields)) throw err;
        refused.push(...err.fields.map((f) => ({ ...f, field: `scans.${i}.${f.field}` })));
      }
    }
    if (refused.length > 0) throw errors.validation(refused);

    const queues = new Map<number, number[]>();
    checked.forEach((c, i) => queues.set(c.pkg.id, [...(queues.get(c.pkg.id) ?? []), i]));
    const pending = [...queues.values()];
    const answers: ScanAnswer[] = [];
    const worker = async () => {
      for (let queue = pending.shift(); queue; queue = pending.shift())
        for (const [n, i] of queue.entries()) {
          const scan = checked[i]!;
          // A later scan of the package starts its process, if the one before ended it, from the state that scan left.
          const pkg = n === 0 ? scan.pkg : await findScanPackage(ctx.em, businessId, scan.pkg.number);
          answers[i] = await sendCheckedScan(ctx, { ...scan, pkg: pkg ?? scan.pkg });
        }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_SCANS_IN_FLIGHT, pending.length) }, worker));
    return { result: true as const, scans: answers };
  },
});
