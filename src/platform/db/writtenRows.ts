import type { Em } from './orm.ts';

/** Rows the current transaction wrote, by table (PostgreSQL's own per-transaction counts, savepoints included). */
export async function rowsWrittenInTransaction(em: Em): Promise<{ table: string; inserted: number; updated: number; deleted: number }[]> {
  return em.execute(
    `select relname as table, n_tup_ins::int as inserted, n_tup_upd::int as updated, n_tup_del::int as deleted
     from pg_stat_xact_user_tables where n_tup_ins + n_tup_upd + n_tup_del > 0 order by relname`);
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
export async function outboxRowsAfter(em: Em, afterId: number): Promise<{ event_id: string; event_type: string; reference_type: string; reference_id: string }[]> {
  return em.execute('select event_id, event_type, reference_type, reference_id from outbox_event where id > ? order by id', [afterId]);
}
