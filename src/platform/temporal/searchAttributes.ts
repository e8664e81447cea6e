import type { Client, Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '../module.ts';

// temporal.api.enums.v1.IndexedValueType
const INDEXED: Record<string, 1 | 2 | 3 | 4 | 5 | 6 | 7> = {
  [SearchAttributeType.TEXT]: 1,
  [SearchAttributeType.KEYWORD]: 2,
  [SearchAttributeType.INT]: 3,
  [SearchAttributeType.DOUBLE]: 4,
  [SearchAttributeType.BOOL]: 5,
  [SearchAttributeType.DATETIME]: 6,
  [SearchAttributeType.KEYWORD_LIST]: 7,
};

/** Adds the custom search attributes the namespace lacks; safe to run on every start. */
export async function registerSearchAttributes(
  connection: Pick<Connection, 'operatorService'>,
  namespace: string,
  keys: readonly SearchAttributeKey[],
): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = keys.filter((k) => !(k.name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((k) => [k.name, INDEXED[k.type]!])),
  });
  return missing.map((k) => k.name);
}

/**
 * A server with a SQL visibility store serves new attributes only after its namespace cache refreshes
 * (about 2 s after registration on Temporal with PostgreSQL). Until every added attribute is accepted in a
 * visibility query, a workflow start carrying it would fail, so the worker and API wait here first.
 */
export async function awaitSearchAttributes(client: Client, names: string[], timeoutMs = 30_000): Promise<void> {
  if (names.length === 0) return;
  const query = names.map((n) => `${n} IS NOT NULL`).join(' AND ');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await client.workflow.count(query);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
