/**
 * Bearer keys for machines (a carrier's ingest, a locker, a warehouse scanner): each kind is a table of the same
 * columns (key_id, business_id, created_by, name, secret_hash, created_at, last_used_at, revoked_at), plus, when a
 * key is for one thing of the business rather than the whole of it, the column of that thing (device_id,
 * place_id). The secret is shown once and only its SHA-256 is stored: it is 256 random bits, so a fast hash is
 * enough. A key stands for the user who made it, and its last use is written at most once a minute.
 */
import { randomBytes } from 'node:crypto';
import type { Caller, CredentialUse } from '../catalog/types.ts';
import type { Role } from '../roles.ts';
import { sha256Hex } from '../secrets.ts';
import type { Em } from './orm.ts';

export interface KeyTable {
  /** The table; a constant of the code, never input. */
  table: string;
  /** Starts every secret of the kind, so a bearer token is looked up in one table only. */
  secretPrefix: string;
  /** Starts every key id of the kind. */
  idPrefix: string;
  /** Most unrevoked keys one owner (or, without owners, one business) may hold. */
  max: number;
  /** What a key is for, when less than the whole business: its column, and the table and code column of that thing. */
  owner?: { column: string; table: string; code: string };
}

export interface KeyView {
  key_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Who stands behind a key (the user who made it), and the thing it is for. */
export interface KeyHolder {
  caller: Caller;
  owner: { id: number; code: string } | null;
}

interface KeyRow {
  key_id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const present = (r: KeyRow): KeyView => ({
  key_id: r.key_id,
  name: r.name,
  created_at: iso(r.created_at)!,
  last_used_at: iso(r.last_used_at),
  revoked_at: iso(r.revoked_at),
});
const COLUMNS = 'k.key_id, k.name, k.created_at, k.last_used_at, k.revoked_at';

export function keyStore(t: KeyTable) {
  const ownerColumn = t.owner?.column;
  /** The rows of one owner (`ownerId`) or, without owners, of the business. */
  const scope = (alias: string) =>
    ownerColumn ? `${alias}.${ownerColumn} = ? and ${alias}.business_id = ?` : `${alias}.business_id = ?`;
  const scopeArgs = (businessId: number, ownerId?: number) => (ownerColumn ? [ownerId!, businessId] : [businessId]);

  return {
    /** A new key with its secret; null when the owner already holds `max` unrevoked keys (counted under a lock of the owner's keys). */
    create(
      em: Em,
      k: { businessId: number; ownerId?: number; userId: number; name: string },
    ): Promise<(KeyView & { secret: string }) | null> {
      return em.transactional(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(hashtext(?), ?)', [t.table, k.ownerId ?? k.businessId]);
        const keyId = `${t.idPrefix}${randomBytes(8).toString('hex')}`;
        const secret = `${t.secretPrefix}${randomBytes(32).toString('base64url')}`;
        const [row] = await tx.execute<KeyRow[]>(
          `insert into ${t.table} as k (key_id, business_id, created_by, name, secret_hash${ownerColumn ? `, ${ownerColumn}` : ''})
           select ?, ?, ?, ?, ?${ownerColumn ? ', ?' : ''} where (select count(*) from ${t.table} k where ${scope('k')} and k.revoked_at is null) < ?
           returning ${COLUMNS}`,
          [
            keyId,
            k.businessId,
            k.userId,
            k.name,
            sha256Hex(secret),
            ...(ownerColumn ? [k.ownerId!] : []),
            ...scopeArgs(k.businessId, k.ownerId),
            t.max,
          ],
        );
        return row ? { ...present(row), secret } : null;
      });
    },

    /** The keys of the owner (or business), newest first, never their secrets. */
    async list(em: Em, businessId: number, ownerId?: number): Promise<KeyView[]> {
      return (
        await em.execute<KeyRow[]>(
          `select ${COLUMNS} from ${t.table} k where ${scope('k')} order by k.id desc`,
          scopeArgs(businessId, ownerId),
        )
      ).map(present);
    },

    /** Revokes a key of the owner (or business); false when it has no such key. Revoking twice keeps the first time. */
    async revoke(em: Em, businessId: number, keyId: string, ownerId?: number): Promise<boolean> {
      const rows = await em.execute<{ key_id: string }[]>(
        `update ${t.table} k set revoked_at = coalesce(k.revoked_at, now()) where ${scope('k')} and k.key_id = ? returning k.key_id`,
        [...scopeArgs(businessId, ownerId), keyId],
      );
      return rows.length > 0;
    },

    /** Who the unrevoked key `token` stands for, as a caller signed in `via` this kind, and what it is for; null for any other token. */
    async holder(em: Em, token: string, via: CredentialUse): Promise<KeyHolder | null> {
      const secretHash = sha256Hex(token);
      const owner = t.owner
        ? {
            select: `o.id as owner_id, o.${t.owner.code} as owner_code`,
            join: `join ${t.owner.table} o on o.id = k.${t.owner.column}`,
          }
        : { select: 'null as owner_id, null as owner_code', join: '' };
      const [row] = await em.execute<
        {
          id: number;
          name: string;
          email: string;
          role: Role;
          business_id: number;
          owner_id: number | null;
          owner_code: string | null;
        }[]
      >(
        `with used as (
           update ${t.table} set last_used_at = now()
           where secret_hash = ? and revoked_at is null and (last_used_at is null or last_used_at < now() - interval '1 minute'))
         select u.id, u.name, u.email, u.role, k.business_id, ${owner.select}
         from ${t.table} k join app_user u on u.id = k.created_by ${owner.join}
         where k.secret_hash = ? and k.revoked_at is null`,
        [secretHash, secretHash],
      );
      if (!row) return null;
      return {
        caller: {
          id: row.id,
          name: row.name,
          email: row.email,
          role: row.role,
          businessId: row.business_id,
          tokenHash: secretHash,
          via,
        },
        owner: row.owner_id === null ? null : { id: row.owner_id, code: row.owner_code! },
      };
    },
  };
}
