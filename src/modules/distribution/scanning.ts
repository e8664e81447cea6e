/** Sends a scan to its package's process, starting the process (from the read model) when none is running. */
import { WithStartWorkflowOperation } from '@temporalio/client';
import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from '../../platform/config.ts';
import {
  distributionSearchAttributes,
  distributionWorkflowId,
  scanUpdate,
  DISTRIBUTION_WORKFLOW,
  type ScanArgs,
  type ScanOutcome,
  DISTRIBUTION_QUEUE,
} from './contract.ts';
import type { ScanPackage } from './repo/distributions.ts';
import type { packageDistributionWorkflow } from './workflows.ts';

/** A scan's key when its sender gave no id: the same scan sent twice is the same scan. */
export function contentKey(
  s: Pick<ScanArgs, 'action' | 'placeCode' | 'destinationCode' | 'gridCode' | 'shelfCode' | 'scannedAt'>,
): string {
  const content = JSON.stringify([
    s.action,
    s.placeCode,
    s.destinationCode,
    s.gridCode,
    s.shelfCode,
    new Date(s.scannedAt).toISOString(),
  ]);
  return `h-${createHash('sha256').update(content).digest('hex').slice(0, 32)}`;
}

export interface ScanSender {
  temporal: Client;
  config: Pick<Config, 'lockerTimerScale' | 'notifyRetryScale'>;
}

export async function sendScan(
  ctx: ScanSender,
  businessId: number,
  pkg: ScanPackage,
  scan: ScanArgs,
): Promise<ScanOutcome> {
  const input = {
    packageId: pkg.id,
    packageNumber: pkg.number,
    businessId,
    orderId: pkg.orderId,
    state: pkg.state,
    places: pkg.places,
    timerScale: ctx.config.lockerTimerScale,
    notifyRetryScale: ctx.config.notifyRetryScale,
  };
  // A running process keeps its own state (USE_EXISTING); an ended one is resumed from the read model to judge a late scan.
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof packageDistributionWorkflow>(
    DISTRIBUTION_WORKFLOW,
    {
      workflowId: distributionWorkflowId(pkg.number),
      taskQueue: DISTRIBUTION_QUEUE,
      args: [input],
      typedSearchAttributes: distributionSearchAttributes(input),
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    },
  );
  return ctx.temporal.workflow.executeUpdateWithStart(scanUpdate, { args: [scan], startWorkflowOperation });
}
