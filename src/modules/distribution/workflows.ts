import {
  ActivityFailure,
  condition,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  allHandlersFinished,
  log,
} from '@temporalio/workflow';
import {
  deviceOrderSearchAttributes,
  deviceOrderWorkflowId,
  DEVICE_ORDER_WORKFLOW,
} from '../device-orders/contract.ts';
import {
  DISTRIBUTION_DESTINATION,
  DISTRIBUTION_FLAGGED,
  DISTRIBUTION_STATUS,
  DISTRIBUTION_WAREHOUSE,
  scanUpdate,
  type DistributionActivities,
  type DistributionInput,
  type RecordedScan,
  type ScanArgs,
  type ScanOutcome,
} from './contract.ts';
import { noticeActivityOptions } from '../notifications/contract.ts';
import { isFinal, judgeScan } from './domain.ts';

/** A scan is one short transaction: a local activity, in the workflow task that judged it. */
const { recordDistributionScan } = proxyLocalActivities<DistributionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
const { abandonShelvedNotice } = proxyLocalActivities<DistributionActivities>({ startToCloseTimeout: '30 seconds' });
/** A mail server down for hours still gets the notice (noticeActivityOptions). */
const noticeActivities = (scale: number) => proxyActivities<DistributionActivities>(noticeActivityOptions(scale));

/**
 * The distribution of one package (docs/distribution.md): scans move it from its receiving warehouse to a locker
 * compartment or a store shelf, one at a time and in the order they reach it. A scan that does not fit is kept
 * on the package's history, flagged, and never moves it. Shelving ends the process: a locker's device order takes
 * the parcel from there, and the recipient is told where to collect it.
 */
export async function packageDistributionWorkflow(input: DistributionInput): Promise<void> {
  let state = input.state;
  const places = { ...input.places };
  let shelved: RecordedScan | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function handle(scan: ScanArgs): Promise<ScanOutcome> {
    const judgement = judgeScan(state, scan);
    const recorded = await recordDistributionScan({ ...input, scan, state, judgement });
    if (recorded.outcome.outcome === 'flagged') {
      upsertSearchAttributes([{ key: DISTRIBUTION_FLAGGED, value: true }]);
      log.warn('distribution scan flagged', {
        packageNumber: input.packageNumber,
        action: scan.action,
        flag: recorded.outcome.flag,
      });
    }
    if (recorded.outcome.outcome !== 'applied') return recorded.outcome;
    state = recorded.state;
    if (scan.action === 'received') places.warehouse = scan.placeCode;
    if (scan.action === 'received' && scan.destinationCode !== null) places.destination = scan.destinationCode;
    if (scan.action === 'delivered') places.destination = scan.placeCode;
    upsertSearchAttributes([
      { key: DISTRIBUTION_STATUS, value: state.status! },
      ...(places.warehouse ? [{ key: DISTRIBUTION_WAREHOUSE, value: places.warehouse }] : []),
      ...(places.destination ? [{ key: DISTRIBUTION_DESTINATION, value: places.destination }] : []),
    ]);
    if (isFinal(state.status)) shelved = recorded;
    return recorded.outcome;
  }

  // One scan at a time: each is judged against the state the one before it left.
  setHandler(scanUpdate, (scan) => {
    const outcome = queue.then(() => handle(scan));
    queue = outcome.catch(() => undefined);
    return outcome;
  });

  await condition(() => isFinal(state.status) && allHandlersFinished());
  const done = shelved as RecordedScan | null;
  if (done === null) return; // resumed only to answer a late scan
  if (done.deviceOrder) {
    const { input: order, deviceCode } = done.deviceOrder;
    await startChild(DEVICE_ORDER_WORKFLOW, {
      workflowId: deviceOrderWorkflowId(order.id),
      args: [order],
      typedSearchAttributes: deviceOrderSearchAttributes(input.businessId, deviceCode, input.orderId),
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  }
  await noticeActivities(input.notifyRetryScale ?? 1)
    .notifyShelvedRecipient({ packageId: input.packageId })
    .catch((err: unknown) =>
      abandonShelvedNotice({
        packageId: input.packageId,
        error: err instanceof ActivityFailure && err.cause ? err.cause.message : String(err),
      }),
    );
  await condition(allHandlersFinished);
}
