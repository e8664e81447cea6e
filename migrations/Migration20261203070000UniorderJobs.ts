import { Migration } from '@mikro-orm/migrations';

/**
 * Uniorder's jobs of 500 (docs/uniorder.md, "Jobs of 500").
 *
 * - uniorder_job: one async batch of rates or creations, its counts and its creator (whom its items run as) and
 *   language; `status` queued until its first item is written, then running, then done once.
 * - uniorder_job_item: one item, its input as sent, its lane (the carrier of its rate, `self` or `rate`), the key its
 *   creation buys with, and its outcome (`result`, or `errors` for an item refused when stored).
 */
export class Migration20261203070000UniorderJobs extends Migration {
  override up(): void {
    this.addSql(`
      create table uniorder_job (
        id uuid primary key,
        business_id integer not null references business(id),
        kind varchar(8) not null check (kind in ('rate', 'create')),
        status varchar(8) not null default 'queued' check (status in ('queued', 'running', 'done')),
        total integer not null,
        succeeded integer not null default 0,
        failed integer not null default 0,
        created_by integer not null references app_user(id),
        lang varchar(16) not null,
        created_at timestamptz not null default now(),
        finished_at timestamptz
      );
      create index uniorder_job_queued on uniorder_job (created_at) where status = 'queued';

      create table uniorder_job_item (
        job_id uuid not null references uniorder_job(id),
        item_index integer not null,
        input jsonb not null,
        lane varchar(64) not null,
        idempotency_key text,
        status varchar(8) not null default 'pending' check (status in ('pending', 'done', 'failed')),
        result jsonb,
        errors jsonb,
        handled_at timestamptz,
        primary key (job_id, item_index)
      );
    `);
  }
}
