/**
 * One customer's storage fees, in one transaction (docs/customer-services.md, "The storage fee run"): the periods
 * due inserted as fee rows, then one balancing wallet transfer per currency of everything owed, then the fees
 * marked paid oldest first up to what moved; the rest stays owed. A customer whose storage prices are hidden is
 * charged `offline`: the rows are written, nothing is taken from the wallet.
 */
import type { Em } from '../../platform/db/orm.ts';
import { AppError } from '../../platform/errors.ts';
import { pricesHiddenFrom } from '../orders/index.ts';
import { transfer, walletAvailable } from '../wallet/index.ts';
import { insertDueFees, lockCustomerFees, markFeesPaid, owedByCurrency, walletOwed } from './repo/fees.ts';

export interface CustomerCharge {
  fees: number;
  transfers: number;
}

/** Charges the customer what is due and collects what is owed; `em` must be in the customer's transaction. */
export async function chargeCustomer(em: Em, businessId: number, customerId: number): Promise<CustomerCharge> {
  await lockCustomerFees(em, customerId);
  const hidden = await pricesHiddenFrom(em, { id: customerId, role: 'customer' }, 'storage_services');
  const inserted = await insertDueFees(em, {
    businessId,
    customerId,
    settle: hidden ? 'offline' : 'wallet',
  });
  const fees = inserted.reduce((n, c) => n + c.fees, 0);
  if (hidden) return { fees, transfers: 0 };

  const newestNew = new Map(inserted.map((c) => [c.currency, c.newest]));
  let transfers = 0;
  for (const owed of await walletOwed(em, businessId, customerId)) {
    if ((await walletAvailable(em, businessId, customerId, owed.currency)) <= 0n) continue;
    // New fees name the transfer after the newest of them; a later collection of what stayed owed after the newest
    // fee and what its fees had been paid by then, which every collection raises: each key is used once.
    const fresh = newestNew.get(owed.currency);
    const key = fresh ? `fee-${customerId}-${fresh}` : `fee-${customerId}-${owed.newest}-${owed.paid}`;
    let moved;
    try {
      moved = await transfer(em, {
        businessId,
        key,
        currency: owed.currency,
        code: 'storage_fee',
        amount: owed.owed,
        debit: { kind: 'wallet', customerId },
        credit: { kind: 'revenue' },
        balancing: true,
        reference: { type: 'storage_fee', id: fresh ?? owed.newest },
      });
    } catch (err) {
      // The wallet was emptied between the read and the lock: nothing moved, everything stays owed.
      if (err instanceof AppError && err.code === 'INSUFFICIENT_FUNDS') continue;
      throw err;
    }
    transfers += 1;
    await markFeesPaid(em, {
      businessId,
      customerId,
      currency: owed.currency,
      amount: moved.transfer.amount,
      transferId: moved.transfer.id,
    });
  }
  return { fees, transfers };
}

/**
 * What the customer owes in storage fees from the wallet, per currency (get_account_credits shows it, and
 * `in_arrears` while any is above 0). Fees settled offline (hidden prices) are the business's to collect: not here.
 */
export const owedOf = (em: Em, businessId: number, customerId: number): Promise<Map<string, bigint>> =>
  owedByCurrency(em, businessId, customerId);
