/**
 * The examples of the API reference: each operation's input and answer, written from its schemas
 * (src/platform/schemaExample.ts) unless the catalog states its own (`Operation.examples`), and each failure's error
 * body. test/platform/examples.unit.test.ts parses every one with the operation's zod schemas, so none can lie.
 */
import type { Operation } from '../src/platform/catalog/types.ts';
import type { Failure } from '../src/platform/catalog/failures.ts';
import { errorBody } from '../src/platform/errorBody.ts';
import { errorCodeDefinition } from '../src/platform/errorCodes.ts';
import { AppError, errors } from '../src/platform/errors.ts';
import { allMessages, type MessageKey } from '../src/platform/i18n/messages.ts';
import { exampleOf } from '../src/platform/schemaExample.ts';
import { inputJsonSchema, outputJsonSchema } from './graphql/schema.ts';

export interface OperationExamples {
  /** The whole input: path and query parameters and the body's fields together, as the runner reads them. */
  input: Record<string, unknown>;
  output: unknown;
}

const known = new WeakMap<Operation, OperationExamples>();

/** An operation's examples; built once per operation. */
export function examplesOf(op: Operation): OperationExamples {
  let found = known.get(op);
  if (!found) {
    found = {
      input: (op.examples?.input ?? exampleOf(inputJsonSchema(op))) as Record<string, unknown>,
      output: op.examples && 'output' in op.examples ? op.examples.output : exampleOf(outputJsonSchema(op)),
    };
    known.set(op, found);
  }
  return found;
}

/** An input field's example for its parameter: the input example's value, else one from the field's own schema. */
export function parameterExample(op: Operation, name: string): unknown {
  const { input } = examplesOf(op);
  if (name in input) return input[name];
  return exampleOf(inputJsonSchema(op).properties?.[name] ?? {});
}

/**
 * The body a failure answers, as the service writes it (errorBody, in English): the platform's message for the code
 * when it has one, otherwise what the code means for this operation. A validation failure names a field.
 */
export function errorExample(op: Operation, failure: Failure): Record<string, unknown> {
  if (failure.code === 'VALIDATION_FAILED') {
    const input = inputJsonSchema(op);
    const required = input.required?.[0];
    const field = required ?? Object.keys(input.properties ?? {})[0] ?? '(body)';
    return errorBody(errors.validation([{ field, key: required ? 'field.required' : 'field.invalid' }]), 'en');
  }
  const key = `error.${failure.code.toLowerCase()}`;
  const body = allMessages().has(key)
    ? errorBody(new AppError(failure.status, failure.code, key as MessageKey, { params: { seconds: 60 } }), 'en')
    : null;
  const extra = errorCodeDefinition(failure.code).body;
  return body && !/\{\w+\}/.test(body.message)
    ? { ...body, ...extra }
    : { result: false, code: failure.code, message: failure.reason, ...extra };
}
