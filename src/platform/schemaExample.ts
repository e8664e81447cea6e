/**
 * An example value written from a JSON Schema, for the reference documents (OpenAPI, AsyncAPI): true by construction,
 * so that a family keeps its examples by keeping its schemas. A value comes from the schema's own words first (its
 * `examples`, `example`, `const`, `default`, first `enum` value), then from its `format` and bounds, then a plain
 * placeholder of its type. Deterministic: the same schema always gives the same example.
 */

type Node = { [keyword: string]: unknown };

/** The fixed values of the common formats; the date is a Wednesday morning well inside the accepted years. */
const FORMATS: Record<string, unknown> = {
  'date-time': '2025-03-12T09:30:00Z',
  date: '2025-03-12',
  time: '09:30:00Z',
  email: 'dispatch@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '3f2b8c1e-7a4d-4e9b-9c2f-5d6e7f8a9b0c',
  hostname: 'example.com',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
  duration: 'PT15M',
};

/**
 * What a plain text field holds when its name says so and its schema does not (no format, no pattern of its own): the
 * catalog's fields are snake_case, a time ends in `_at`, a date in `_date`. Any text is valid there, so the example
 * stays valid; it only reads better.
 */
const BY_NAME: [RegExp, string][] = [
  [/(^|_)(at|until|deadline)$/, FORMATS['date-time'] as string],
  [/(^|_)date$/, FORMATS.date as string],
  [/(^|_)email$/, FORMATS.email as string],
  [/(^|_)urls?$/, 'https://hooks.example.com/tms'],
  [/(^|_)phone$/, '+420601234567'],
];

/** Deeper than this a recursive schema stops: an optional part is left out, a list is empty. */
const MAX_DEPTH = 12;

/** The example of a schema, `root` holding the `$defs` its references point into. */
export function exampleOf(schema: unknown, root: unknown = schema): unknown {
  return write(schema as Node, root as Node, 0);
}

/** The schema's own example, when it states one. */
export function ownExample(schema: Node): { value: unknown } | undefined {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  if ('example' in schema) return { value: schema.example };
  return undefined;
}

function resolve(ref: string, root: Node): Node {
  if (!ref.startsWith('#/')) return {};
  let node: unknown = root;
  for (const part of ref.slice(2).split('/'))
    node = (node as Node | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return (node as Node | undefined) ?? {};
}

function write(schema: Node, root: Node, depth: number, key = ''): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  if (typeof schema.$ref === 'string')
    return write({ ...resolve(schema.$ref, root), ...without(schema, '$ref') }, root, depth + 1, key);
  const own = ownExample(schema);
  if (own) return own.value;
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? null;
  const branches = (schema.oneOf ?? schema.anyOf) as Node[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    const chosen = branches.find((b) => b.type !== 'null') ?? branches[0]!;
    return write({ ...without(schema, 'oneOf', 'anyOf'), ...chosen }, root, depth + 1, key);
  }
  if (Array.isArray(schema.allOf)) {
    // The parts of an allOf add constraints to one value: the first that says what the value is writes it.
    const parts = [without(schema, 'allOf'), ...(schema.allOf as Node[])];
    const telling = parts.find((p) => ownExample(p) || 'const' in p || 'enum' in p || 'format' in p);
    return write(telling ?? parts[0]!, root, depth + 1, key);
  }
  switch (typeOf(schema)) {
    case 'object':
      return objectOf(schema, root, depth);
    case 'array': {
      if (depth > MAX_DEPTH || schema.maxItems === 0) return [];
      const item = write((schema.items as Node | undefined) ?? {}, root, depth + 1, key);
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
    }
    case 'string':
      return stringOf(schema, key);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

function without(schema: Node, ...keys: string[]): Node {
  const copy = { ...schema };
  for (const k of keys) delete copy[k];
  return copy;
}

function typeOf(schema: Node): string | undefined {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0];
  if (type) return type;
  if ('properties' in schema || 'additionalProperties' in schema) return 'object';
  if ('items' in schema) return 'array';
  return undefined;
}

/** Its required properties, and the optional ones that state an example of their own. */
function objectOf(schema: Node, root: Node, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (!required.has(key) && (depth > MAX_DEPTH || !statesExample(property))) continue;
    out[key] = write(property, root, depth + 1, key);
  }
  return out;
}

