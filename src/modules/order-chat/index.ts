/**
 * Order Chat, an opt-in family (issue 35 section 4; docs/opt-in-families.md, "Order Chat"): a conversation per order
 * between the business's staff, the order's driver and its customer account (and the contractor it is assigned
 * to), with read receipts. Every operation calls the platform admin's guard first (409 while the family is off for
 * the caller's business), and each participant sees only the conversations of orders the orders module lets it see.
 */
import { defineModule } from '../../platform/module.ts';
import { ORDER_CHAT_MESSAGES } from './messages.ts';
import { ORDER_CHAT_OPERATIONS } from './operations.ts';

export const orderChat = defineModule({
  name: 'order-chat',
  tags: {
    'Order Chat':
      "A conversation per order between the business's staff, the order's driver, its customer account and the contractor it is assigned to, with read receipts. An opt-in family: every operation answers 409 FEATURE_DISABLED while the platform admin has it switched off for the caller's business.",
  },
  operations: ORDER_CHAT_OPERATIONS,
  messages: ORDER_CHAT_MESSAGES,
});
