import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { errorReference, errorsDocument } from '../../api/errorReference.ts';
import { agentCatalog } from '../../api/mcp/developerOperations.ts';
import { buildSchema } from '../../api/graphql/schema.ts';
import { CATALOG } from '../../src/modules/index.ts';
import { runOperation } from '../../src/platform/catalog/run.ts';
import { failuresOf } from '../../src/platform/catalog/failures.ts';
import { defineOperation, type Operation, type OperationContext } from '../../src/platform/catalog/types.ts';
import { allErrorCodes, fail, failWith, registerErrorCodes } from '../../src/platform/errorCodes.ts';
import { AppError } from '../../src/platform/errors.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const operations = agentCatalog(CATALOG, 'http://localhost', 'test', () => buildSchema(CATALOG)).operations;

test('docs/errors.md is the registry as it is now: `npm run docs:errors` rewrites it', () => {
  const written = fs.readFileSync(path.join(ROOT, 'docs', 'errors.md'), 'utf8');
  assert.equal(written, errorsDocument(), 'docs/errors.md is stale: run npm run docs:errors');
});

test('every code an operation declares is registered, and every registered code is answered somewhere', () => {
  const reference = errorReference(operations);
  for (const op of operations) assert.doesNotThrow(() => failuresOf(op), op.name);
  for (const [code] of allErrorCodes()) {
    const row = reference.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    assert.ok(row, code);
    assert.doesNotMatch(row, /\| $/, `${code} is registered but no operation, kind or transport answers it`);
  }
});

test("a module's refusal takes its status from the table, and a code defined twice is refused at start-up", () => {
  const table = { ERROR_CODE_PROBE: { status: 409, meaning: 'A probe.' } };
  const err = failWith(table)('ERROR_CODE_PROBE' as never, 'error.conflict');
  assert.equal(err.status, 409);
  assert.equal(err.code, 'ERROR_CODE_PROBE');
  assert.equal(fail('INVALID_TRANSITION', 'error.conflict').status, 409);
  assert.throws(() => registerErrorCodes({ NOT_FOUND: { status: 410, meaning: 'Gone.' } }), /defined twice/);
});

const probe = (failures: Operation['failures']) =>
  defineOperation({
    name: 'probe',
    summary: 'probe',
    tag: 'Test',
    roles: 'public',
    failures,
    input: z.object({}),
    output: z.object({}),
    async handler() {
      throw fail('INVALID_TRANSITION', 'error.conflict');
    },
  }) as Operation;

test('an operation that answers a code it does not declare breaks its contract: logged, and a server error when strict', async () => {
  const logged: unknown[] = [];
  const ctx = (strictErrorCodes: boolean) =>
    ({
      caller: null,
      lang: 'en',
      dryRun: false,
      requestId: 'r',
      config: { strictErrorCodes },
      log: { error: (fields: unknown) => logged.push(fields) },
    }) as unknown as OperationContext;
  const is = (status: number, code: string) => (err: unknown) =>
    err instanceof AppError && err.status === status && err.code === code;

  await assert.rejects(runOperation(probe({ INVALID_TRANSITION: true }), {}, ctx(true)), is(409, 'INVALID_TRANSITION'));
  assert.deepEqual(logged, []);
  await assert.rejects(runOperation(probe({}), {}, ctx(false)), is(409, 'INVALID_TRANSITION'));
  assert.deepEqual(logged, [{ operation: 'probe', code: 'INVALID_TRANSITION' }]);
  await assert.rejects(runOperation(probe({}), {}, ctx(true)), (err) => {
    return is(500, 'INTERNAL')(err) && (err as AppError).extra?.undeclared_code === 'INVALID_TRANSITION';
  });
  const wrongStatus = {
    ...probe({ INVALID_TRANSITION: true }),
    handler: () => Promise.reject(new AppError(400, 'INVALID_TRANSITION', 'error.conflict')),
  };
  await assert.rejects(
    runOperation(wrongStatus, {}, ctx(true)),
    is(500, 'INTERNAL'),
    'a declared code with another status',
  );
});
