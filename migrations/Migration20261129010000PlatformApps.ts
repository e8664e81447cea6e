import { Migration } from '@mikro-orm/migrations';

/**
 * Standalone apps (specification A2, docs/apps.md): an app's public configuration, its binding to client businesses
 * (each with an availability switch, as the app has one), and the platform audit trail that every platform-admin
 * change writes in the change's own transaction (src/platform/db/audit.ts). The bootstrap read is kept by the read
 * cache: a change of an app or a binding sends NOTIFY read_cache on commit, inserts included, since the cache keeps
 * "no such app" answers too.
 */
export class Migration20261129010000PlatformApps extends Migration {
  override up(): void {
    this.addSql(`
      create table platform_app (
        id serial primary key,
        code varchar(64) not null unique,
        name varchar(191) not null,
        type varchar(32) not null,
        schema_version integer not null,
        -- Capabilities, quick actions, authentication, services, branding, service contracts, version policy:
        -- validated by the apps module's zod schema before it is written, read back whole by the bootstrap.
        config jsonb not null,
        available boolean not null default true,
        -- Raised by every change of the app or of one of its bindings, in the change's transaction.
        configuration_version integer not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create table platform_app_client (
        app_id integer not null references platform_app(id) on delete cascade,
        business_id integer not null references business(id) on delete cascade,
        available boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        primary key (app_id, business_id)
      );
      create table platform_audit (
        id bigserial primary key,
        actor_id integer references app_user(id) on delete set null,
        actor_email varchar(191) not null,
        at timestamptz not null default now(),
        action varchar(100) not null,
        subject varchar(191) not null,
        before jsonb,
        after jsonb
      );
      create index platform_audit_subject on platform_audit (subject, id);
    `);
    for (const table of ['platform_app', 'platform_app_client']) {
      this.addSql(
        `create trigger ${table}_read_cache after insert or update or delete or truncate on ${table} for each statement execute function notify_read_cache();`,
      );
    }
  }
}
