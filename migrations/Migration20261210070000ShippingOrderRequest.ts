import { Migration } from '@mikro-orm/migrations';

/**
 * Shipping orders, second round (docs/customer-services.md, "Shipping orders").
 *
 * - shipping_order.request_hash: the SHA-256 of the creation's canonical request (service code, sender, recipient,
 *   packages, reference), so a repeat of its idempotency key with another request is refused
 *   (IDEMPOTENCY_KEY_REUSED) instead of answering the first order. Null on rows written before it: their repeat
 *   compares the service code only.
 * - shipping_order.cancel_reason: why a cancelled order was cancelled: `customer` (its customer cancelled it or its
 *   delivery order), `delivery_cancelled` (the business cancelled its delivery order, or its delivery provider
 *   accepted a cancel) or `no_rate` (the carrier gave no rate for the service: nothing could be placed).
 * - shipping_order_delivery: the order of a delivery order, for the delivery order's cancellation hook.
 */
export class Migration20261210070000ShippingOrderRequest extends Migration {
  override up(): void {
    this.addSql(`
      alter table shipping_order add column request_hash char(64);
      alter table shipping_order add column cancel_reason varchar(32)
        check (cancel_reason in ('customer', 'delivery_cancelled', 'no_rate'));
      create index shipping_order_delivery on shipping_order (order_id) where order_id is not null;
    `);
  }
}
