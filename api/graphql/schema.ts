import { GraphQLError, GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfig } from 'graphql';
import { StopsAtWorkflow } from '../../src/platform/catalog/dryRun.ts';
import { runOperation } from '../../src/platform/catalog/run.ts';
import {
  inputJsonSchema as inputSchemaOf,
  outputJsonSchema as outputSchemaOf,
} from '../../src/platform/catalog/mcpTools.ts';
import type { Operation, OperationContext } from '../../src/platform/catalog/types.ts';
import type { AppError } from '../../src/platform/errors.ts';
import type { Language } from '../../src/platform/i18n/languages.ts';
import { errorBody, toAppError } from '../middleware/errors.ts';
import { TypeBuilder, type JsonSchema } from './types.ts';

/** Whether an operation is a GraphQL query or mutation: as it says, else a REST GET is a query. */
export const graphqlKind = (op: Operation): 'query' | 'mutation' =>
  op.graphql?.kind ?? (op.rest?.method === 'GET' ? 'query' : 'mutation');

/** An operation's input and output as JSON Schema (one derivation for every surface: platform/catalog/mcpTools.ts). */
export const inputJsonSchema = (op: Operation, anyJsonRef?: string) => inputSchemaOf(op, anyJsonRef) as JsonSchema;
export const outputJsonSchema = (op: Operation) => outputSchemaOf(op) as JsonSchema;

/** An AppError as a GraphQL error: the REST body's code, translated message and field errors under extensions. */
export function graphQLErrorOf(err: AppError, lang: Language): GraphQLError {
  const { message, ...body } = errorBody(err, lang);
  return new GraphQLError(message, { extensions: { ...body, status: err.status } });
}

/**
 * GraphQL errors take the REST path: the same code, translated message and field errors; an unexpected failure
 * is logged with the request id and answered as INTERNAL, its own text never reaching the caller.
 */
function toGraphQLError(caught: unknown, ctx: OperationContext): GraphQLError {
  if (caught instanceof StopsAtWorkflow) return new GraphQLError(caught.message, { extensions: { dry_run: true } });
  const err = toAppError(caught);
  if (err.status >= 500) ctx.log.error({ err: caught }, 'request failed');
  return graphQLErrorOf(err, ctx.lang);
}

/** The inputs that size a list's page: the platform's `per_page` and the `limit` of lists without pages. */
const PAGE_SIZE_INPUTS = ['per_page', 'limit'];

/** Where a field takes a page size, the argument and its declared maximum, for the cost analysis (limits.ts). */
export interface PageSize {
  arg: string;
  max: number;
}

function pageSizeOf(input: JsonSchema): PageSize | undefined {
  for (const arg of PAGE_SIZE_INPUTS) {
    const max = input.properties?.[arg]?.maximum;
    if (max !== undefined) return { arg, max };
  }
  return undefined;
}

/** Queries for reads (GET), mutations for writes; arguments are the operation's input fields. */
export function buildSchema(catalog: readonly Operation[]): GraphQLSchema {
  const types = new TypeBuilder();
  const query: Record<string, GraphQLFieldConfig<unknown, OperationContext>> = {};
  const mutation: Record<string, GraphQLFieldConfig<unknown, OperationContext>> = {};
  for (const op of catalog) {
    if (!op.graphql) continue;
    const { name } = op.graphql;
    const kind = graphqlKind(op);
    const input = inputJsonSchema(op);
    const required = new Set(input.required ?? []);
    const pageSize = pageSizeOf(input);
    const args = Object.fromEntries(
      Object.entries(input.properties ?? {}).map(([k, v]) => [
        k,
        { type: types.input(v, `${name}_${k}`, required.has(k) && v.default === undefined) },
      ]),
    );
    (kind === 'query' ? query : mutation)[name] = {
      type: types.output(outputJsonSchema(op), `${name}Result`),
      description: op.summary,
      args,
      ...(pageSize && { extensions: { pageSize } }),
      resolve: async (_root, rawArgs: Record<string, unknown>, ctx) => {
        const defined = Object.fromEntries(Object.entries(rawArgs).filter(([, v]) => v !== undefined));
        try {
          return await runOperation(op, defined, ctx);
        } catch (err) {
          throw toGraphQLError(err, ctx);
        }
      },
    };
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  });
}
