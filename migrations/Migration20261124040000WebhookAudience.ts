import { Migration } from '@mikro-orm/migrations';

/**
 * Who can receive an owner's events, asked where events are written (src/platform/db/outbox.ts) and where the
 * relay claims them (src/modules/webhooks/repo/deliveries.ts):
 * - `webhook_receiver_exists(business, provider)`: the business has a settings row (merchant or customer
 *   override), or the business or the provider has a live endpoint.
 * - `webhook_audience(businesses, providers)`: takes each owner's receiver lock in share mode, then answers,
 *   for each (business, provider) pair, whether anyone can receive it. The function is volatile, so its
 *   question runs on a snapshot taken after the locks are held.
 * - `lock_webhook_receivers(owner)`: the same lock, exclusive, taken by whoever adds a receiver before it
 *   writes. An event transaction that found no receiver therefore commits before the receiver exists; one that
 *   starts later sees it.
 */
export class Migration20261124040000WebhookAudience extends Migration {
  override up(): void {
    this.addSql(`
      create index webhook_endpoint_live_owner on webhook_endpoint (business_id) where revoked_at is null;

      create function webhook_receiver_exists(business int, provider int) returns boolean language sql stable as $$
        select exists (select 1 from webhook_settings s where s.business_id = business)
          or exists (select 1 from webhook_endpoint ep where ep.revoked_at is null and ep.business_id in (business, provider))
      $$;

      create function lock_webhook_receivers(owner int) returns void language sql volatile as $$
        select pg_advisory_xact_lock(hashtext('webhook_receivers'), owner)
      $$;

      create function webhook_audience(businesses int[], providers int[])
        returns table (business_id int, provider_id int, reached boolean) language plpgsql volatile as $$
      begin
        perform pg_advisory_xact_lock_shared(hashtext('webhook_receivers'), owners.id)
          from (select distinct u.id from unnest(businesses || providers) u(id) where u.id is not null order by u.id) owners;
        return query select distinct p.b, p.p, webhook_receiver_exists(p.b, p.p) from unnest(businesses, providers) p(b, p);
      end $$;
    `);
  }
}
