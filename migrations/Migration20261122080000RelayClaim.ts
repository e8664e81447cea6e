import { Migration } from '@mikro-orm/migrations';

/**
 * The relay now sends a batch's first attempts inside the transaction that claimed its events, and writes the
 * deliveries afterwards (docs/webhooks.md, "Path of an event").
 * - `key_seed`: a random seed per event, from which each delivery's key derives (src/webhooks/fanOut.ts). A relay
 *   that dies between sending and writing leaves the event unpublished; the next relay sends it again under the
 *   same key, so receivers deduplicating on it see one event. Added without rewriting the table under an
 *   exclusive lock (a volatile default would): new events get one by default, unpublished ones are given one,
 *   and published ones, which are never claimed again, keep none.
 * - `claim_outbox(n, idle_limit)`: the claim, walking the pending index in id order. After a burst the
 *   statistics still describe a small table, and the planner's own choice (a bitmap scan that reads and sorts
 *   every pending row, and can never mark published ones dead in the index) makes each claim cost as much as
 *   the whole backlog. It also bounds how long the claiming transaction may sit idle, so that the claim of a
 *   relay whose host vanished without closing its connection is released then, not when TCP gives up.
 */
export class Migration20261122080000RelayClaim extends Migration {
  override up(): void {
    this.addSql(`
      alter table outbox_event add column key_seed uuid;
      alter table outbox_event alter column key_seed set default gen_random_uuid();
      update outbox_event set key_seed = gen_random_uuid() where published_at is null;
      create function claim_outbox(n integer, idle_limit text) returns setof outbox_event
        language plpgsql set enable_bitmapscan = off set enable_seqscan = off as $$
      begin
        perform set_config('idle_in_transaction_session_timeout', idle_limit, true);
        return query select * from outbox_event where published_at is null order by id limit n for update skip locked;
      end $$;
    `);
  }
}
