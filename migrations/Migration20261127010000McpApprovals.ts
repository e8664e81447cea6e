import { Migration } from '@mikro-orm/migrations';

/**
 * The MCP approval queue (docs/mcp.md, Approvals): a write an agent proposed, waiting for a person of its business
 * to approve or reject it, each driven by the workflow `approval-<id>`. Secret arguments are sealed (secretBox) and
 * dropped once the proposal has ended. `history` lists every step of the proposal
 * (proposed, approved, rejected, expired, done, failed) with who took it and when. A business sets how long a
 * proposal waits before it expires.
 */
export class Migration20261127010000McpApprovals extends Migration {
  override up(): void {
    this.addSql(`
      alter table business add column mcp_approval_hours integer not null default 24 check (mcp_approval_hours between 1 and 720);
      create table mcp_approval (
        id serial primary key,
        business_id integer not null references business(id),
        server varchar(16) not null check (server in ('user', 'developer')),
        tool varchar(100) not null,
        -- Secret arguments (a signing secret, a password) show as "[secret]" here; their values are sealed below.
        arguments jsonb not null,
        sealed_arguments text,
        reason varchar(500),
        proposed_by integer not null references app_user(id),
        -- null: every scope (the full profile, or legacy access).
        proposer_scopes text[],
        status varchar(16) not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'expired', 'done', 'failed')),
        reviewed_by integer references app_user(id),
        result jsonb,
        error jsonb,
        history jsonb not null default '[]',
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        decided_at timestamptz
      );
      create index mcp_approval_business_status on mcp_approval (business_id, status, id);
    `);
  }
}
