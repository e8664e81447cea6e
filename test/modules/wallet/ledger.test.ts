/**
 * The ledger called directly, as the paying modules call it (docs/customer-services.md, "Transfers"): a balancing
 * payment moves what is there; a payment the wallet cannot cover is INSUFFICIENT_FUNDS with nothing written; keys
 * answer their first transfer or TRANSFER_KEY_REUSED; holds are posted or voided once; a transfer joins the caller's
 * transaction; no account column passes 10^15 minor units; two settles of one key at once answer one transfer;
 * and 50 concurrent payments on one wallet keep every invariant.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  postHold,
  transfer,
  voidHold,
  walletAvailable,
  type TransferInput,
} from '../../../src/modules/wallet/index.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness } from '../../helpers/factories.ts';
import { assertLedgerInvariants, ledgerCounts } from './world.ts';

const CURRENCY = 'USD';

describe('the ledger', () => {
  let app: TestApp;
  let businessId: number;
  let customerId: number;
  let otherCustomerId: number;

  before(async () => {
    app = await startApp();
    const b = await makeBusiness(app.em());
    businessId = b.business.id;
    customerId = b.users.customer.id;
    otherCustomerId = (await makeBusiness(app.em())).users.customer.id;
  });
  after(() => app.running.close());

  const topUp = (business: number, customer: number, amount: bigint, key = `top-${randomUUID()}`) =>
    transfer(app.em(), {
      businessId: business,
      key,
      currency: CURRENCY,
      code: 'top_up',
      amount,
      debit: { kind: 'funding' },
      credit: { kind: 'wallet', customerId: customer },
    });

  const payment = (
    business: number,
    customer: number,
    amount: bigint,
    key: string,
    extra: Partial<TransferInput> = {},
  ) =>
    transfer(app.em(), {
      businessId: business,
      key,
      currency: CURRENCY,
      code: 'payment',
      amount,
      debit: { kind: 'wallet', customerId: customer },
      credit: { kind: 'revenue' },
      reference: { type: 'test_order', id: key },
      ...extra,
    });

  const refusal = (code: string) => (e: unknown) => e instanceof AppError && e.code === code;

  test('a top-up credits the wallet once per key; other fields with the key are TRANSFER_KEY_REUSED', async () => {
    const first = await topUp(businessId, customerId, 5000n, 'top-1');
    assert.equal(first.repeated, false);
    assert.equal(first.transfer.amount, 5000n);
    assert.equal(first.transfer.state, 'posted');
    const again = await topUp(businessId, customerId, 5000n, 'top-1');
    assert.equal(again.repeated, true);
    assert.equal(again.transfer.id, first.transfer.id);
    assert.equal(await walletAvailable(app.em(), businessId, customerId, CURRENCY), 5000n);
    await assert.rejects(topUp(businessId, customerId, 5001n, 'top-1'), refusal('TRANSFER_KEY_REUSED'));
    await assert.rejects(topUp(businessId, otherCustomerId, 5000n, 'top-1'), refusal('TRANSFER_KEY_REUSED'));
    assert.equal(await walletAvailable(app.em(), businessId, customerId, CURRENCY), 5000n);
    await assertLedgerInvariants(app.em(), businessId);
  });

  test('a balancing payment moves what is there; a repeat compares the amount asked', async () => {
    const b = await makeBusiness(app.em());
    const [bid, cid] = [b.business.id, b.users.customer.id];
    await topUp(bid, cid, 1000n);
    const paid = await payment(bid, cid, 1500n, 'so-1-pay-0', { balancing: true });
    assert.equal(paid.transfer.amount, 1000n, 'moves the 10.00 there, not the 15.00 asked');
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 0n);
    const again = await payment(bid, cid, 1500n, 'so-1-pay-0', { balancing: true });
    assert.deepEqual([again.repeated, again.transfer.amount, again.transfer.id], [true, 1000n, paid.transfer.id]);
    await assert.rejects(
      payment(bid, cid, 1000n, 'so-1-pay-0', { balancing: true }),
      refusal('TRANSFER_KEY_REUSED'),
      'the amount moved is not the amount asked',
    );
    await assert.rejects(payment(bid, cid, 1500n, 'so-1-pay-0'), refusal('TRANSFER_KEY_REUSED'), 'not balancing');
    const before = await ledgerCounts(app.em(), bid);
    await assert.rejects(payment(bid, cid, 100n, 'so-1-pay-1', { balancing: true }), refusal('INSUFFICIENT_FUNDS'));
    assert.deepEqual(await ledgerCounts(app.em(), bid), before, 'nothing written');
    await assertLedgerInvariants(app.em(), bid);
  });

  test('a payment above the available amount is INSUFFICIENT_FUNDS and writes nothing; the key stays free', async () => {
    const b = await makeBusiness(app.em());
    const [bid, cid] = [b.business.id, b.users.customer.id];
    await assert.rejects(payment(bid, cid, 1n, 'empty-wallet'), refusal('INSUFFICIENT_FUNDS'), 'a wallet never used');
    await topUp(bid, cid, 999n);
    const before = await ledgerCounts(app.em(), bid);
    await assert.rejects(payment(bid, cid, 1000n, 'too-much'), refusal('INSUFFICIENT_FUNDS'));
    assert.deepEqual(await ledgerCounts(app.em(), bid), before, 'no transfer, no entry, no balance moved');
    await topUp(bid, cid, 1n);
    const later = await payment(bid, cid, 1000n, 'too-much');
    assert.deepEqual([later.repeated, later.transfer.amount], [false, 1000n], 'a refused key can be used later');
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 0n);
    await assertLedgerInvariants(app.em(), bid);
  });

  test('a refund takes the revenue account below zero, which the business may', async () => {
    const b = await makeBusiness(app.em());
    const refund = await transfer(app.em(), {
      businessId: b.business.id,
      key: 'so-9-refund',
      currency: CURRENCY,
      code: 'refund',
      amount: 250n,
      debit: { kind: 'revenue' },
      credit: { kind: 'wallet', customerId: b.users.customer.id },
    });
    assert.equal(refund.transfer.amount, 250n);
    assert.equal(await walletAvailable(app.em(), b.business.id, b.users.customer.id, CURRENCY), 250n);
    await assertLedgerInvariants(app.em(), b.business.id);
  });

  test('holds: held money is not available; posted (partly) or voided once; HOLD_NOT_PENDING after', async () => {
    const b = await makeBusiness(app.em());
    const [bid, cid] = [b.business.id, b.users.customer.id];
    await topUp(bid, cid, 5000n);
    const hold = await payment(bid, cid, 2000n, 'sho-1-pay-0', { pending: true, code: 'hold' });
    assert.deepEqual([hold.transfer.state, hold.transfer.amount], ['pending', 2000n]);
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 3000n);
    await assert.rejects(payment(bid, cid, 3001n, 'over-held'), refusal('INSUFFICIENT_FUNDS'));
    await assertLedgerInvariants(app.em(), bid);

    await assert.rejects(
      postHold(app.em(), { businessId: bid, key: 'sho-1-post', holdKey: 'sho-1-pay-0', amount: 2001n }),
      refusal('VALIDATION_FAILED'),
      'at most the hold',
    );
    const posted = await postHold(app.em(), {
      businessId: bid,
      key: 'sho-1-post',
      holdKey: 'sho-1-pay-0',
      amount: 1500n,
    });
    assert.deepEqual([posted.transfer.code, posted.transfer.amount, posted.repeated], ['hold_post', 1500n, false]);
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 3500n, 'the 5.00 not posted came back');
    const again = await postHold(app.em(), {
      businessId: bid,
      key: 'sho-1-post',
      holdKey: 'sho-1-pay-0',
      amount: 1500n,
    });
    assert.deepEqual([again.repeated, again.transfer.id], [true, posted.transfer.id]);
    await assert.rejects(
      postHold(app.em(), { businessId: bid, key: 'sho-1-post-2', holdKey: 'sho-1-pay-0' }),
      refusal('HOLD_NOT_PENDING'),
    );
    await assert.rejects(
      voidHold(app.em(), { businessId: bid, key: 'sho-1-void', holdKey: 'sho-1-pay-0' }),
      refusal('HOLD_NOT_PENDING'),
    );
    const holdAgain = await payment(bid, cid, 2000n, 'sho-1-pay-0', { pending: true, code: 'hold' });
    assert.deepEqual([holdAgain.repeated, holdAgain.transfer.state], [true, 'posted'], 'the hold reads posted now');
    await assertLedgerInvariants(app.em(), bid);

    await payment(bid, cid, 1000n, 'sho-2-pay-0', { pending: true, code: 'hold' });
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 2500n);
    const voided = await voidHold(app.em(), { businessId: bid, key: 'sho-2-void', holdKey: 'sho-2-pay-0' });
    assert.deepEqual(
      [voided.transfer.code, voided.transfer.state, voided.transfer.amount],
      ['hold_void', 'voided', 1000n],
    );
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 3500n, 'all of it is available again');
    assert.equal(
      (await voidHold(app.em(), { businessId: bid, key: 'sho-2-void', holdKey: 'sho-2-pay-0' })).repeated,
      true,
    );
    await assert.rejects(
      voidHold(app.em(), { businessId: bid, key: 'sho-2-void-2', holdKey: 'sho-2-pay-0' }),
      refusal('HOLD_NOT_PENDING'),
    );
    await assert.rejects(
      postHold(app.em(), { businessId: bid, key: 'sho-2-post', holdKey: 'sho-2-pay-0' }),
      refusal('HOLD_NOT_PENDING'),
    );
    await assert.rejects(
      voidHold(app.em(), { businessId: bid, key: 'sho-3-void', holdKey: 'no-such-hold' }),
      refusal('NOT_FOUND'),
    );

    // A post and a void of the same hold at once: one settles it, the other finds it settled.
    await payment(bid, cid, 500n, 'sho-4-pay-0', { pending: true, code: 'hold' });
    const race = await Promise.allSettled([
      postHold(app.em(), { businessId: bid, key: 'sho-4-post', holdKey: 'sho-4-pay-0' }),
      voidHold(app.em(), { businessId: bid, key: 'sho-4-void', holdKey: 'sho-4-pay-0' }),
    ]);
    assert.equal(race.filter((o) => o.status === 'fulfilled').length, 1, JSON.stringify(race.map((o) => o.status)));
    const lost = race.find((o) => o.status === 'rejected')!;
    assert.ok(refusal('HOLD_NOT_PENDING')(lost.reason), String(lost.reason));
    await assertLedgerInvariants(app.em(), bid);
  });

  test('two settles of one hold with the same key at once answer the same transfer', async () => {
    const b = await makeBusiness(app.em());
    const [bid, cid] = [b.business.id, b.users.customer.id];
    await topUp(bid, cid, 3000n);
    for (const [i, settle] of [
      [1, postHold],
      [2, voidHold],
    ] as const) {
      await payment(bid, cid, 1000n, `sho-${i}-pay-0`, { pending: true, code: 'hold' });
      const both = await Promise.all(
        [0, 1].map(() => settle(app.em(), { businessId: bid, key: `sho-${i}-settle`, holdKey: `sho-${i}-pay-0` })),
      );
      assert.equal(both[0]!.transfer.id, both[1]!.transfer.id, 'one transfer');
      assert.deepEqual(both.map((r) => r.repeated).sort(), [false, true], 'written once, answered again once');
    }
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 2000n, '10.00 posted, 10.00 voided');
    await assertLedgerInvariants(app.em(), bid);
  });

  test('a transfer that would take an account column above 10^15 minor units is 422 on amount, nothing written', async () => {
    const b = await makeBusiness(app.em());
    const [bid, cid] = [b.business.id, b.users.customer.id];
    const ceiling = 10n ** 15n;
    await topUp(bid, cid, ceiling - 1000n);
    const before = await ledgerCounts(app.em(), bid);
    const overCeiling = (e: unknown) =>
      refusal('VALIDATION_FAILED')(e) && (e as AppError).fields?.[0]?.field === 'amount';
    for (let i = 0; i < 3; i++) await assert.rejects(topUp(bid, cid, 1001n), overCeiling, `top-up ${i}`);
    assert.deepEqual(await ledgerCounts(app.em(), bid), before, 'nothing written');
    await topUp(bid, cid, 1000n);
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), ceiling, 'up to the ceiling itself');
    await assert.rejects(topUp(bid, cid, 1n), overCeiling, 'the wallet is full');
    await assertLedgerInvariants(app.em(), bid);

    // Revenue's credits count posted and held alike, so a hold's later post can never pass the ceiling. Money goes
    // round: paid in by one wallet, refunded to a second (the ledger takes any account as a wallet's owner).
    const r = await makeBusiness(app.em());
    const [rid, first, second] = [r.business.id, r.users.customer.id, r.users.broker.id];
    const half = 6n * 10n ** 14n;
    await topUp(rid, first, half);
    await payment(rid, first, half, 'in');
    await transfer(app.em(), {
      businessId: rid,
      key: 'round',
      currency: CURRENCY,
      code: 'refund',
      amount: half,
      debit: { kind: 'revenue' },
      credit: { kind: 'wallet', customerId: second },
    });
    await payment(rid, second, ceiling - half - 100n, 'near');
    await payment(rid, second, 60n, 'big-hold', { pending: true, code: 'hold' });
    await assert.rejects(payment(rid, second, 41n, 'over'), overCeiling, 'revenue: posted + held + 41 > ceiling');
    await payment(rid, second, 40n, 'to-ceiling');
    await postHold(app.em(), { businessId: rid, key: 'big-hold-post', holdKey: 'big-hold' });
    await assertLedgerInvariants(app.em(), rid);
  });

  test("a transfer joins the caller's transaction: rolled back with it", async () => {
    const b = await makeBusiness(app.em());
    const [bid, cid] = [b.business.id, b.users.customer.id];
    await assert.rejects(
      app.em().transactional(async (em) => {
        await transfer(em, {
          businessId: bid,
          key: 'in-tx',
          currency: CURRENCY,
          code: 'top_up',
          amount: 700n,
          debit: { kind: 'funding' },
          credit: { kind: 'wallet', customerId: cid },
        });
        assert.equal(await walletAvailable(em, bid, cid, CURRENCY), 700n, 'seen inside the transaction');
        throw new Error('the caller fails after the transfer');
      }),
      /the caller fails/,
    );
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 0n);
    assert.equal((await ledgerCounts(app.em(), bid)).transfers, '0');
  });

  test('50 concurrent payments on one wallet: each key applied once, no wallet below zero, debits = credits', async () => {
    const b = await makeBusiness(app.em());
    const [bid, cid] = [b.business.id, b.users.customer.id];
    await topUp(bid, cid, 10_000n);
    // 30 distinct keys of 7.00 and 20 repeats of some of them: 100.00 covers 14 payments of 7.00.
    const keys = [
      ...Array.from({ length: 30 }, (_, i) => `pay-${i}`),
      ...Array.from({ length: 20 }, (_, i) => `pay-${(i * 3) % 30}`),
    ];
    const outcomes = await Promise.allSettled(keys.map((key) => payment(bid, cid, 700n, key)));
    const applied = new Set<number>();
    let fresh = 0;
    for (const o of outcomes) {
      if (o.status === 'rejected') {
        assert.ok(refusal('INSUFFICIENT_FUNDS')(o.reason), String(o.reason));
        continue;
      }
      applied.add(o.value.transfer.id);
      if (!o.value.repeated) fresh++;
    }
    assert.equal(fresh, 14, 'fourteen payments moved money');
    assert.equal(applied.size, 14, 'every repeat answered one of them');
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 200n);
    await assertLedgerInvariants(app.em(), bid);

    // Then balancing payments of 0.75 race for the 2.00 left: 0.75, 0.75 and the 0.50 there; the rest refused.
    const balancing = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => payment(bid, cid, 75n, `bal-${i}`, { balancing: true })),
    );
    const moved = balancing.flatMap((o) => (o.status === 'fulfilled' ? [o.value.transfer.amount] : []));
    assert.deepEqual(moved.sort(), [50n, 75n, 75n]);
    for (const o of balancing) if (o.status === 'rejected') assert.ok(refusal('INSUFFICIENT_FUNDS')(o.reason));
    assert.equal(await walletAvailable(app.em(), bid, cid, CURRENCY), 0n);
    await assertLedgerInvariants(app.em(), bid);
  });
});
