/** The package distribution workflow with its activities mocked: judging scans, search attributes, shelving, its end. */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  DEVICE_ID,
  DEVICE_ORDER_WORKFLOW,
  deviceOrderWorkflowId,
  statusQuery,
} from '../../../src/modules/device-orders/contract.ts';
import {
  DISTRIBUTION_DESTINATION,
  DISTRIBUTION_FLAGGED,
  DISTRIBUTION_STATUS,
  DISTRIBUTION_WAREHOUSE,
  DISTRIBUTION_WORKFLOW,
  distributionSearchAttributes,
  distributionWorkflowId,
  scanUpdate,
  type DistributionActivities,
  type DistributionInput,
  type RecordedScan,
  type RecordScanInput,
  type ScanArgs,
} from '../../../src/modules/distribution/contract.ts';
import { stateAfter, type PackageState, type ScanAction } from '../../../src/modules/distribution/domain.ts';
import type { packageDistributionWorkflow } from '../../../src/modules/distribution/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';

const WAREHOUSE = { placeId: 10, placeCode: 'WH1', deviceCode: null };
const LOCKER = { placeId: 20, placeCode: 'LK1', deviceCode: 'DEV-1' };
const T0 = Date.parse('2030-01-01T08:00:00Z');
const NEW: PackageState = { status: null, warehouseId: null, destinationId: null, lastStepAt: null };
const DELIVERED: PackageState = {
  status: 'delivered',
  warehouseId: WAREHOUSE.placeId,
  destinationId: LOCKER.placeId,
  lastStepAt: new Date(T0).toISOString(),
};

/** Scans `minutes` after T0, so that their order is the one the test means. */
function scan(action: ScanAction, place: typeof WAREHOUSE | typeof LOCKER, minutes: number): ScanArgs {
  return {
    key: randomUUID(),
    source: 'scanner',
    action,
    ...place,
    destinationId: null,
    destinationCode: null,
    gridCode: null,
    shelfCode: null,
    scannedAt: new Date(T0 + minutes * 60_000).toISOString(),
    actorId: 1,
  };
}

/**
 * A read model that keeps every scan as judged, as the real activity does; `override` scripts a different answer
 * (a duplicate, a device order).
 */
function readModel(override?: (input: RecordScanInput) => Partial<RecordedScan> | undefined) {
  const recorded: RecordScanInput[] = [];
  const notified: number[] = [];
  const abandoned: { packageId: number; error: string }[] = [];
  let notice: () => Promise<string> = async () => 'sent';
  const activities: DistributionActivities = {
    async recordDistributionScan(input) {
      recorded.push(input);
      const { judgement, scan: s } = input;
      const answer: RecordedScan = {
        outcome: {
          scan_id: s.key,
          outcome: judgement.applied ? 'applied' : 'flagged',
          flag: judgement.applied ? null : judgement.flag,
          status: judgement.applied ? judgement.status : input.state.status,
        },
        state: judgement.applied ? stateAfter(input.state, s, judgement.status) : input.state,
        deviceOrder: null,
      };
      return { ...answer, ...override?.(input) };
    },
    async notifyShelvedRecipient({ packageId }) {
      notified.push(packageId);
      return notice();
    },
    async abandonShelvedNotice(input) {
      abandoned.push(input);
    },
  };
  return {
    recorded,
    notified,
    abandoned,
    activities,
    failNotice: (message: string) => {
      notice = () => Promise.reject(ApplicationFailure.create({ message, nonRetryable: true }));
    },
  };
}

function inputFor(state: PackageState): DistributionInput {
  return {
    packageId: randomInt(1, 2 ** 31 - 1),
    packageNumber: `PKG-${randomUUID()}`,
    businessId: 1,
    orderId: 5,
    state,
    places: state.status === null ? { warehouse: null, destination: null } : { warehouse: 'WH1', destination: 'LK1' },
    timerScale: 1,
    notifyRetryScale: 0.0001,
  };
}

function start(w: MockedWorker, input: DistributionInput) {
  return w.client.workflow.start<typeof packageDistributionWorkflow>(DISTRIBUTION_WORKFLOW, {
    workflowId: distributionWorkflowId(input.packageNumber),
    taskQueue: w.taskQueue,
    args: [input],
    typedSearchAttributes: distributionSearchAttributes(input),
  });
}

