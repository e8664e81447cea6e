/**
 * What leaves the module: an order as its customer sees it (its prices left out when the business hides
 * shipping_service from the customer), and the process's start and signals.
 */
import { tellAfterCommit } from '../../../platform/temporal/tell.ts';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { SignalDefinition } from '@temporalio/workflow';
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import type { Logger } from '../../../platform/logger.ts';
import { BUSINESS_ID } from '../../../platform/temporal/searchKeys.ts';
import { NO_DUPLICATES } from '../../../platform/temporal/startOptions.ts';
import { formatDecimal, minorDigits, parseDecimal } from '../../delivery-prices/index.ts';
import { ORDER_STATUSES, pricesHiddenFrom } from '../../orders/index.ts';
import { statusFor } from '../../labels/index.ts';
import {
  SHIPPING_ORDER_QUEUE,
  SHIPPING_ORDER_WORKFLOW,
  shippingOrderWorkflowId,
  type ShippingOrderInput,
} from '../contract.ts';
import { cancellable } from '../domain.ts';
import type { ShippingOrderRead } from '../repo.ts';
import type { ShippingOrderView } from '../views.ts';
import type { shippingOrder } from '../workflows.ts';

/** Whether the caller (a customer) has shipping_service prices hidden. */
export const shippingPricesHidden = (ctx: BusinessContext): Promise<boolean> =>
  pricesHiddenFrom(ctx.em, ctx.caller, 'shipping_service');

/** A sum in minor units as the currency's decimal string. */
export const money = (amount: bigint, currency: string): string => formatDecimal(amount, minorDigits(currency));

/** A decimal string of the currency in minor units. */
export function minorOf(text: string, currency: string): bigint {
  const value = parseDecimal(text, minorDigits(currency));
  if (value === null) throw new Error(`not an amount of ${currency}: ${text}`);
  return value;
}

export function presentOrder(ctx: BusinessContext, o: ShippingOrderRead, hidden: boolean): ShippingOrderView {
  const prices = hidden
    ? { price_hidden: true as const }
    : {
        currency: o.currency,
        total: money(o.total, o.currency),
        tax: money(o.tax, o.currency),
        price_details: o.price_details,
        paid_amount: money(o.paid_amount, o.currency),
        balance_due: money(o.total > o.paid_amount ? o.total - o.paid_amount : 0n, o.currency),
      };
  const status = o.order_status_id !== null ? statusFor(ctx, o.order_status_id) : null;
  const order =
    o.order_id !== null && o.order_tracking_number !== null && status
      ? {
          id: o.order_id,
          tracking_number: o.order_tracking_number,
          status: status.status,
          status_name: ORDER_STATUSES.find((s) => s.id === status.status_id)?.name ?? status.status,
        }
      : null;
  return {
    id: o.id,
    service_code: o.service_code,
    status: o.status,
    reference: o.reference,
    sender: o.sender,
    recipient: o.recipient,
    packages: o.packages,
    ...prices,
    settled_offline: o.settled_offline,
    expires_at: new Date(o.expires_at).toISOString(),
    order,
    cancel_reason: o.status === 'cancelled' ? o.cancel_reason : null,
    can_cancel: cancellable(o.status),
    workflow_id: shippingOrderWorkflowId(o.id),
    created_at: new Date(o.created_at).toISOString(),
    updated_at: new Date(o.updated_at).toISOString(),
  };
}

/** Starts the process of an order about to be written (writeOnceStarted commits the row once it has started). */
export function startProcess(client: Client, businessId: number, input: ShippingOrderInput): Promise<WorkflowHandle> {
  return client.workflow.start<typeof shippingOrder>(SHIPPING_ORDER_WORKFLOW, {
    workflowId: shippingOrderWorkflowId(input.shipping_order_id),
    taskQueue: SHIPPING_ORDER_QUEUE,
    args: [input],
    typedSearchAttributes: new TypedSearchAttributes([{ key: BUSINESS_ID, value: businessId }]),
    ...NO_DUPLICATES,
  });
}

/**
 * Tells the process the order was paid or cancelled, after the change committed. A process that has ended (the
 * order expired meanwhile) has nothing to hear; a lost signal is made up by the expiry, which reads the row.
 */
export function tellProcess(client: Client, log: Logger, id: number, signal: SignalDefinition): Promise<void> {
  return tellAfterCommit(
    () => client.workflow.getHandle(shippingOrderWorkflowId(id)).signal(signal),
    log,
    { shippingOrderId: id, signal: signal.name },
    'could not signal a shipping order process',
  );
}
