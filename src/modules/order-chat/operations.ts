/**
 * Order Chat's operations (docs/opt-in-families.md, "Order Chat"). Each one calls the family's guard first, so that a
 * business with the family off learns nothing else (409 before any 404 or 422), then finds the order through the
 * orders module's visibility rule: an order the caller may not see is 404, as one that does not exist, and none of
 * its messages is shown. Writes run in one transaction each.
 */
import { z } from 'zod';
import { defineOperation, type BusinessContext } from '../../platform/catalog/types.ts';
import {
  intParam,
  offsetOf,
  pageExample,
  pageOf,
  pageOutput,
  pageParams,
  pathId,
} from '../../platform/catalog/schemas.ts';
import type { Em } from '../../platform/db/orm.ts';
import { errors } from '../../platform/errors.ts';
import { visibleOrder, type OrderViewer } from '../orders/index.ts';
import { FAMILY_FAILURES, requireFamily } from '../platform-admin/index.ts';
import * as repo from './repo.ts';
import { conversationView, messageText, messageView, type ConversationView, type MessageView } from './views.ts';

const TAG = 'Order Chat';
/** Every account that may take part; which orders each may see is the orders module's rule. */
const PARTICIPANTS = ['client_admin', 'employee', 'contractor', 'driver', 'customer'] as const;
const FAILURES = {
  ...FAMILY_FAILURES,
  NOT_FOUND:
    'No such order, or one the caller may not see (another business, or not its driver, customer or contractor)',
} as const;
const WHO =
  "For the business's staff (every order of the business), the order's driver, the order's customer account and the contractor the order is actively assigned to; any other order is NOT_FOUND, as one that does not exist. While the platform admin has Order Chat off for the caller's business every call answers 409 FEATURE_DISABLED with `feature_enabled: false`, before anything else is checked.";

const viewerOf = (ctx: BusinessContext): OrderViewer => ({
  businessId: ctx.caller.businessId,
  userId: ctx.caller.id,
  role: ctx.caller.role,
});
const participantOf = (ctx: BusinessContext): repo.Participant => ({
  id: ctx.caller.id,
  name: ctx.caller.name,
  role: ctx.caller.role,
  businessId: ctx.caller.businessId,
});

/** The order if the caller may see it, else 404. */
async function orderOr404(em: Em, ctx: BusinessContext, orderId: number) {
  const order = await visibleOrder(em, viewerOf(ctx), orderId);
  if (!order) throw errors.notFound();
  return order;
}

const iso = (t: Date | string) => new Date(t).toISOString();

function presentMessage(m: repo.MessageRow): MessageView {
  return {
    id: m.id,
    text: m.body,
    author: { user_id: m.author_id, name: m.author_name, role: m.author_role },
    created_at: iso(m.created_at),
    read_by: m.read_by.map((r) => ({ user_id: r.user_id, role: r.role, read_at: iso(r.read_at) })),
  };
}

function presentConversation(c: repo.ConversationRow): ConversationView {
  return {
    conversation_id: c.conversation_id,
    order: { id: c.order_id, order_ref: c.order_ref, tracking_number: c.tracking_number },
    message_count: c.message_count,
    unread_count: c.unread_count,
    last_message: {
      id: c.last_id,
      text: c.last_body,
      author: { user_id: c.last_author_id, name: c.last_author_name, role: c.last_author_role },
      created_at: iso(c.last_created_at),
    },
    created_at: iso(c.created_at),
  };
}

const EXAMPLE_MESSAGE = {
  id: 812,
  text: 'I am at the gate, which entrance should I use?',
  author: { user_id: 57, name: 'Demo Driver', role: 'driver' as const },
  created_at: '2026-11-30T09:15:00.000Z',
  read_by: [{ user_id: 12, role: 'employee' as const, read_at: '2026-11-30T09:16:20.000Z' }],
};

