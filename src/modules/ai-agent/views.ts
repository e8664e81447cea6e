/** The Operations AI Agent's shapes: the turn it takes, the turn it answers, the conversation it reads. */
import { z } from 'zod';
import { pageOutput, pageParams, pathId } from '../../platform/catalog/schemas.ts';
import { MAX_QUESTION_CHARS, TOOL_OUTCOMES, TURN_STATUSES, type ToolCallRecord } from './domain.ts';
import type { ConversationRow, TurnRow } from './repo.ts';

export const turnInput = z
  .object({
    message: z
      .string()
      .trim()
      .min(1)
      .max(MAX_QUESTION_CHARS)
      .describe(`The person's question or request, 1 to ${MAX_QUESTION_CHARS} characters, not only blanks`),
    conversation_id: pathId
      .optional()
      .describe("A conversation of the caller's to continue; without it the turn starts a new one"),
  })
  .strict();

export const ToolCallView = z.object({
  tool: z.string().describe('The MCP user-server tool the model called'),
  arguments: z.unknown().describe('Its arguments; a secret one reads "[secret]"'),
  outcome: z
    .enum(TOOL_OUTCOMES)
    .describe(
      'ran: a read tool ran as the caller; proposed: a write waits in the approval queue; refused: nothing ran',
    ),
  approval_id: z
    .number()
    .int()
    .nullable()
    .describe('The proposal in the approval queue (GET /v1/mcp/approvals/{id}), for a proposed write'),
  error_code: z
    .string()
    .nullable()
    .describe(
      "Why it was refused: the tool's error code, or UNKNOWN_TOOL, BAD_ARGUMENTS or TOO_MANY_CALLS for a call the model made wrongly",
    ),
});

const usage = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() })
  .nullable()
  .describe("The model's token counts for the turn, where the model reports them");

export const turnOutput = z.object({
  result: z.literal(true),
  conversation_id: z.number().int(),
  turn_id: z.number().int(),
  status: z
    .enum(['answered', 'step_limit'])
    .describe('answered, or step_limit when the model used every call a turn allows without a final answer'),
  answer: z.string().describe("The agent's answer; it names each write it proposed with the approval's id"),
  tool_calls: z.array(ToolCallView),
  usage,
  turns_used_today: z.number().int().describe("The business's turns counted today, this one included"),
  daily_cap: z.number().int().describe("The business's daily turn cap"),
});

export const TurnView = z.object({
  id: z.number().int(),
  question: z.string(),
  answer: z.string().nullable().describe('Null for a turn whose model failed'),
  status: z.enum(TURN_STATUSES),
  tool_calls: z.array(ToolCallView),
  usage,
  created_at: z.string(),
});

export const conversationInput = z.object({ id: pathId, ...pageParams }).strict();

export const conversationOutput = pageOutput('turns', TurnView).extend({
  conversation: z.object({
    id: z.number().int(),
    started_by: z.object({ id: z.number().int(), name: z.string() }),
    created_at: z.string(),
    updated_at: z.string(),
  }),
});

export const toolCallView = (c: ToolCallRecord): z.input<typeof ToolCallView> => c;

export const turnView = (t: TurnRow): z.input<typeof TurnView> => ({
  id: t.id,
  question: t.question,
  answer: t.answer,
  status: t.status,
  tool_calls: t.tool_calls.map(toolCallView),
  usage:
    t.prompt_tokens === null && t.completion_tokens === null
      ? null
      : { prompt_tokens: t.prompt_tokens ?? 0, completion_tokens: t.completion_tokens ?? 0 },
  created_at: new Date(t.created_at).toISOString(),
});

export const conversationView = (c: ConversationRow) => ({
  id: c.id,
  started_by: { id: c.user_id, name: c.user_name },
  created_at: new Date(c.created_at).toISOString(),
  updated_at: new Date(c.updated_at).toISOString(),
});
