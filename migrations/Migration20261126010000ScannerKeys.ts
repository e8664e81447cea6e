import { Migration } from '@mikro-orm/migrations';

/**
 * Scanner keys (docs/distribution.md): the credential of a scanner device at one place of the business, which may
 * send distribution scans at that place and nothing else. Only the secret's SHA-256 is kept.
 */
export class Migration20261126010000ScannerKeys extends Migration {
  override up(): void {
    this.addSql(`
      create table scanner_key (
        id serial primary key,
        key_id varchar(40) not null unique,
        place_id integer not null references place(id),
        business_id integer not null references business(id),
        created_by integer not null references app_user(id),
        name varchar(100) not null,
        secret_hash char(64) not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index scanner_key_place on scanner_key (place_id, id);
    `);
  }
}
