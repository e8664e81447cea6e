/**
 * What the MCP SDK reports while it serves a request. The SDK answers a failure of its own with a bare 500
 * "Internal server error" and hands the cause only to its `onerror` hooks, which know no request; without them such a
 * fault was logged as a status alone. Each request's reports are gathered here (AsyncLocalStorage) and logged with the
 * request's logger when its answer is a 5xx. The SDK also reports the requests it refuses (4xx): those are the
 * client's mistakes, answered in full, and not logged.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Logger } from '../../src/platform/logger.ts';

const reports = new AsyncLocalStorage<Error[]>();

/** The `onerror` of the SDK's handlers (createMcpHandler and toNodeHandler). */
export const reportSdkError = (err: Error): void => {
  reports.getStore()?.push(err);
};

/** Serves one request through the SDK; a 5xx answer is logged once, at error level, with the cause the SDK reported. */
export async function servedBySdk(log: Logger, res: ServerResponse, serve: () => Promise<void>): Promise<void> {
  const reported: Error[] = [];
  await reports.run(reported, serve);
  if (res.statusCode >= 500)
    log.error(
      { err: reported.at(-1), status: res.statusCode, reports: reported.length },
      'MCP request failed in the SDK',
    );
}
