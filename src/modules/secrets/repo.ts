import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { SealedColumn } from '../../platform/secretBox.ts';

/** Table and column names come from module declarations, never from a request; still, only plain names pass. */
function names(c: SealedColumn): { table: string; column: string } {
  for (const n of [c.table, c.column]) if (!/^[a-z_][a-z0-9_]*$/.test(n)) throw new Error(`not a plain SQL name: ${n}`);
  return { table: `"${c.table}"`, column: `"${c.column}"` };
}

export interface StoredValue {
  id: number;
  value: string;
}

/** The next rows after `afterId` that hold a value, in id order. */
export async function readStoredValues(
  em: Em,
  c: SealedColumn,
  afterId: number,
  limit: number,
): Promise<StoredValue[]> {
  const { table, column } = names(c);
  return executeBound<StoredValue>(
    em,
    `select id::int as id, ${column} as value from ${table} where id > $1 and ${column} is not null order by id limit $2`,
    [afterId, limit],
  );
}

/** Rows holding a value stored before sealing existed (plain text). */
export async function readPlainValues(em: Em, c: SealedColumn): Promise<StoredValue[]> {
  const { table, column } = names(c);
  return executeBound<StoredValue>(
    em,
    `select id::int as id, ${column} as value from ${table} where ${column} is not null and ${column} not like 'tms1.%' order by id`,
    [],
  );
}

/**
 * Writes the new values in one statement, each only where the row still holds the value it was read with, so a
 * secret changed meanwhile (a user's new secret, another process's re-seal) is never overwritten. Answers how many
 * rows changed.
 */
export async function replaceValues(
  em: Em,
  c: SealedColumn,
  changes: { id: number; from: string; to: string }[],
): Promise<number> {
  if (changes.length === 0) return 0;
  const { table, column } = names(c);
  const rows = await executeBound<{ id: number }>(
    em,
    `update ${table} t set ${column} = v.next from unnest($1::bigint[], $2::text[], $3::text[]) as v(id, old, next)
     where t.id = v.id and t.${column} = v.old returning t.id`,
    [changes.map((x) => x.id), changes.map((x) => x.from), changes.map((x) => x.to)],
  );
  return rows.length;
}
