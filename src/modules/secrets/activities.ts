import type { Orm } from '../../platform/db/orm.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  openSecret,
  purposeOf,
  sealSecret,
  sealedKeyId,
  sealingKeyId,
  sealedColumns,
  type SealedColumn,
} from '../../platform/secretBox.ts';
import type { BatchResult, ColumnRef, SecretsActivities } from './contract.ts';
import { readPlainValues, readStoredValues, replaceValues, type StoredValue } from './repo.ts';

/** The new value of each row not yet sealed under the sealing key; values no key opens are named, not changed. */
function reseal(
  c: SealedColumn,
  rows: StoredValue[],
): { changes: { id: number; from: string; to: string }[]; unreadable: string[] } {
  const purpose = purposeOf(c);
  const changes: { id: number; from: string; to: string }[] = [];
  const unreadable: string[] = [];
  for (const row of rows) {
    if (sealedKeyId(row.value) === sealingKeyId()) continue;
    try {
      changes.push({ id: row.id, from: row.value, to: sealSecret(purpose, openSecret(purpose, row.value)) });
    } catch {
      unreadable.push(`${purpose}#${row.id}`);
    }
  }
  return { changes, unreadable };
}

/**
 * The start-up step: seals every value written before sealing existed, in every declared column. One scan of each
 * column (settings and endpoint tables, a row per receiver); safe when several processes start at once.
 */
export async function sealPlainSecrets(orm: Orm, log: Logger): Promise<void> {
  for (const c of sealedColumns()) {
    const em = orm.em.fork();
    const { changes } = reseal(c, await readPlainValues(em, c));
    const sealed = await replaceValues(em, c, changes);
    if (sealed > 0) log.info({ column: purposeOf(c), sealed }, 'sealed secrets stored in plain text');
  }
}

export function createSecretsActivities(deps: { orm: Orm; log: Logger }): SecretsActivities {
  return {
    async secretColumns(): Promise<ColumnRef[]> {
      return [...sealedColumns()];
    },
    /** Re-seals one batch of a column under this worker's sealing key. */
    async resealSecrets(c: ColumnRef, afterId: number, limit: number): Promise<BatchResult> {
      const em = deps.orm.em.fork();
      const rows = await readStoredValues(em, c, afterId, limit);
      const { changes, unreadable } = reseal(c, rows);
      const resealed = await replaceValues(em, c, changes);
      if (unreadable.length) deps.log.error({ unreadable }, 'stored secrets under a key SECRETS_KEY does not hold');
      return { lastId: rows.at(-1)?.id ?? null, scanned: rows.length, resealed, unreadable, keyId: sealingKeyId() };
    },
  };
}
