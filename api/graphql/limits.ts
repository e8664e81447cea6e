import {
  GraphQLError,
  Kind,
  getOperationAST,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { createComplexityRule, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { GraphQLLimits } from '../../src/platform/config.ts';
import { AppError } from '../../src/platform/errors.ts';
import { fail } from '../../src/platform/errorCodes.ts';
import { MAX_JSON_DEPTH } from '../../src/platform/json.ts';
import type { Failures } from '../../src/platform/catalog/types.ts';
import type { PageSize } from './schema.ts';

// What one GraphQL request may ask for (docs/graphql-limits.md). Everything but the answer's size is checked on
// the document, before any resolver runs: one request once asked for 2,000 pages of 200 orders and stalled every
// tenant for 14 s.

/** The codes a GraphQL request over its limits answers, for an operation that runs GraphQL documents. */
export const GRAPHQL_LIMIT_FAILURES: Failures = {
  QUERY_TOO_LARGE: true,
  TOO_MANY_MUTATIONS: true,
  TOO_MANY_ALIASES: true,
  QUERY_TOO_DEEP: true,
  QUERY_TOO_COMPLEX: true,
  RESPONSE_TOO_LARGE: true,
};

/**
 * How deep brackets (`{`, `[`, `(`) nest in a GraphQL text, outside its strings and comments. The parser recurses
 * once per level, so a list literal thousands deep ran it out of stack: the text is bounded before it is parsed.
 */
export function bracketDepth(query: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i]!;
    if (c === '#') {
      i = query.indexOf('\n', i);
      if (i === -1) break;
    } else if (query.startsWith('"""', i)) {
      i += 3;
      while (i < query.length && !query.startsWith('"""', i)) i += query.startsWith('\\"""', i) ? 4 : 1;
      i += 2;
    } else if (c === '"') {
      for (i++; i < query.length && query[i] !== '"' && query[i] !== '\n'; i++) if (query[i] === '\\') i++;
    } else if (c === '{' || c === '[' || c === '(') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']' || c === ')') depth--;
  }
  return deepest;
}

/** What is checked on the text before it is parsed: its size, then how deep its brackets nest (MAX_JSON_DEPTH). */
export function checkQueryText(query: unknown, limits: GraphQLLimits): AppError | null {
  if (typeof query !== 'string') return null;
  const bytes = Buffer.byteLength(query);
  if (bytes > limits.maxQueryBytes)
    return new AppError(413, 'QUERY_TOO_LARGE', 'error.query_too_large', { params: { limit: limits.maxQueryBytes } });
  const depth = bracketDepth(query);
  return depth > MAX_JSON_DEPTH
    ? fail('QUERY_TOO_DEEP', 'error.query_too_deep', { depth, limit: MAX_JSON_DEPTH })
    : null;
}

/** Mutations, aliases, depth, then cost, for the operation that would run; null when within every limit. */
export function checkDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
  limits: GraphQLLimits,
): AppError | null {
  // No single operation to run: the handler answers that itself, after the ordinary validation.
  const operation = getOperationAST(document, operationName);
  if (!operation) return null;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const shape = measure(operation.selectionSet, fragments, new Map(), new Set());
  if (operation.operation === 'mutation' && shape.fields > limits.maxMutations) {
    return fail('TOO_MANY_MUTATIONS', 'error.too_many_mutations', {
      count: shape.fields,
      limit: limits.maxMutations,
    });
  }
  if (shape.aliases > limits.maxAliases)
    return fail('TOO_MANY_ALIASES', 'error.too_many_aliases', {
      count: shape.aliases,
      limit: limits.maxAliases,
    });
  if (shape.depth > limits.maxDepth)
    return fail('QUERY_TOO_DEEP', 'error.query_too_deep', { depth: shape.depth, limit: limits.maxDepth });
  const cost = costOf(schema, { kind: Kind.DOCUMENT, definitions: [operation, ...fragments.values()] }, variables);
  if (cost > limits.maxCost)
    return fail('QUERY_TOO_COMPLEX', 'error.query_too_complex', {
      cost: Number.isFinite(cost) ? cost : '∞',
      limit: limits.maxCost,
    });
  return null;
}

/** An error to send in place of the answer when the answer, serialised, is larger than the limit. */
export function checkResponseSize(result: ExecutionResult, limits: GraphQLLimits): AppError | null {
  const bytes = Buffer.byteLength(JSON.stringify(result));
  return bytes > limits.maxResponseBytes
    ? fail('RESPONSE_TOO_LARGE', 'error.response_too_large', { limit: limits.maxResponseBytes })
    : null;
}

interface Shape {
  /** Fields directly in this selection set, through fragments: the root fields of an operation. */
  fields: number;
  aliases: number;
  /** Levels of fields, this one included. */
  depth: number;
}

/**
 * Fields, aliases and depth of a selection set, with fragments expanded where they are spread (each spread counts
 * again, as execution would run it again) and measured once each, so that spreading a fragment many times stays
 * cheap to measure. A fragment cycle counts as nothing here; the ordinary validation refuses it.
 */
function measure(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  measured: Map<string, Shape>,
  active: Set<string>,
): Shape {
  const shape: Shape = { fields: 0, aliases: 0, depth: 0 };
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const inner = sel.selectionSet
        ? measure(sel.selectionSet, fragments, measured, active)
        : { aliases: 0, depth: 0 };
      shape.fields += 1;
      shape.aliases += (sel.alias ? 1 : 0) + inner.aliases;
      shape.depth = Math.max(shape.depth, 1 + inner.depth);
      continue;
    }
    let inner: Shape | undefined;
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      inner = measure(sel.selectionSet, fragments, measured, active);
    } else {
      const name = sel.name.value;
      const fragment = fragments.get(name);
      if (!fragment || active.has(name)) continue;
      inner = measured.get(name);
      if (!inner) {
        active.add(name);
        inner = measure(fragment.selectionSet, fragments, measured, active);
        active.delete(name);
        measured.set(name, inner);
      }
    }
    shape.fields += inner.fields;
    shape.aliases += inner.aliases;
    shape.depth = Math.max(shape.depth, inner.depth);
  }
  return shape;
}

/**
 * A field that takes a page size costs 1 plus that size (the declared maximum when the argument is left out) times
 * what is selected under it; every other field 1 plus what is under it. The page's own counters are overcounted
 * by the page size, which keeps the estimate on the safe side.
 */
const pagedEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const pageSize = field.extensions?.pageSize as PageSize | undefined;
  if (!pageSize) return undefined;
  const requested = args[pageSize.arg];
  // Beyond the maximum the operation refuses the input itself, with the field named; count the maximum.
  const size = typeof requested === 'number' && requested > 0 ? Math.min(requested, pageSize.max) : pageSize.max;
  return 1 + size * childComplexity;
};

/** The operation's estimated cost (graphql-query-complexity); Infinity when the document is too large to estimate. */
function costOf(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined): number {
  let cost = 0;
  const rule = createComplexityRule({
    maximumComplexity: Number.MAX_SAFE_INTEGER,
    estimators: [pagedEstimator, simpleEstimator({ defaultComplexity: 1 })],
    variables: variables ?? {},
    onComplete: (c) => {
      cost = c;
    },
  });
  try {
    // Other problems it reports (a bad argument, a bad variable) are the ordinary validation's or execution's to answer.
    validate(schema, document, [rule]);
  } catch (err) {
    // The library stops with an error past 10,000 nodes: fragments spread into each other many times over.
    if (err instanceof GraphQLError) return Infinity;
    throw err;
  }
  return cost;
}
