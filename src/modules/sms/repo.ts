/** Data access: SQL only, with typed rows (table sms_message: the ledger of sends, and the sandbox's record). */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { SealedColumn } from '../../platform/secretBox.ts';

/** The sandbox's texts carry verification codes: sealed at rest and re-sealed by a key rotation. */
export const SEALED_SMS_TEXT: SealedColumn = { table: 'sms_message', column: 'sealed_text' };

export interface LedgerRow {
  status: 'sending' | 'sent';
  provider_message_id: string | null;
}

/** Claims the idempotency key for this message, or answers the row of the send that claimed it first. */
export async function claimMessage(
  em: Em,
  m: { idempotencyKey: string; provider: string; to: string; purpose: string },
): Promise<LedgerRow> {
  const rows = await executeBound<LedgerRow>(
    em,
    `with claimed as (
       insert into sms_message (idempotency_key, provider, to_number, purpose) values ($1, $2, $3, $4)
       on conflict (idempotency_key) do nothing returning status, provider_message_id
     )
     select status, provider_message_id from claimed
     union all
     select status, provider_message_id from sms_message where idempotency_key = $1
     limit 1`,
    [m.idempotencyKey, m.provider, m.to, m.purpose],
  );
  return rows[0]!;
}

export async function markSent(
  em: Em,
  idempotencyKey: string,
  providerMessageId: string,
  sealedText: string | null,
): Promise<void> {
  await executeBound(
    em,
    `update sms_message set status = 'sent', provider_message_id = $2, sealed_text = $3, sent_at = now()
     where idempotency_key = $1`,
    [idempotencyKey, providerMessageId, sealedText],
  );
}

export interface SandboxRow {
  id: number;
  to_number: string;
  purpose: string;
  sealed_text: string;
  provider_message_id: string;
  /** As the driver reads it (text). */
  sent_at: string;
}

/** The sandbox's messages, newest first, to one number when `to` is given. */
export async function sandboxMessages(
  em: Em,
  to: string | null,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: SandboxRow[] }> {
  const where = `provider = 'sandbox' and status = 'sent' and ($1::text is null or to_number = $1)`;
  const [count] = await executeBound<{ n: number }>(em, `select count(*)::int as n from sms_message where ${where}`, [
    to,
  ]);
  const rows = await executeBound<SandboxRow>(
    em,
    `select id::int as id, to_number, purpose, sealed_text, provider_message_id, sent_at from sms_message
     where ${where} order by id desc limit $2 offset $3`,
    [to, limit, offset],
  );
  return { total: count!.n, rows };
}
