import type { Em } from './orm.ts';

export type TableWrites = { table: string; inserted: number; updated: number; deleted: number };

/**
 * Rows written by table, as PostgreSQL counts them for this connection (`pg_stat_xact_user_tables`). Those counts
 * also hold earlier transactions of the same pooled connection whose statistics are not flushed yet, so a
 * transaction's own writes are the difference between a reading at its start and one at its end (no flush
 * happens inside a transaction).
 */
export async function tableWriteCounts(em: Em): Promise<TableWrites[]> {
  return em.execute(
    `select relname as table, n_tup_ins::int as inserted, n_tup_upd::int as updated, n_tup_del::int as deleted
     from pg_stat_xact_user_tables where n_tup_ins + n_tup_upd + n_tup_del > 0 order by relname`,
  );
}

/** What `after` counts beyond `before`, by table; tables with no new writes left out. */
export function writesBetween(before: readonly TableWrites[], after: readonly TableWrites[]): TableWrites[] {
  const base = new Map(before.map((b) => [b.table, b]));
  return after
    .map((a) => {
      const b = base.get(a.table);
      return {
        table: a.table,
        inserted: a.inserted - (b?.inserted ?? 0),
        updated: a.updated - (b?.updated ?? 0),
        deleted: a.deleted - (b?.deleted ?? 0),
      };
    })
    .filter((d) => d.inserted + d.updated + d.deleted > 0);
}

/** The newest outbox row this transaction's snapshot sees. */
export async function outboxHighWater(em: Em): Promise<number> {
  const [row] = await em.execute<{ id: string }[]>('select coalesce(max(id), 0)::text as id from outbox_event');
  return Number(row!.id);
}

/**
 * The outbox rows after `afterId` that this transaction sees. Under REPEATABLE READ, with `afterId` read in the same
 * snapshot, those are exactly the rows the transaction wrote itself: no other transaction's row becomes visible.
 */
export async function outboxRowsAfter(
  em: Em,
  afterId: number,
): Promise<{ event_id: string; event_type: string; reference_type: string; reference_id: string }[]> {
  return em.execute(
    'select event_id, event_type, reference_type, reference_id from outbox_event where id > ? order by id',
    [afterId],
  );
}
