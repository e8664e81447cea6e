import { Migration } from '@mikro-orm/migrations';

/**
 * The Operations AI Agent (docs/opt-in-families.md): its conversations and their turns (the question, the answer,
 * the tool calls with their outcome, the model's token counts), and the turns each business has taken per day, the
 * count its daily cap is held to by one statement (ai_agent_daily_turns: a row per business and local day).
 */
export class Migration20261130050000AiAgent extends Migration {
  override up(): void {
    this.addSql(`
      create table ai_agent_conversation (
        id serial primary key,
        business_id integer not null references business(id) on delete cascade,
        user_id integer not null references app_user(id) on delete cascade,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index ai_agent_conversation_business_idx on ai_agent_conversation (business_id, user_id);
      create table ai_agent_turn (
        id serial primary key,
        conversation_id integer not null references ai_agent_conversation(id) on delete cascade,
        business_id integer not null references business(id) on delete cascade,
        user_id integer not null references app_user(id) on delete cascade,
        question text not null,
        answer text,
        -- answered, step_limit (the model used every call a turn allows), failed (a model call failed)
        status varchar(20) not null check (status in ('answered', 'step_limit', 'failed')),
        tool_calls jsonb not null default '[]',
        prompt_tokens integer,
        completion_tokens integer,
        created_at timestamptz not null default now()
      );
      create index ai_agent_turn_conversation_idx on ai_agent_turn (conversation_id, id);
      create table ai_agent_daily_turns (
        business_id integer not null references business(id) on delete cascade,
        day date not null,
        turns integer not null check (turns >= 0),
        primary key (business_id, day)
      );
    `);
  }
}
