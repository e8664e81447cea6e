/**
 * Carrier and scanner ingest moving packages (docs/distribution.md): a tracking event at a place of the package's
 * business is a scan of that package, sent to its distribution process like a warehouse scan.
 */
import { createHash } from 'node:crypto';
import type { Em } from '../../platform/db/orm.ts';
import type { OrderCancelledHook } from '../orders/index.ts';
import { actionOfStatus, CODE_PATTERN, placeCandidates, type ScanSource } from './domain.ts';
import { findDistributedPackages, findIngestTargets } from './repo/distributions.ts';
import { sendScan, type ScanSender } from './scanning.ts';

export interface TrackedMove {
  packageNumber: string;
  statusCode: string;
  /** The event's location id (`location.gln`, an EPCIS readPoint or bizLocation). */
  locationId: string;
  occurredAt: Date;
  /** The tracking event's key: the same event sent again is the same scan. */
  key: string;
  source: Extract<ScanSource, 'otep' | 'epcis'>;
}

/** The scan key of a tracking event's key. */
const eventScanKey = (key: string) => `e-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;

/** Packages whose scans are sent at once; each package's own scans go one after another, oldest first. */
const PACKAGES_IN_FLIGHT = 8;

export async function moveByTrackedEvents(ctx: ScanSender & { em: Em }, moves: readonly TrackedMove[]): Promise<void> {
  const candidates = moves.flatMap((m, index) =>
    placeCandidates(m.locationId).map((c, rank) => ({ index, rank, ...c })),
  );
  const found = await findIngestTargets(
    ctx.em,
    candidates.map((c, i) => ({
      i,
      packageNumber: moves[c.index]!.packageNumber,
      identifier: c.identifier,
      sub: c.sub,
    })),
  );
  // Per move, the most exact identifier that names a place of its package's business.
  const best = new Map<number, { rank: number; target: NonNullable<ReturnType<typeof found.get>> }>();
  candidates.forEach((c, i) => {
    const target = found.get(i);
    if (target && (best.get(c.index)?.rank ?? Infinity) > c.rank) best.set(c.index, { rank: c.rank, target });
  });

  const byPackage = new Map<number, (() => Promise<unknown>)[]>();
  const ordered = [...best.entries()].sort(
    ([a], [b]) => moves[a]!.occurredAt.getTime() - moves[b]!.occurredAt.getTime(),
  );
  for (const [index, { target }] of ordered) {
    const move = moves[index]!;
    const action = actionOfStatus(move.statusCode, target.place.kind);
    if (action === null) continue;
    const gridCode = action === 'shelved' && target.place.kind === 'locker' ? target.sub : null;
    const shelfCode =
      action === 'shelved' && target.place.kind === 'store' && target.sub !== null && CODE_PATTERN.test(target.sub)
        ? target.sub.toUpperCase()
        : null;
    // Shelving names its compartment or shelf by the location's sub-location; without one it cannot be applied.
    if (action === 'shelved' && gridCode === null && shelfCode === null) continue;
    const send = () =>
      sendScan(ctx, target.businessId, target.pkg, {
        key: eventScanKey(move.key),
        source: move.source,
        action,
        placeId: target.place.id,
        placeCode: target.place.code,
        deviceCode: target.place.deviceCode,
        destinationId: null,
        destinationCode: null,
        gridCode,
        shelfCode,
        scannedAt: move.occurredAt.toISOString(),
        actorId: null,
      });
    byPackage.set(target.pkg.id, [...(byPackage.get(target.pkg.id) ?? []), send]);
  }
  const queues = [...byPackage.values()];
  const worker = async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) for (const send of queue) await send();
  };
  await Promise.all(Array.from({ length: Math.min(PACKAGES_IN_FLIGHT, queues.length) }, worker));
}

/**
 * A carrier's cancellation of a package takes it off its distribution wherever it stands: a removal at its
 * warehouse with reason `cancelled`, which puts it back on that warehouse's list. Judged like any scan, so a package
 * already shelved keeps its compartment and the cancellation stays on its history, flagged.
 */
export async function removeCancelledPackages(
  ctx: ScanSender & { em: Em },
  cancels: readonly (Omit<TrackedMove, 'statusCode' | 'locationId' | 'source'> & {
    source: Extract<ScanSource, 'otep' | 'epcis' | 'cancellation'>;
  })[],
): Promise<void> {
  const found = await findDistributedPackages(
    ctx.em,
    cancels.map((c) => c.packageNumber),
  );
  for (const c of cancels) {
    const target = found.get(c.packageNumber);
    if (!target) continue;
    const { pkg } = target;
    await sendScan(ctx, target.businessId, pkg, {
      key: eventScanKey(c.key),
      source: c.source,
      action: 'removed',
      placeId: pkg.state.warehouseId!,
      placeCode: pkg.places.warehouse!,
      deviceCode: null,
      destinationId: null,
      destinationCode: null,
      gridCode: null,
      shelfCode: null,
      scannedAt: c.occurredAt.toISOString(),
      actorId: null,
      reason: 'cancelled',
    });
  }
}

/**
 * The orders module's `orderCancelled` hook: once the cancellation has committed, each package of the order still
 * on its distribution is removed like a carrier's cancellation (reason `cancelled`, source `cancellation`), keyed by
 * the cancellation so a retry is the same scan.
 */
export const leaveDistribution: OrderCancelledHook = async (_tx, order, ctx) => {
  return () =>
    removeCancelledPackages(
      ctx,
      order.packageNumbers.map((packageNumber) => ({
        packageNumber,
        occurredAt: ctx.occurredAt,
        key: `order-cancellation-${order.cancellationId}-${packageNumber}`,
        source: 'cancellation' as const,
      })),
    );
};
