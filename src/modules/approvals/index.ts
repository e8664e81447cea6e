/**
 * The MCP approval queue (docs/mcp.md, Approvals): writes agents proposed, each a workflow `approval-<id>`
 * (contract.ts) whose read model is the mcp_approval row. It runs other modules' operations on approval, so it is
 * given the catalog rather than importing it.
 */
import type { Operation } from '../../platform/catalog/types.ts';
import { defineModule } from '../../platform/module.ts';
import { createApprovalActivities } from './activities.ts';
import { APPROVAL_STATUS, APPROVAL_WORKFLOW, MCP_TOOL, APPROVAL_QUEUE } from './contract.ts';
import { APPROVALS_ERRORS } from './errorCodes.ts';
import { APPROVAL_MESSAGES } from './messages.ts';
import { approvalOperations } from './operations.ts';
import { SEALED_ARGUMENTS } from './repo.ts';

export const approvals = (catalog: () => readonly Operation[]) =>
  defineModule({
    name: 'approvals',
    tags: {
      'MCP approvals':
        'Writes proposed by AI agents through MCP tools that wait for a person of the business: list, read, approve or reject them, and set how long a proposal waits. An approved write runs as its proposer.',
    },
    taskQueue: APPROVAL_QUEUE,
    operations: approvalOperations(catalog),
    activities: (deps) => createApprovalActivities(deps, catalog),
    workflows: [APPROVAL_WORKFLOW],
    messages: APPROVAL_MESSAGES,
    errorCodes: APPROVALS_ERRORS,
    searchAttributes: [MCP_TOOL, APPROVAL_STATUS],
    sealedColumns: [SEALED_ARGUMENTS],
  });

/** What the Operations AI Agent proposes through this queue: the write tools a proposal may name, and secrets masked. */
export { proposable } from './operations.ts';
export { masked as withSecretsMasked, SECRET_SHOWN } from './repo.ts';
