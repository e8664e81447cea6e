/** The one mapping from a workflow's refusal to the API's answer (platform/temporal/refusals.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { AppError } from '../../src/platform/errors.ts';
import type { ErrorCode } from '../../src/platform/errorCodes.ts';
import { ANY_REFUSAL, PROCESS_GONE, refusedAs } from '../../src/platform/temporal/refusals.ts';

const refused = (type: string) =>
  Promise.reject(new WorkflowUpdateFailedError('refused', ApplicationFailure.create({ type, nonRetryable: true })));
const conflict = (code: string) => () => new AppError(409, code as ErrorCode, 'error.conflict');
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (err: unknown) => (err instanceof AppError ? err.code : `thrown ${(err as Error).constructor.name}`),
  );

test('a refusal the table names becomes its error; a gone process only when the table names it', async () => {
  const table = { Refused: conflict('A'), [ANY_REFUSAL]: conflict('ANY') };
  assert.equal(await codeOf(refusedAs(refused('Refused'), table)), 'A');
  assert.equal(await codeOf(refusedAs(refused('Other'), table)), 'ANY');
  const gone = () => Promise.reject(new WorkflowNotFoundError('gone', 'wf', undefined));
  assert.equal(await codeOf(refusedAs(gone(), table)), 'thrown WorkflowNotFoundError');
  assert.equal(await codeOf(refusedAs(gone(), { [PROCESS_GONE]: conflict('GONE') })), 'GONE');
});

test('what is not a refusal is thrown on, and an answer passes through', async () => {
  const table = { [ANY_REFUSAL]: conflict('ANY') };
  const cancelled = Promise.reject(new WorkflowUpdateFailedError('cancelled', new CancelledFailure('cancelled')));
  assert.equal(await codeOf(refusedAs(cancelled, table)), 'thrown WorkflowUpdateFailedError');
  assert.equal(await codeOf(refusedAs(Promise.reject(new Error('down')), table)), 'thrown Error');
  assert.equal(await refusedAs(Promise.resolve(7), table), 7);
});
