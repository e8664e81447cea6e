/**
 * Data access: SQL only, with typed rows (tables ai_agent_conversation, ai_agent_turn, ai_agent_daily_turns; business
 * for its time zone).
 */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { ToolCallRecord, TurnStatus } from './domain.ts';

/**
 * Counts one turn of the business's current day (in the business's time zone) with one statement, unless the day
 * already holds `cap` turns: the row is locked by the upsert, so two concurrent turns never both take the last slot.
 * Answers the turns counted today with this one, or null when the cap was reached (nothing counted).
 */
export async function countTurn(
  em: Em,
  businessId: number,
  cap: number,
): Promise<{ turns: number; day: string } | null> {
  const rows = await executeBound<{ turns: number; day: string }>(
    em,
    `insert into ai_agent_daily_turns as t (business_id, day, turns)
     select b.id, (now() at time zone b.timezone)::date, 1 from business b where b.id = $1 and $2::int > 0
     on conflict (business_id, day) do update set turns = t.turns + 1 where t.turns < $2::int
     returning t.turns, t.day::text as day`,
    [businessId, cap],
  );
  return rows[0] ?? null;
}

/** Gives a counted turn back (a turn whose model failed). */
export async function giveTurnBack(em: Em, businessId: number, day: string): Promise<void> {
  await executeBound(
    em,
    'update ai_agent_daily_turns set turns = turns - 1 where business_id = $1 and day = $2::date and turns > 0',
    [businessId, day],
  );
}

/** Seconds until the business's next day starts, in its time zone (at least 1). */
export async function secondsToNextDay(em: Em, businessId: number): Promise<number> {
  const rows = await executeBound<{ seconds: number }>(
    em,
    `select greatest(1, ceil(extract(epoch from
       ((date_trunc('day', now() at time zone b.timezone) + interval '1 day') at time zone b.timezone) - now())))::int
       as seconds
     from business b where b.id = $1`,
    [businessId],
  );
  return rows[0]?.seconds ?? 86_400;
}

export interface ConversationRow {
  id: number;
  business_id: number;
  user_id: number;
  user_name: string;
  created_at: Date;
  updated_at: Date;
}

/** A conversation of the business, with the name of whom it is; null for none (or another business's). */
export async function conversationOf(em: Em, businessId: number, id: number): Promise<ConversationRow | null> {
  const rows = await executeBound<ConversationRow>(
    em,
    `select c.id, c.business_id, c.user_id, u.name as user_name, c.created_at, c.updated_at
     from ai_agent_conversation c join app_user u on u.id = c.user_id where c.id = $1 and c.business_id = $2`,
    [id, businessId],
  );
  return rows[0] ?? null;
}

/** The last answered turns of a conversation, oldest first: what the model is told of it. */
export async function historyOf(
  em: Em,
  conversationId: number,
  limit: number,
): Promise<{ question: string; answer: string }[]> {
  const rows = await executeBound<{ question: string; answer: string }>(
    em,
    `select question, answer from ai_agent_turn
     where conversation_id = $1 and status = 'answered' and answer is not null order by id desc limit $2`,
    [conversationId, limit],
  );
  return rows.reverse();
}

export interface TurnRow {
  id: number;
  conversation_id: number;
  question: string;
  answer: string | null;
  status: TurnStatus;
  tool_calls: ToolCallRecord[];
  prompt_tokens: number | null;
  completion_tokens: number | null;
  created_at: Date;
}

export interface NewTurn {
  conversationId: number | null;
  businessId: number;
  userId: number;
  question: string;
  answer: string | null;
  status: TurnStatus;
  toolCalls: ToolCallRecord[];
  usage: { prompt_tokens: number; completion_tokens: number } | null;
}

/** Stores a turn, and its conversation when it starts one, in one transaction. */
export async function saveTurn(em: Em, turn: NewTurn): Promise<{ conversationId: number; turnId: number }> {
  return em.transactional(async (tx) => {
    const conversationId =
      turn.conversationId ??
      (
        await executeBound<{ id: number }>(
          tx,
          'insert into ai_agent_conversation (business_id, user_id) values ($1, $2) returning id',
          [turn.businessId, turn.userId],
        )
      )[0]!.id;
    if (turn.conversationId !== null)
      await executeBound(tx, 'update ai_agent_conversation set updated_at = now() where id = $1', [conversationId]);
    const [row] = await executeBound<{ id: number }>(
      tx,
      `insert into ai_agent_turn
         (conversation_id, business_id, user_id, question, answer, status, tool_calls, prompt_tokens, completion_tokens)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) returning id`,
      [
        conversationId,
        turn.businessId,
        turn.userId,
        turn.question,
        turn.answer,
        turn.status,
        JSON.stringify(turn.toolCalls),
        turn.usage?.prompt_tokens ?? null,
        turn.usage?.completion_tokens ?? null,
      ],
    );
    return { conversationId, turnId: row!.id };
  });
}

export async function countTurns(em: Em, conversationId: number): Promise<number> {
  const rows = await executeBound<{ n: number }>(
    em,
    'select count(*)::int as n from ai_agent_turn where conversation_id = $1',
    [conversationId],
  );
  return rows[0]!.n;
}

/** A page of a conversation's turns, oldest first. */
export async function turnsOf(em: Em, conversationId: number, limit: number, offset: number): Promise<TurnRow[]> {
  return executeBound<TurnRow>(
    em,
    `select id, conversation_id, question, answer, status, tool_calls, prompt_tokens, completion_tokens, created_at
     from ai_agent_turn where conversation_id = $1 order by id limit $2 offset $3`,
    [conversationId, limit, offset],
  );
}
