/**
 * Data access: SQL only, with typed rows (tables order_chat_conversation, order_chat_message, order_chat_receipt).
 * Which orders a caller may see is the orders module's rule (orderVisibleTo), never restated here; every query
 * also names the caller's business.
 */
import type { Em } from '../../platform/db/orm.ts';
import type { Role } from '../../platform/roles.ts';
import { orderVisibleTo, type OrderViewer } from '../orders/index.ts';

/** An account as it writes or reads: its id, name, role and business. */
export interface Participant {
  id: number;
  name: string;
  role: Role;
  businessId: number;
}

export interface MessageRow {
  id: number;
  body: string;
  author_id: number;
  author_name: string;
  author_role: Role;
  created_at: Date;
  read_by: { user_id: number; role: Role; read_at: string }[];
}

export interface ConversationRow {
  conversation_id: number;
  order_id: number;
  order_ref: string | null;
  tracking_number: string;
  message_count: number;
  unread_count: number;
  created_at: Date;
  last_id: number;
  last_body: string;
  last_author_id: number;
  last_author_name: string;
  last_author_role: Role;
  last_created_at: Date;
}

/** The order's conversation, or null before its first message. */
export async function conversationOf(em: Em, businessId: number, orderId: number): Promise<{ id: number } | null> {
  const rows = await em.execute<{ id: number }[]>(
    'select id from order_chat_conversation where business_id = ? and order_id = ?',
    [businessId, orderId],
  );
  return rows[0] ?? null;
}

/**
 * Writes a message, creating the order's conversation with the first one. The upsert takes the conversation's row
 * lock before the message gets its id, so the ids of one conversation follow the order of their commits: a reader
 * paging back from the newest never skips one. Two first messages at once make one conversation (order_id unique).
 */
export async function insertMessage(
  em: Em,
  orderId: number,
  author: Participant,
  body: string,
): Promise<{ conversationId: number; message: MessageRow }> {
  const [conversation] = await em.execute<{ id: number }[]>(
    `insert into order_chat_conversation (business_id, order_id, message_count, last_message_at) values (?, ?, 1, now())
     on conflict (order_id) do update set message_count = order_chat_conversation.message_count + 1, last_message_at = now()
     returning id`,
    [author.businessId, orderId],
  );
  const [message] = await em.execute<MessageRow[]>(
    `insert into order_chat_message (conversation_id, business_id, author_id, author_name, author_role, body)
     values (?, ?, ?, ?, ?, ?)
     returning id, body, author_id, author_name, author_role, created_at, '[]'::json as read_by`,
    [conversation!.id, author.businessId, author.id, author.name, author.role, body],
  );
  return { conversationId: conversation!.id, message: message! };
}

/** A page of the conversation's messages, newest first, older than `before` when given, with their receipts. */
export async function messagesPage(
  em: Em,
  conversationId: number,
  before: number | null,
  limit: number,
): Promise<MessageRow[]> {
  return em.execute<MessageRow[]>(
    `select m.id, m.body, m.author_id, m.author_name, m.author_role, m.created_at,
       coalesce((select json_agg(json_build_object('user_id', r.user_id, 'role', r.role, 'read_at', r.read_at)
                   order by r.read_at, r.user_id)
                 from order_chat_receipt r where r.message_id = m.id), '[]'::json) as read_by
     from order_chat_message m
     where m.conversation_id = ? ${before === null ? '' : 'and m.id < ?'}
     order by m.id desc limit ?`,
    [conversationId, ...(before === null ? [] : [before]), limit],
  );
}

/** Messages of the other participants the reader has not marked read. */
export async function unreadCount(em: Em, conversationId: number, readerId: number): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from order_chat_message m
     where m.conversation_id = ? and m.author_id <> ?
       and not exists (select 1 from order_chat_receipt r where r.message_id = m.id and r.user_id = ?)`,
    [conversationId, readerId, readerId],
  );
  return row!.n;
}

/** Whether the message is one of the conversation's. */
export async function hasMessage(em: Em, conversationId: number, messageId: number): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>(
    'select id from order_chat_message where conversation_id = ? and id = ?',
    [conversationId, messageId],
  );
  return rows.length > 0;
}

/** The conversation's newest message id, or null when it has none. */
export async function newestMessageId(em: Em, conversationId: number): Promise<number | null> {
  const [row] = await em.execute<{ id: number | null }[]>(
    'select max(id) as id from order_chat_message where conversation_id = ?',
    [conversationId],
  );
  return row?.id ?? null;
}

/**
 * Marks every message of the others up to `upTo` read by the reader, now; a message read before keeps its first
 * read time, so marking an earlier message later unmarks nothing. Answers how many became read.
 */
export async function markRead(em: Em, conversationId: number, upTo: number, reader: Participant): Promise<number> {
  const rows = await em.execute<{ message_id: number }[]>(
    `insert into order_chat_receipt (message_id, user_id, business_id, role)
     select m.id, ?, ?, ? from order_chat_message m
     where m.conversation_id = ? and m.id <= ? and m.author_id <> ?
     on conflict (message_id, user_id) do nothing
     returning message_id`,
    [reader.id, reader.businessId, reader.role, conversationId, upTo, reader.id],
  );
  return rows.length;
}

/** The conversations of orders the viewer may see, the most recently active first, with the viewer's unread counts. */
export async function listConversations(
  em: Em,
  viewer: OrderViewer,
  limit: number,
  offset: number,
): Promise<[ConversationRow[], number]> {
  const rule = orderVisibleTo(viewer, 'o');
  const join = 'from order_chat_conversation c join delivery_order o on o.id = c.order_id';
  const where = `where c.business_id = ? and ${rule.sql}`;
  const scope = [viewer.businessId, ...rule.params];
  const rows = await em.execute<ConversationRow[]>(
    `select c.id as conversation_id, o.id as order_id, o.order_ref, o.tracking_number, c.message_count, c.created_at,
       (select count(*)::int from order_chat_message m
         where m.conversation_id = c.id and m.author_id <> ?
           and not exists (select 1 from order_chat_receipt r where r.message_id = m.id and r.user_id = ?)) as unread_count,
       lm.id as last_id, lm.body as last_body, lm.author_id as last_author_id, lm.author_name as last_author_name,
       lm.author_role as last_author_role, lm.created_at as last_created_at
     ${join}
     cross join lateral (select * from order_chat_message m where m.conversation_id = c.id order by m.id desc limit 1) lm
     ${where}
     order by c.last_message_at desc, c.id desc limit ? offset ?`,
    [viewer.userId, viewer.userId, ...scope, limit, offset],
  );
  const [count] = await em.execute<{ n: number }[]>(`select count(*)::int as n ${join} ${where}`, scope);
  return [rows, count!.n];
}