const statesExample = (s: Node): boolean =>
  ownExample(s) !== undefined ||
  [s.anyOf, s.oneOf].some((b) => Array.isArray(b) && (b as Node[]).some((x) => x.type !== 'null' && statesExample(x)));

function stringOf(schema: Node, key: string): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (typeof format === 'string') return format;
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  const fits = (s: string | undefined): s is string => s !== undefined && s.length >= min && s.length <= max;
  if (typeof schema.pattern === 'string') {
    const fromPattern = fromSimplePattern(schema.pattern);
    if (fits(fromPattern)) return fromPattern;
  }
  const named = BY_NAME.find(([name]) => name.test(key))?.[1];
  if (fits(named) && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(named))) return named;
  const text = 'string'.padEnd(min, 'x');
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

function numberOf(schema: Node, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  const low =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + step
        : undefined;
  const high =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - step
        : undefined;
  let value = low !== undefined ? Math.max(low, Math.min(1, high ?? 1)) : high !== undefined ? Math.min(1, high) : 1;
  if (integer) value = Math.ceil(value);
  if (typeof schema.multipleOf === 'number') value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  return value;
}

/**
 * A string matching a simple pattern: anchors, literals, escapes (\d \w \s and escaped punctuation), character
 * classes, groups with alternatives (the first is taken) and quantifiers (the least count, at least one for `+`).
 * Undefined for anything else, or when the result does not match after all.
 */
export function fromSimplePattern(pattern: string): string | undefined {
  let i = 0;
  const atom = (): string | undefined => {
    const c = pattern[i]!;
    if (c === '\\') {
      const e = pattern[i + 1];
      i += 2;
      if (e === 'd') return '1';
      if (e === 'w') return 'a';
      if (e === 's') return ' ';
      return e !== undefined && /[^A-Za-z0-9]/.test(e) ? e : undefined;
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0 || pattern[i + 1] === '^') return undefined;
      const body = pattern.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith('\\')) return body[1] === 'd' ? '1' : body[1] === 'w' ? 'a' : body[1];
      return body[0];
    }
    if (c === '(') {
      let level = 0;
      let end = i;
      for (; end < pattern.length; end++) {
        if (pattern[end] === '\\') end++;
        else if (pattern[end] === '(') level++;
        else if (pattern[end] === ')' && --level === 0) break;
      }
      let inner = pattern.slice(i + 1, end).replace(/^\?:/, '');
      const bar = topLevelBar(inner);
      if (bar >= 0) inner = inner.slice(0, bar);
      i = end + 1;
      return fromSimplePattern(`^${inner}$`);
    }
    if ('.'.includes(c)) {
      i++;
      return 'a';
    }
    if ('*+?{}|)]$^'.includes(c)) return undefined;
    i++;
    return c;
  };
  let out = '';
  if (pattern.startsWith('^')) i = 1;
  const bar = topLevelBar(pattern);
  const end = bar >= 0 ? bar : pattern.endsWith('$') && !pattern.endsWith('\\$') ? pattern.length - 1 : pattern.length;
  while (i < end) {
    const piece = atom();
    if (piece === undefined) return undefined;
    let count = 1;
    const q = pattern[i];
    if (q === '?' || q === '*') {
      count = 0;
      i++;
    } else if (q === '+') i++;
    else if (q === '{') {
      const close = pattern.indexOf('}', i);
      const m = /^\{(\d+)(,\d*)?\}$/.exec(pattern.slice(i, close + 1));
      if (!m) return undefined;
      count = Number(m[1]);
      i = close + 1;
    }
    out += piece.repeat(count);
  }
  try {
    return new RegExp(pattern, 'u').test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Where a top-level `|` sits, outside groups and classes, or -1. */
function topLevelBar(pattern: string): number {
  let level = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') level++;
    else if (c === ')') level--;
    else if (c === '|' && level === 0) return i;
  }
  return -1;
}
