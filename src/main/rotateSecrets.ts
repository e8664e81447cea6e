/**
 * `npm run secrets:rotate`: starts the key rotation (or follows the one under way) and prints its progress until it
 * ends. Ctrl-C stops following, not the rotation; pause and resume it from the Temporal UI (signals `pause` and
 * `resume` on workflow `secrets-rotation`). Every worker must already hold the new key first in SECRETS_KEY.
 */
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import {
  progressQuery,
  SECRETS_ROTATION_ID,
  SECRETS_ROTATION_QUEUE,
  SECRETS_ROTATION_WORKFLOW,
} from '../modules/secrets/contract.ts';
import type { secretsRotationWorkflow } from '../modules/secrets/workflows.ts';

const config = loadConfig();
const log = createLogger(config.logLevel);
const address = config.temporalAddress ?? `127.0.0.1:${config.temporalPort}`;
const connection = await Connection.connect({ address });
try {
  const client = new Client({ connection, namespace: config.temporalNamespace });
  // A rotation under way is followed, not started twice; a finished one may run again (the next rotation).
  const handle = await client.workflow.start<typeof secretsRotationWorkflow>(SECRETS_ROTATION_WORKFLOW, {
    workflowId: SECRETS_ROTATION_ID,
    taskQueue: SECRETS_ROTATION_QUEUE,
    args: [{}],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  log.info(
    { workflowId: SECRETS_ROTATION_ID, runId: handle.firstExecutionRunId },
    'key rotation running; pause and resume it from the Temporal UI',
  );
  const timer = setInterval(() => {
    handle.query(progressQuery).then(
      (p) => log.info({ ...p, columns: p.columns.length }, 'rotation progress'),
      () => undefined,
    );
  }, 2_000);
  try {
    const done = await handle.result();
    log.info(
      { keyId: done.keyId, scanned: done.scanned, resealed: done.resealed, unreadable: done.unreadable },
      'key rotation done',
    );
    if (done.unreadable.length) process.exitCode = 1;
  } finally {
    clearInterval(timer);
  }
} finally {
  await connection.close();
}
