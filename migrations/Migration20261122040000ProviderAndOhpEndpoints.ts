import { Migration } from '@mikro-orm/migrations';

/**
 * Receivers other than the tenant settings: a provider account's endpoint (partner locker or third-party
 * delivery, one per provider and sender) and OHP subscriptions. A delivery goes to a settings row or to one
 * of these endpoints.
 */
export class Migration20261122040000ProviderAndOhpEndpoints extends Migration {
  override up(): void {
    this.addSql(`
      alter table app_user drop constraint app_user_role_check;
      alter table app_user add constraint app_user_role_check check (role in
        ('client_admin','employee','contractor','driver','customer','platform_admin','locker_provider','delivery_provider'));

      create table webhook_endpoint (
        id serial primary key,
        -- The owner: the provider's business, or the merchant that subscribed (OHP).
        business_id integer not null references business(id),
        kind varchar(16) not null check (kind in ('partner_locker','third_party','ohp')),
        url text not null,
        sandbox_url text,
        sandbox_enabled boolean not null default true,
        -- Empty: every event of the kind.
        events text[] not null default '{}',
        format varchar(16) not null default 'native' check (format in ('native','ce_binary','ce_structured')),
        standard_webhooks boolean not null default false,
        secret varchar(255) not null,
        key_id varchar(40) not null,
        -- After a rotation the old key keeps signing, beside the new one, until previous_valid_until.
        previous_secret varchar(255),
        previous_key_id varchar(40),
        previous_valid_until timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index webhook_endpoint_provider on webhook_endpoint (business_id, kind) where kind <> 'ohp' and revoked_at is null;

      -- The provider business an event is addressed to (partner locker and third-party events).
      alter table outbox_event add column provider_id integer references business(id);

      alter table webhook_delivery alter column settings_id drop not null;
      alter table webhook_delivery add column endpoint_id integer references webhook_endpoint(id);
      alter table webhook_delivery add constraint webhook_delivery_one_receiver check ((settings_id is null) <> (endpoint_id is null));
      alter table webhook_delivery drop constraint webhook_delivery_outbox_event_id_settings_id_url_key;
      create unique index webhook_delivery_once on webhook_delivery (outbox_event_id, coalesce(settings_id, 0), coalesce(endpoint_id, 0), url);
    `);
  }
}
