/**
 * Section 16 of `npm run bench`: the wallet's ledger (docs/customer-services.md, "Tests, scenarios and bench").
 * - payments per second on one hot wallet: WALLET_PAYMENTS `transfer()` calls (wallet -> revenue, 0.01 each, a key
 *   of their own, WALLET_IN_FLIGHT in flight, each in its own transaction), against a bare
 *   `update ledger_account set credits_posted = credits_posted + 1 where id = $1 returning ...` of the same account
 *   at the same concurrency: what the key check, the two locks in id order, the transfer row and its two entries
 *   cost over one row's update. Every payment of the hot wallet also waits for the others on its row lock, and so
 *   does every bare update.
 * - the same over 100 wallets, payment i from wallet i mod 100 (the revenue account is still shared by all), against
 *   the bare update of account i mod 100.
 * The storage fee run's figure (a fee run over 100,000 stored packages) is the storage module's: bench/storage.ts.
 */
import type { Em } from '../src/platform/db/orm.ts';
import { executeBound } from '../src/platform/db/orm.ts';
import { transfer } from '../src/modules/wallet/index.ts';
import { makeBusiness } from '../test/helpers/factories.ts';
import { load, type LoadRun } from './load.ts';

export const WALLET_PAYMENTS = Number(process.env.BENCH_WALLET_PAYMENTS ?? 2000);
export const WALLET_IN_FLIGHT = 8;
export const WALLETS = 100;

export interface WalletRun {
  hot: LoadRun;
  hotBare: LoadRun;
  many: LoadRun;
  manyBare: LoadRun;
}

export async function walletBench(em: Em): Promise<WalletRun> {
  const b = await makeBusiness(em);
  const businessId = b.business.id;
  // The hot wallet is the business's customer; 99 more customers make the 100.
  const more = await executeBound<{ id: number }>(
    em,
    `insert into app_user (business_id, email, name, role, password_hash)
     select $1, 'bench-wallet-' || n || '-' || $2 || '@test.example', 'Wallet ' || n, 'customer', 'x'
     from generate_series(1, $3::int) n order by n returning id`,
    [businessId, b.tag, WALLETS - 1],
  );
  const customers = [b.users.customer.id, ...more.map((r) => r.id)];
  const currency = 'USD';
  const enough = BigInt(WALLET_PAYMENTS) * 10n;
  for (const [i, customerId] of customers.entries())
    await transfer(em.fork(), {
      businessId,
      key: `bench-top-${i}`,
      currency,
      code: 'top_up',
      amount: enough,
      debit: { kind: 'funding' },
      credit: { kind: 'wallet', customerId },
    });
  const accounts = await executeBound<{ id: string; customer_id: number }>(
    em,
    `select id::text, customer_id from ledger_account where business_id = $1 and kind = 'wallet'`,
    [businessId],
  );
  const accountOf = new Map(accounts.map((a) => [a.customer_id, a.id]));

  const pay = (round: string, customerOf: (i: number) => number) =>
    load(WALLET_PAYMENTS, WALLET_IN_FLIGHT, async (i) => {
      await transfer(em.fork(), {
        businessId,
        key: `bench-${round}-${i}`,
        currency,
        code: 'payment',
        amount: 1n,
        debit: { kind: 'wallet', customerId: customerOf(i) },
        credit: { kind: 'revenue' },
        reference: { type: 'bench', id: String(i) },
      });
    });
  const bare = (customerOf: (i: number) => number) =>
    load(WALLET_PAYMENTS, WALLET_IN_FLIGHT, async (i) => {
      await executeBound(
        em.fork(),
        'update ledger_account set credits_posted = credits_posted + 1 where id = $1 returning credits_posted, debits_posted',
        [accountOf.get(customerOf(i))],
      );
    });

  const hotCustomer = () => customers[0]!;
  const manyCustomer = (i: number) => customers[i % WALLETS]!;
  // Warm-up: the statements' plans and the pool's connections, for both sides.
  await load(50, WALLET_IN_FLIGHT, async (i) => {
    await transfer(em.fork(), {
      businessId,
      key: `bench-warm-${i}`,
      currency,
      code: 'payment',
      amount: 1n,
      debit: { kind: 'wallet', customerId: manyCustomer(i) },
      credit: { kind: 'revenue' },
    });
  });
  const hotBare = await bare(hotCustomer);
  const hot = await pay('hot', hotCustomer);
  const manyBare = await bare(manyCustomer);
  const many = await pay('many', manyCustomer);
  return { hot, hotBare, many, manyBare };
}
