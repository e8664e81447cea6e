/** The Operations AI Agent's limits and the words a turn is recorded with (docs/opt-in-families.md). */
import type { Role } from '../../platform/roles.ts';

/** The accounts the family is for ("client and employee accounts"); the platform admin's guard holds the same. */
export const AGENT_ROLES: readonly Role[] = ['client_admin', 'employee'];

/** The longest question a turn takes. */
export const MAX_QUESTION_CHARS = 4_000;
/** Model calls one turn may make: each may call tools, the last is asked for the answer without tools. */
export const MAX_MODEL_CALLS = 6;
/** Tool calls one model answer may ask for; the rest are refused. */
export const MAX_TOOL_CALLS_PER_STEP = 8;
/** Earlier answered turns of the conversation the model is given, newest last. */
export const HISTORY_TURNS = 10;
/** What a tool's answer may take of the model's context; a longer one is cut and marked so. */
export const MAX_TOOL_RESULT_CHARS = 16_000;

export const TURN_STATUSES = ['answered', 'step_limit', 'failed'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** What became of a tool call the model asked for: a read ran, a write was proposed, or nothing happened. */
export const TOOL_OUTCOMES = ['ran', 'proposed', 'refused'] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];

/** A refusal that is no error code of an operation: the model named no tool it was offered, or bad arguments. */
export const UNKNOWN_TOOL = 'UNKNOWN_TOOL';
export const BAD_ARGUMENTS = 'BAD_ARGUMENTS';
export const TOO_MANY_CALLS = 'TOO_MANY_CALLS';

/** A tool call as a turn keeps it: its arguments with secrets masked, never its answer. */
export interface ToolCallRecord {
  tool: string;
  arguments: unknown;
  outcome: ToolOutcome;
  /** The approval queue's proposal, for a write. */
  approval_id: number | null;
  /** Why it was refused: the operation's error code, or UNKNOWN_TOOL, BAD_ARGUMENTS, TOO_MANY_CALLS. */
  error_code: string | null;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}