export const conversationList = defineOperation({
  name: 'order_chat_conversations',
  summary: 'List the order conversations the caller takes part in, the most recently active first, with unread counts.',
  description: `Every conversation of an order the caller may see, newest message first, 50 a page by default (\`page\`, \`per_page\` up to 200) with the \`total\`. Each shows its order, its message count, its newest message and \`unread_count\`: the messages of the other participants the caller has not marked read (order_chat_read). A conversation starts with its order's first message (order_chat_post); an order without one is not listed. ${WHO}`,
  tag: TAG,
  roles: PARTICIPANTS,
  business: true,
  rest: { method: 'GET', path: '/v1/order-chat/conversations' },
  graphql: { name: 'orderChatConversations', kind: 'query' },
  failures: FAMILY_FAILURES,
  input: z.object(pageParams).strict(),
  output: pageOutput('conversations', conversationView),
  examples: pageExample('conversations', [
    {
      conversation_id: 31,
      order: { id: 4021, order_ref: 'SHOP-1042', tracking_number: 'TMS3F9A1C7B2E04' },
      message_count: 4,
      unread_count: 1,
      last_message: {
        id: 812,
        text: EXAMPLE_MESSAGE.text,
        author: EXAMPLE_MESSAGE.author,
        created_at: EXAMPLE_MESSAGE.created_at,
      },
      created_at: '2026-11-30T08:02:11.000Z',
    },
  ]),
  async handler(input, ctx) {
    await requireFamily(ctx, 'order_chat');
    const [rows, total] = await repo.listConversations(ctx.em, viewerOf(ctx), input.per_page, offsetOf(input));
    return pageOf(input, 'conversations', total, rows.map(presentConversation));
  },
});

export const messageList = defineOperation({
  name: 'order_chat_messages',
  summary: "Read an order's conversation, newest message first, paging back with a cursor.",
  description: `Answers up to \`limit\` messages (50 by default, at most 200), newest first, each with its author (id, name and role when written) and \`read_by\`: every other participant that has read it, with the time. For older messages pass the answer's \`next_before\` as \`before\`; it is null on the last page. A cursor rather than page numbers, so that messages written meanwhile never shift a page. An order without messages yet answers an empty list with \`conversation_id: null\`. Reading marks nothing read: call order_chat_read for that. \`unread_count\` is the caller's. ${WHO}`,
  tag: TAG,
  roles: PARTICIPANTS,
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{order_id}/chat/messages' },
  graphql: { name: 'orderChatMessages', kind: 'query' },
  failures: FAILURES,
  input: z
    .object({
      order_id: pathId,
      before: intParam()
        .optional()
        .describe('Answer only messages older than this message id (next_before of the previous page)'),
      limit: intParam(200).default(50).describe('Messages to answer, at most 200'),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    order_id: z.number().int(),
    conversation_id: z.number().int().nullable().describe('Null while the order has no message'),
    unread_count: z.number().int().describe('Messages of the other participants the caller has not marked read'),
    messages: z.array(messageView),
    next_before: z.number().int().nullable().describe('The `before` of the next (older) page; null when there is none'),
  }),
  examples: {
    input: { order_id: 4021, limit: 50 },
    output: {
      result: true,
      order_id: 4021,
      conversation_id: 31,
      unread_count: 0,
      messages: [EXAMPLE_MESSAGE],
      next_before: null,
    },
  },
  async handler(input, ctx) {
    await requireFamily(ctx, 'order_chat');
    const order = await orderOr404(ctx.em, ctx, input.order_id);
    const conversation = await repo.conversationOf(ctx.em, ctx.caller.businessId, order.id);
    const empty = { result: true as const, order_id: order.id, unread_count: 0, messages: [], next_before: null };
    if (!conversation) return { ...empty, conversation_id: null };
    const rows = await repo.messagesPage(ctx.em, conversation.id, input.before ?? null, input.limit + 1);
    const page = rows.slice(0, input.limit);
    return {
      ...empty,
      conversation_id: conversation.id,
      unread_count: await repo.unreadCount(ctx.em, conversation.id, ctx.caller.id),
      messages: page.map(presentMessage),
      next_before: rows.length > input.limit ? page[page.length - 1]!.id : null,
    };
  },
});

