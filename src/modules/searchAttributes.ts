import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Custom search attributes, registered at start-up so operators can filter workflows in the Temporal UI. */
export const SA = {
  businessId: defineSearchAttributeKey('BusinessId', SearchAttributeType.INT),
  deviceId: defineSearchAttributeKey('DeviceId', SearchAttributeType.KEYWORD),
  deviceOrderStatus: defineSearchAttributeKey('DeviceOrderStatus', SearchAttributeType.KEYWORD),
  orderId: defineSearchAttributeKey('OrderId', SearchAttributeType.INT),
  /** The deliveries a webhook retry workflow drives: `WebhookDeliveryIds = '123'` finds a delivery's workflow. */
  webhookDeliveryIds: defineSearchAttributeKey('WebhookDeliveryIds', SearchAttributeType.KEYWORD_LIST),
} as const;
