import { Migration } from '@mikro-orm/migrations';

/**
 * The SMS provider's ledger (docs/sms.md) and app registration (docs/apps.md, Registration).
 *
 * sms_message keeps one row per idempotency key: a send retried after it went out answers the recorded receipt and
 * sends nothing again. The sandbox provider's rows also hold the text it would have sent, sealed (secretBox), since
 * it carries verification codes; a real provider's rows hold no text.
 *
 * app_registration is the read model of the workflow `app-registration-<id>`: the account to be made (name, email,
 * password hash, phone in E.164, the identity of an ID token), the current code's keyed hash and number, and the
 * status. The password and code hashes are dropped once the registration has ended. An email or identity waits in
 * one pending approval at most.
 */
export class Migration20261130030000AppRegistration extends Migration {
  override up(): void {
    this.addSql(`
      create table sms_message (
        id bigserial primary key,
        idempotency_key varchar(200) not null unique,
        provider varchar(16) not null,
        to_number varchar(16) not null,
        purpose varchar(100) not null,
        status varchar(8) not null default 'sending' check (status in ('sending', 'sent')),
        provider_message_id varchar(64),
        sealed_text text,
        created_at timestamptz not null default now(),
        sent_at timestamptz
      );
      create index sms_message_sandbox on sms_message (id) where provider = 'sandbox';
      create table app_registration (
        id uuid primary key,
        app_id integer not null references platform_app(id) on delete cascade,
        business_id integer not null references business(id) on delete cascade,
        role varchar(32) not null check (role in ('customer', 'driver')),
        name varchar(191) not null,
        email varchar(255) not null,
        password_hash text,
        phone varchar(16) not null,
        device_id varchar(191) not null,
        device_platform varchar(16) not null,
        app_version varchar(64),
        -- The language of the caller, for the text of its codes.
        lang varchar(8) not null,
        idp_issuer varchar(2048),
        idp_subject varchar(255),
        status varchar(20) not null
          check (status in ('awaiting_code', 'pending_approval', 'completed', 'rejected', 'expired')),
        code_hash text,
        code_length smallint not null check (code_length between 4 and 8),
        code_number integer not null default 0,
        code_sent_at timestamptz,
        expires_at timestamptz,
        user_id integer references app_user(id) on delete set null,
        decided_by integer references app_user(id) on delete set null,
        decided_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index app_registration_business_status on app_registration (business_id, status, created_at);
      create unique index app_registration_pending_email on app_registration (email) where status = 'pending_approval';
      create unique index app_registration_pending_identity on app_registration (idp_issuer, idp_subject)
        where status = 'pending_approval' and idp_subject is not null;
    `);
  }
}
