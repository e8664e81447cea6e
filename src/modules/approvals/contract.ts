/**
 * The approval process, imported by the API (to start it and send the decision) and by the workflow. Workflow id
 * `approval-<id>`; the mcp_approval row is the read model its activities write (docs/mcp.md, Approvals).
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID } from '../../platform/temporal/searchKeys.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const APPROVAL_WORKFLOW = 'approvalWorkflow';
/** The task queue its workflow and activities run on. */
export const APPROVAL_QUEUE = PROCESS_QUEUE;
export const approvalWorkflowId = (id: number): string => `approval-${id}`;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'done', 'failed'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface ApprovalInput {
  id: number;
  businessId: number;
  tool: string;
  /** ISO 8601: a proposal nobody decided by then expires. */
  expiresAt: string;
}

export interface Decision {
  decision: 'approve' | 'reject';
  reviewerId: number;
  reason?: string;
}

/** The decision of a reviewer; answers the proposal's status once the decision has been carried out. */
export const decideUpdate = defineUpdate<ApprovalStatus, [Decision]>('decide');

/** Failure type of a decision on a proposal that is no longer pending. */
export const APPROVAL_DECIDED = 'ApprovalDecided';

/** Operators find proposals by tool and status, e.g. `McpTool = "update_webhook_settings" AND ApprovalStatus = "pending"`. */
export const MCP_TOOL = defineSearchAttributeKey('McpTool', SearchAttributeType.KEYWORD);
export const APPROVAL_STATUS = defineSearchAttributeKey('ApprovalStatus', SearchAttributeType.KEYWORD);

export function approvalSearchAttributes(input: ApprovalInput): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: input.businessId },
    { key: MCP_TOOL, value: input.tool },
    { key: APPROVAL_STATUS, value: 'pending' },
  ]);
}

/** The approval's activities, as they cross into history (activities.ts implements them). */
export type ApprovalActivities = {
  /**
   * Runs an approved proposal's tool once, as the proposer, and records the answer or the failure; a retry after a
   * crash between the claim and the record runs nothing and records that the outcome is unknown.
   */
  runApprovedWrite(input: { id: number; reviewerId: number }): Promise<ApprovalStatus>;
  closeApproval(input: {
    id: number;
    status: 'rejected' | 'expired';
    reviewerId?: number | null;
    reason?: string;
  }): Promise<ApprovalStatus>;
};
