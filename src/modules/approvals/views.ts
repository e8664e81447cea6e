import { z } from 'zod';
import { errorBody } from '../../platform/errorBody.ts';
import type { ErrorCode } from '../../platform/errorCodes.ts';
import { AppError } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n/languages.ts';
import type { MessageKey } from '../../platform/i18n/messages.ts';
import { APPROVAL_STATUSES, approvalWorkflowId } from './contract.ts';
import type { ApprovalRow } from './repo.ts';

const person = z.object({ id: z.number().int(), name: z.string() }).nullable();

export const ApprovalView = z.object({
  id: z.number().int(),
  workflow_id: z.string().describe('The approval process in the Temporal UI'),
  server: z.enum(['user', 'developer']),
  tool: z.string(),
  arguments: z
    .record(z.string(), z.unknown())
    .describe('The tool\'s arguments; a secret one (a signing secret, a password) shows as "[secret]"'),
  reason: z.string().nullable(),
  status: z.enum(APPROVAL_STATUSES),
  proposed_by: person,
  reviewed_by: person,
  created_at: z.string(),
  expires_at: z.string(),
  decided_at: z.string().nullable(),
  result: z.unknown().describe("The tool's answer, once done"),
  error: z
    .object({ result: z.literal(false), code: z.string(), message: z.string() })
    .passthrough()
    .nullable()
    .describe("Why the approved write failed, in the reader's language"),
  history: z.array(
    z.object({ at: z.string(), step: z.string(), by: z.number().int().nullable(), reason: z.string().optional() }),
  ),
});
export type ApprovalView = z.input<typeof ApprovalView>;

/** A row as its readers see it, its failure in their language; `names` holds the people it names. */
export function approvalView(
  row: ApprovalRow & { proposer_name?: string; reviewer_name?: string | null },
  lang: Language,
): ApprovalView {
  const e = row.error;
  return {
    id: row.id,
    workflow_id: approvalWorkflowId(row.id),
    server: row.server,
    tool: row.tool,
    arguments: row.arguments,
    reason: row.reason,
    status: row.status,
    proposed_by: { id: row.proposed_by, name: row.proposer_name ?? '' },
    reviewed_by: row.reviewed_by === null ? null : { id: row.reviewed_by, name: row.reviewer_name ?? '' },
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    decided_at: row.decided_at && new Date(row.decided_at).toISOString(),
    result: row.result ?? null,
    error:
      e &&
      errorBody(
        new AppError(e.status, e.code as ErrorCode, e.key as MessageKey, {
          params: e.params as never,
          fields: e.fields as never,
        }),
        lang,
      ),
    history: row.history,
  };
}
