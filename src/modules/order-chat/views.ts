/** What Order Chat answers: each shape once as a zod schema, its type derived with z.infer. */
import { z } from 'zod';
import { ROLES } from '../../platform/roles.ts';

const id = (description: string) => z.number().int().describe(description);
const at = (description: string) =>
  z
    .string()
    .describe(description)
    .meta({ examples: ['2026-11-30T09:15:00.000Z'] });

/** The text of a message as every operation takes it: the text rule (docs/input-rules.md) holds for every input. */
export const messageText = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .describe('The message, 1 to 2000 characters once leading and trailing blanks are trimmed')
    .meta({ examples: ['I am at the gate, which entrance should I use?'] });

const role = z.enum(ROLES).describe("The account's role when it wrote or read");

export const authorView = z.object({
  user_id: id('The account that wrote it'),
  name: z
    .string()
    .describe("The account's name when it wrote the message")
    .meta({ examples: ['Demo Driver'] }),
  role,
});

export const receiptView = z.object({
  user_id: id('The account that read it'),
  role,
  read_at: at('When that account marked the conversation read up to this message or a later one'),
});

export const messageView = z.object({
  id: id('Message id, increasing in the order messages were written'),
  text: z.string().meta({ examples: ['I am at the gate, which entrance should I use?'] }),
  author: authorView,
  created_at: at('When it was written'),
  read_by: z
    .array(receiptView)
    .describe('Every other participant that has read it, in the order they read it; never the author'),
});
export type MessageView = z.infer<typeof messageView>;

export const orderRefView = z.object({
  id: id('Order id'),
  order_ref: z.string().nullable().describe("The business's own reference of the order"),
  tracking_number: z.string().meta({ examples: ['TMS3F9A1C7B2E04'] }),
});

export const conversationView = z.object({
  conversation_id: id('Conversation id'),
  order: orderRefView,
  message_count: z.number().int(),
  unread_count: z.number().int().describe('Messages of the other participants the caller has not marked read'),
  last_message: messageView.omit({ read_by: true }).describe('The newest message'),
  created_at: at('When the first message was written'),
});
export type ConversationView = z.infer<typeof conversationView>;
