import { Migration } from '@mikro-orm/migrations';

/**
 * Request counts of the rate limits, shared by every API process. Unlogged: a count is worth less than the write
 * it would cost to make it crash-safe, and after a crash every window simply starts afresh.
 */
export class Migration20261123010000RateLimits extends Migration {
  override up(): void {
    this.addSql(`
      create unlogged table rate_limit_window (
        policy varchar(32) not null,
        subject varchar(96) not null,
        window_started_at timestamptz not null default now(),
        hits integer not null default 0,
        primary key (policy, subject)
      );
    `);
  }
}
