/**
 * The fast workflow tier: the real workflow bundle on the suite's Temporal dev server, with activities replaced by
 * plain functions the test scripts. Each call gets a task queue of its own, so files never steal each other's tasks.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { SEARCH_ATTRIBUTES } from '../../src/modules/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { workerMetrics } from '../../src/platform/telemetry/temporalMetrics.ts';
import { installRuntime } from '../../src/platform/temporal/worker.ts';
import { awaitSearchAttributes, registerSearchAttributes } from '../../src/platform/temporal/searchAttributes.ts';

export interface MockedWorker {
  client: Client;
  taskQueue: string;
}

export async function withMockedWorker<T>(activities: object, run: (w: MockedWorker) => Promise<T>): Promise<T> {
  // The SDK's own logs go where the service's go (silent in tests), not to the report as INFO lines.
  installRuntime(createLogger(process.env.LOG_LEVEL ?? 'silent'));
  const address = process.env.TEMPORAL_ADDRESS!;
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  // Workflows upsert their search attributes; the file's namespace starts without them.
  await awaitSearchAttributes(client, await registerSearchAttributes(connection, namespace, SEARCH_ATTRIBUTES));
  const native = await NativeConnection.connect({ address });
  const taskQueue = `mocked-${randomUUID()}`;
  const worker = await Worker.create({
    connection: native,
    namespace,
    taskQueue,
    workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
    activities,
    sinks: workerMetrics.sinks,
  });
  try {
    return await worker.runUntil(run({ client, taskQueue }));
  } finally {
    await native.close();
    await connection.close();
  }
}
