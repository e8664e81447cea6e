/**
 * The wallet (docs/customer-services.md, "The wallet: a ledger"): customers' wallets as a double-entry ledger.
 * Transfers happen once per key, no wallet goes below zero, holds are posted or voided once. The paying modules
 * (shipping-orders, storage, shipouts) call `transfer`, `postHold`, `voidHold` and `walletAvailable` with their
 * own `em`, inside their transaction. Customers read their wallet with get_account_credits; staff top it up.
 */
import { defineModule } from '../../platform/module.ts';
import { WALLET_ERRORS } from './errorCodes.ts';
export { fail as failPayment } from './errorCodes.ts';
import { WALLET_MESSAGES } from './messages.ts';
import { WALLET_OPERATIONS } from './operations/wallet.ts';

export {
  transfer,
  postHold,
  voidHold,
  walletAvailable,
  type LedgerSide,
  type TransferCode,
  type TransferInput,
  type TransferRow,
  type TransferResult,
  type PostHoldInput,
  type VoidHoldInput,
} from './ledger.ts';

export const wallet = defineModule({
  name: 'wallet',
  tags: {
    Wallet:
      "Customers' wallets: a double-entry ledger in the business's customer-services currency. Customers read their balance, available and held amounts and newest entries; client admins top a wallet up (once per idempotency key) and staff read any customer's wallet.",
  },
  operations: WALLET_OPERATIONS,
  messages: WALLET_MESSAGES,
  errorCodes: WALLET_ERRORS,
});
