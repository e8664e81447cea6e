import { Migration } from '@mikro-orm/migrations';

/**
 * Who a session token belongs to and a business's switches are read on almost every request and change rarely;
 * each API process keeps them (src/platform/db/readCache.ts) until PostgreSQL says they changed. These triggers
 * say so: any update or delete of a token, a user or a business sends NOTIFY read_cache with the table's name, on
 * commit, whatever code path made the change. Inserts need none: a new row was never cached.
 */
export class Migration20261124000000ReadCacheNotify extends Migration {
  override up(): void {
    this.addSql(`
      create function notify_read_cache() returns trigger language plpgsql as $$
      begin
        perform pg_notify('read_cache', tg_table_name);
        return null;
      end $$;
    `);
    for (const table of ['auth_token', 'app_user', 'business']) {
      this.addSql(
        `create trigger ${table}_read_cache after update or delete or truncate on ${table} for each statement execute function notify_read_cache();`,
      );
    }
  }
}
