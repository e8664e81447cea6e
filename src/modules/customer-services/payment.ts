/**
 * A customer order's money in the wallet (docs/customer-services.md, "The wallet: a ledger"): paid or held from the
 * customer's wallet as a balancing transfer, or given back to it, each one transfer under the order's own key inside
 * the caller's transaction. Shipping orders, storage and ship-outs move their money through these.
 */
import type { Em } from '../../platform/db/orm.ts';
import { transfer, type TransferRow } from '../wallet/index.ts';

export interface OrderMoney {
  businessId: number;
  customerId: number;
  /** The transfer's idempotency key: a retry with it moves nothing more. */
  key: string;
  currency: string;
  /** Minor units: the most a payment or hold moves; what a refund gives back. */
  amount: bigint;
  /** The order the transfer names (its type: shipping_order, storage_order, shipout). */
  reference: { type: string; id: number };
}

/**
 * Pays from the wallet to revenue (a hold when `hold`: pending until posted or voided), balancing: what the wallet
 * has available, up to `amount`; INSUFFICIENT_FUNDS when it has nothing. Answers the transfer (what moved).
 */
export async function payFromWallet(tx: Em, m: OrderMoney, opts: { hold?: boolean } = {}): Promise<TransferRow> {
  const { transfer: moved } = await transfer(tx, {
    businessId: m.businessId,
    key: m.key,
    currency: m.currency,
    code: opts.hold ? 'hold' : 'payment',
    amount: m.amount,
    debit: { kind: 'wallet', customerId: m.customerId },
    credit: { kind: 'revenue' },
    balancing: true,
    ...(opts.hold ? { pending: true } : {}),
    reference: { type: m.reference.type, id: String(m.reference.id) },
  });
  return moved;
}

/** Gives `amount` back from revenue to the wallet, once per key; nothing when the wallet paid nothing. */
export async function refundToWallet(tx: Em, m: OrderMoney): Promise<void> {
  if (m.amount <= 0n) return;
  await transfer(tx, {
    businessId: m.businessId,
    key: m.key,
    currency: m.currency,
    code: 'refund',
    amount: m.amount,
    debit: { kind: 'revenue' },
    credit: { kind: 'wallet', customerId: m.customerId },
    reference: { type: m.reference.type, id: String(m.reference.id) },
  });
}
