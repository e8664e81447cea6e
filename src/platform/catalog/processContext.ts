/**
 * The context an operation runs in when a process calls it from a worker (a job's item, an approved write, a
 * placement or hand-over done for a customer): the account it acts as, its own sessions, no dry run, and the process's
 * name wherever a request would name itself (request id, client address, log).
 */
import { ReadCache } from '../db/readCache.ts';
import type { Em } from '../db/orm.ts';
import type { Language } from '../i18n/languages.ts';
import type { WorkerDeps } from '../module.ts';
import type { QuotaCounter } from '../quotaCounter.ts';
import type { AgentGrant, Caller, OperationContext } from './types.ts';

export interface ProcessCall<C extends Caller> {
  caller: C;
  /** Names the call: `requestId` and, unless `clientAddress` says otherwise, the client address. */
  name: string;
  clientAddress?: string;
  quotas: QuotaCounter;
  /** The fields the call's log lines carry (on the worker's logger), or a logger of the call's own. */
  logFields?: Record<string, unknown>;
  log?: OperationContext['log'];
  em?: Em;
  lang?: Language;
  agent?: AgentGrant;
}

export function processContext<C extends Caller>(
  deps: Pick<WorkerDeps, 'orm' | 'temporal' | 'config' | 'log'>,
  call: ProcessCall<C>,
): OperationContext & { caller: C } {
  return {
    caller: call.caller,
    lang: call.lang ?? 'en',
    em: call.em ?? deps.orm.em.fork(),
    countsEm: deps.orm.em.fork(),
    temporal: deps.temporal,
    config: deps.config,
    log: call.log ?? deps.log.child(call.logFields ?? {}),
    requestId: call.name,
    dryRun: false,
    clientAddress: call.clientAddress ?? call.name,
    reads: new ReadCache(),
    quotas: call.quotas,
    ...(call.agent && { agent: call.agent }),
  };
}