describe('package distribution workflow (mocked activities)', () => {
  test('an applied scan moves the package and its search attributes; a flagged one is kept unapplied and moves nothing', async () => {
    const model = readModel();
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, inputFor(NEW));
      const attributes = async () => (await handle.describe()).typedSearchAttributes;
      try {
        const received = { ...scan('received', WAREHOUSE, 0), destinationId: LOCKER.placeId, destinationCode: 'LK1' };
        const first = await handle.executeUpdate(scanUpdate, { args: [received] });
        assert.deepEqual(first, { scan_id: received.key, outcome: 'applied', flag: null, status: 'created' });
        let sa = await attributes();
        assert.equal(sa.get(DISTRIBUTION_STATUS), 'created');
        assert.equal(sa.get(DISTRIBUTION_WAREHOUSE), 'WH1');
        assert.equal(sa.get(DISTRIBUTION_DESTINATION), 'LK1');
        assert.equal(sa.get(DISTRIBUTION_FLAGGED), undefined);

        // Delivered before it was ever loaded: the rules refuse it.
        const early = await handle.executeUpdate(scanUpdate, { args: [scan('delivered', LOCKER, 1)] });
        assert.equal(early.outcome, 'flagged');
        assert.equal(early.flag, 'does_not_fit');
        sa = await attributes();
        assert.equal(sa.get(DISTRIBUTION_STATUS), 'created');
        assert.equal(sa.get(DISTRIBUTION_FLAGGED), true);

        assert.equal(
          (await handle.executeUpdate(scanUpdate, { args: [scan('loaded', WAREHOUSE, 2)] })).status,
          'in_transit',
        );
        assert.equal((await attributes()).get(DISTRIBUTION_STATUS), 'in_transit');
        assert.equal((await handle.describe()).status.name, 'RUNNING', 'only shelving ends the process');
      } finally {
        await handle.terminate();
      }
    });
    const created: PackageState = { ...DELIVERED, status: 'created' };
    // Each scan is judged against the state the applied ones before it left; the flagged one left none.
    assert.deepEqual(
      model.recorded.map((r) => [r.scan.action, r.state, r.judgement]),
      [
        ['received', NEW, { applied: true, status: 'created' }],
        ['delivered', created, { applied: false, flag: 'does_not_fit' }],
        ['loaded', created, { applied: true, status: 'in_transit' }],
      ],
    );
  });

  test("the activity's duplicate answer is passed through and moves nothing", async () => {
    const repeated = scan('received', WAREHOUSE, 0);
    const model = readModel((input) =>
      input.scan.key === repeated.key
        ? {
            outcome: { scan_id: 'kept-before', outcome: 'duplicate', flag: null, status: 'in_transit' },
            state: { ...input.state, status: 'in_transit' },
          }
        : undefined,
    );
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, inputFor(NEW));
      try {
        assert.deepEqual(await handle.executeUpdate(scanUpdate, { args: [repeated] }), {
          scan_id: 'kept-before',
          outcome: 'duplicate',
          flag: null,
          status: 'in_transit',
        });
        // Still unreceived: a loaded scan is refused as it would be before any scan.
        const loaded = await handle.executeUpdate(scanUpdate, { args: [scan('loaded', WAREHOUSE, 1)] });
        assert.equal(loaded.flag, 'not_received');
        const sa = (await handle.describe()).typedSearchAttributes;
        assert.equal(sa.get(DISTRIBUTION_STATUS), undefined);
      } finally {
        await handle.terminate();
      }
    });
    assert.deepEqual(
      model.recorded.map((r) => r.state),
      [NEW, NEW],
    );
  });

  test('shelving into a locker ends the process: it starts the stored device order and tells the recipient', async () => {
    const deviceOrderId = randomInt(1, 2 ** 31 - 1);
    const model = readModel((input) =>
      input.scan.action === 'shelved'
        ? {
            deviceOrder: {
              input: { id: deviceOrderId, businessId: 1, dueAt: new Date(Date.now() + 3_600_000).toISOString() },
              deviceCode: 'DEV-1',
            },
          }
        : undefined,
    );
    const input = inputFor(DELIVERED);
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, input);
      const outcome = await handle.executeUpdate(scanUpdate, { args: [scan('shelved', LOCKER, 5)] });
      assert.equal(outcome.status, 'shelved');
      await handle.result();
      assert.equal((await handle.describe()).typedSearchAttributes.get(DISTRIBUTION_STATUS), 'shelved');

      // The device order outlives the distribution (abandoned), on the same worker.
      const child = w.client.workflow.getHandle(deviceOrderWorkflowId(deviceOrderId));
      try {
        const described = await child.describe();
        assert.equal(described.type, DEVICE_ORDER_WORKFLOW);
        assert.equal(described.status.name, 'RUNNING');
        assert.equal(described.typedSearchAttributes.get(DEVICE_ID), 'DEV-1');
        assert.equal(await child.query(statusQuery), 'stored');
      } finally {
        await child.terminate();
      }
    });
    assert.deepEqual(model.notified, [input.packageId]);
    assert.deepEqual(model.abandoned, []);
  });

  test('a notice the mail server never takes is abandoned with its error', async () => {
    const model = readModel();
    model.failNotice('mailbox unavailable');
    const input = inputFor(DELIVERED);
    await withMockedWorker(model.activities, async (w) => {
      const handle = await start(w, input);
      await handle.executeUpdate(scanUpdate, { args: [scan('shelved', LOCKER, 5)] });
      await handle.result();
    });
    assert.deepEqual(model.abandoned, [{ packageId: input.packageId, error: 'mailbox unavailable' }]);
  });

  test('a process resumed for a late scan of a shelved package flags it process_ended and ends without a notice', async () => {
    const model = readModel();
    const input = inputFor({ ...DELIVERED, status: 'shelved' });
    await withMockedWorker(model.activities, async (w) => {
      // As the API sends it: the update starts the ended process again, in its first task.
      const startWorkflowOperation = new WithStartWorkflowOperation<typeof packageDistributionWorkflow>(
        DISTRIBUTION_WORKFLOW,
        {
          workflowId: distributionWorkflowId(input.packageNumber),
          taskQueue: w.taskQueue,
          args: [input],
          typedSearchAttributes: distributionSearchAttributes(input),
          workflowIdConflictPolicy: 'USE_EXISTING',
        },
      );
      const late = await w.client.workflow.executeUpdateWithStart(scanUpdate, {
        args: [scan('removed', WAREHOUSE, 9)],
        startWorkflowOperation,
      });
      assert.equal(late.outcome, 'flagged');
      assert.equal(late.flag, 'process_ended');
      await (await startWorkflowOperation.workflowHandle()).result();
    });
    assert.deepEqual(
      model.recorded.map((r) => r.judgement),
      [{ applied: false, flag: 'process_ended' }],
    );
    assert.deepEqual(model.notified, []);
  });
});
