/**
 * `labelEndOfDay` (docs/labels.md, "Schedule"): started by the business's schedule `label-eod-<business id>`, it runs
 * the business's end of day in one activity. Deterministic code only; the business id goes in, manifest ids come out.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { EndOfDayActivities, LabelEndOfDayInput, LabelEndOfDayResult } from './contract.ts';

/**
 * Each carrier is called under its deadline (LABEL_CARRIER_TIMEOUT_MS, 10 s), all in parallel; a retry after a
 * worker or database failure manifests only what is still open, since each manifest commits with its labels.
 */
const { runLabelEndOfDay } = proxyActivities<EndOfDayActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});

export async function labelEndOfDay(input: LabelEndOfDayInput): Promise<LabelEndOfDayResult> {
  return runLabelEndOfDay({ businessId: input.businessId });
}
