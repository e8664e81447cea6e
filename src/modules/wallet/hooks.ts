/**
 * The wallet's hook point: what a customer owes the business beside its wallet balance (storage fees its wallet could
 * not pay, docs/customer-services.md), reported by the modules that charge it, so the wallet answer shows `owed` and
 * `in_arrears` without importing them.
 */
import type { Em } from '../../platform/db/orm.ts';
import { hooksOf } from '../../platform/hooks.ts';

/** What one customer owes, per currency (minor units). */
export type WalletOwedHook = (em: Em, businessId: number, customerId: number) => Promise<ReadonlyMap<string, bigint>>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    walletOwed: WalletOwedHook;
  }
}

/** The sum of every module's figure, per currency. */
export async function owedBy(em: Em, businessId: number, customerId: number): Promise<Map<string, bigint>> {
  const total = new Map<string, bigint>();
  for (const hook of hooksOf('walletOwed'))
    for (const [currency, amount] of await hook(em, businessId, customerId))
      total.set(currency, (total.get(currency) ?? 0n) + amount);
  return total;
}
