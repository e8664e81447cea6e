import type { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { SA } from './searchAttributes.ts';

// temporal.api.enums.v1.IndexedValueType
const INDEXED: Record<string, 1 | 2 | 3 | 4 | 5 | 6 | 7> = {
  [SearchAttributeType.TEXT]: 1, [SearchAttributeType.KEYWORD]: 2, [SearchAttributeType.INT]: 3, [SearchAttributeType.DOUBLE]: 4,
  [SearchAttributeType.BOOL]: 5, [SearchAttributeType.DATETIME]: 6, [SearchAttributeType.KEYWORD_LIST]: 7,
};

/** Adds the custom search attributes the namespace lacks; safe to run on every start. */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = Object.values(SA).filter((k) => !(k.name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((k) => [k.name, INDEXED[k.type]!])),
  });
  return missing.map((k) => k.name);
}
