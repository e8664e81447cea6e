import { Migration } from '@mikro-orm/migrations';

/**
 * Standalone app sign-in (specification A2, docs/apps.md, Sign-in). A session an app signs in to is an ordinary bearer
 * token that also remembers its app, its client business, the roles the app admits and the device: the token is
 * refused as soon as its account's role or business no longer fits them. identity_binding is the one global binding
 * of an identity provider's subject to an account, which the web and every app share.
 */
export class Migration20261130010000AppSessions extends Migration {
  override up(): void {
    this.addSql(`
      alter table auth_token
        add column app_id integer references platform_app(id) on delete cascade,
        add column app_business_id integer references business(id) on delete cascade,
        add column app_roles text[],
        add column device_id varchar(191),
        add column device_platform varchar(16);
      create table identity_binding (
        id serial primary key,
        issuer varchar(2048) not null,
        subject varchar(255) not null,
        user_id integer not null references app_user(id) on delete cascade,
        created_at timestamptz not null default now(),
        unique (issuer, subject),
        -- One subject of each provider per account: a second one is a binding conflict.
        unique (user_id, issuer)
      );
    `);
  }
}
