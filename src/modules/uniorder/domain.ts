/** Uniorder's limits and rate kinds (docs/uniorder.md), pure. */

/** Items in one synchronous batch call. */
export const BATCH_LIMIT = 20;

/** Label purchases (or rate items) run at once per carrier in a batch. */
export const UNIORDER_CARRIER_CONCURRENCY = 4;

export type RateKind = 'self_delivery' | 'label';

/** The kind of order a rate id creates, by its prefix; null for an id of neither form. */
export function kindOfRateId(rateId: string): RateKind | null {
  if (rateId.startsWith('sr_')) return 'self_delivery';
  if (rateId.startsWith('lr_')) return 'label';
  return null;
}

export const SELF_SERVICE_NAMES: Record<'D' | 'P' | 'P2P', string> = {
  D: 'Local delivery',
  P: 'Local collection',
  P2P: 'Local peer-to-peer delivery',
};

/** Runs `work` over the items with at most `limit` at once; answers in input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  });
  await Promise.all(runners);
  return out;
}