export const messagePost = defineOperation({
  name: 'order_chat_post',
  summary: "Write a message in an order's conversation, starting it with the first message.",
  description: `The text is 1 to 2000 characters once trimmed, and follows the text rule of every input (no NUL or other control character but tab and line breaks, no lone surrogate: VALIDATION_FAILED naming \`text\`). The message keeps the author's id, name and role, and is unread for every other participant until each marks it read with order_chat_read; writing marks nothing read. Not idempotent: a retried call writes the message again. ${WHO}`,
  tag: TAG,
  roles: PARTICIPANTS,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{order_id}/chat/messages', status: 201 },
  graphql: { name: 'orderChatPost', kind: 'mutation' },
  failures: FAILURES,
  input: z.object({ order_id: pathId, text: messageText() }).strict(),
  output: z.object({ result: z.literal(true), conversation_id: z.number().int(), message: messageView }),
  examples: {
    input: { order_id: 4021, text: EXAMPLE_MESSAGE.text },
    output: { result: true, conversation_id: 31, message: { ...EXAMPLE_MESSAGE, read_by: [] } },
  },
  async handler(input, ctx) {
    await requireFamily(ctx, 'order_chat');
    return ctx.em.transactional(async (tx) => {
      const order = await orderOr404(tx, ctx, input.order_id);
      const { conversationId, message } = await repo.insertMessage(tx, order.id, participantOf(ctx), input.text);
      return { result: true as const, conversation_id: conversationId, message: presentMessage(message) };
    });
  },
});

export const markRead = defineOperation({
  name: 'order_chat_read',
  summary: "Mark an order's conversation read up to a message (the newest when none is named).",
  description: `Every message of the other participants up to and including \`up_to_message_id\` (the conversation's newest message when absent) becomes read by the caller now, and shows the caller in its \`read_by\`. A message read before keeps its first read time, and naming an older message unmarks nothing. Answers how many messages became read and the caller's \`unread_count\` after. An order without messages answers \`marked: 0\`; a message id that is not one of the order's conversation is VALIDATION_FAILED naming \`up_to_message_id\`. ${WHO}`,
  tag: TAG,
  roles: PARTICIPANTS,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{order_id}/chat/read' },
  graphql: { name: 'orderChatRead', kind: 'mutation' },
  failures: FAILURES,
  input: z
    .object({
      order_id: pathId,
      up_to_message_id: intParam().optional().describe("A message of the order's conversation; the newest when absent"),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    order_id: z.number().int(),
    conversation_id: z.number().int().nullable(),
    read_up_to_message_id: z.number().int().nullable().describe('Null while the order has no message'),
    marked: z.number().int().describe('Messages that became read by this call'),
    unread_count: z.number().int(),
  }),
  examples: {
    input: { order_id: 4021, up_to_message_id: 812 },
    output: {
      result: true,
      order_id: 4021,
      conversation_id: 31,
      read_up_to_message_id: 812,
      marked: 2,
      unread_count: 0,
    },
  },
  async handler(input, ctx) {
    await requireFamily(ctx, 'order_chat');
    return ctx.em.transactional(async (tx) => {
      const order = await orderOr404(tx, ctx, input.order_id);
      const conversation = await repo.conversationOf(tx, ctx.caller.businessId, order.id);
      const upTo = input.up_to_message_id;
      const known = conversation && (upTo === undefined || (await repo.hasMessage(tx, conversation.id, upTo)));
      if (upTo !== undefined && !known) throw errors.field('up_to_message_id', 'order_chat.unknown_message');
      const answer = { result: true as const, order_id: order.id, marked: 0, unread_count: 0 };
      if (!conversation) return { ...answer, conversation_id: null, read_up_to_message_id: null };
      const until = upTo ?? (await repo.newestMessageId(tx, conversation.id))!;
      const marked = await repo.markRead(tx, conversation.id, until, participantOf(ctx));
      return {
        ...answer,
        conversation_id: conversation.id,
        read_up_to_message_id: until,
        marked,
        unread_count: await repo.unreadCount(tx, conversation.id, ctx.caller.id),
      };
    });
  },
});

export const ORDER_CHAT_OPERATIONS = [conversationList, messageList, messagePost, markRead];
