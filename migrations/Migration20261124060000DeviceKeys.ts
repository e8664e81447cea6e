import { Migration } from '@mikro-orm/migrations';

/**
 * Device keys (docs/lockers.md): the credential a locker uses for its own endpoints. Only the secret's SHA-256 is
 * kept; a key belongs to one device and opens nothing else.
 */
export class Migration20261124060000DeviceKeys extends Migration {
  override up(): void {
    this.addSql(`
      create table device_key (
        id serial primary key,
        key_id varchar(40) not null unique,
        device_id integer not null references device(id),
        business_id integer not null references business(id),
        created_by integer not null references app_user(id),
        name varchar(100) not null,
        secret_hash char(64) not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index device_key_device on device_key (device_id, id);
    `);
  }
}
