/**
 * One rule for every text the catalog accepts, whatever the field: no C0 control character other than tab, line
 * feed and carriage return, no DEL, and no unpaired UTF-16 surrogate. PostgreSQL refuses NUL in text and JSON and
 * silently turns a lone surrogate into U+FFFD, so such input would fail late (a 500) or be stored as something
 * the client never sent (a webhook secret, say). Object keys count as text too.
 *
 * The pattern is written for Unicode regular expressions: there a surrogate range matches only an unpaired
 * surrogate, so emoji and other astral characters pass. The OpenAPI document carries the pattern without the
 * surrogate range (TEXT_SCHEMA_PATTERN): a JSON Schema string is a sequence of Unicode scalar values, which has no
 * room for a lone surrogate, and the schema validators of other languages (Rust's, Python's) refuse a surrogate
 * range outright, so they would drop the whole rule. docs/input-rules.md says so to API clients.
 */
import type { FieldError } from '../errors.ts';

export const SAFE_TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F\\uD800-\\uDFFF]*$';
const SAFE_TEXT = new RegExp(SAFE_TEXT_PATTERN, 'u');
export const TEXT_SCHEMA_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';

export const isSafeText = (s: string): boolean => SAFE_TEXT.test(s);

/**
 * A character `String.prototype.trim` keeps: anything but ECMAScript's white space and line terminators, spelled out
 * rather than written `\S`, which Python's and Rust's regular expressions read with other sets (Python's counts
 * U+001C to U+001F and U+0085 as space and U+FEFF as not). A field the service trims and then requires to be
 * non-empty publishes it (notBlankRule), so a client or a fuzzer reading the document knows blanks alone are refused.
 */
export const NOT_BLANK_PATTERN =
  '[^\\t\\n\\v\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]';

/** The fields of a raw input whose text (a value or a key) breaks the rule; walked without recursion, so any depth is safe. */
export function unsafeTextFields(raw: unknown): FieldError[] {
  const found: FieldError[] = [];
  const pending: { value: unknown; path: string[] }[] = [{ value: raw, path: [] }];
  const flag = (path: string[]) => found.push({ field: path.join('.') || '(body)', key: 'field.invalid_characters' });
  while (pending.length > 0 && found.length < 20) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (!isSafeText(value)) flag(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push({ value: item, path: [...path, String(i)] }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (!isSafeText(key)) flag([...path, key]);
        else pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return found.reverse();
}

type Node = Record<string, unknown>;

/** Keywords whose value is one subschema, and those whose value is a list or a map of them. */
const ONE = ['additionalProperties', 'items', 'not', 'contains', 'unevaluatedProperties', 'unevaluatedItems'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions'];
/** Keywords that constrain a value; a schema with none of them accepts any JSON. */
const CONSTRAINING = ['type', '$ref', 'enum', 'const', 'not', ...LIST, 'properties', 'items', 'pattern'];

/**
 * Any JSON value held to the text rule at every depth: its strings and property names match the pattern, its items
 * and property values are again such a value (`ref` points at this schema itself).
 */
export const safeJsonSchema = (ref: string) => ({
  description: 'Any JSON value whose every text, string or property name, follows the text rule.',
  pattern: TEXT_SCHEMA_PATTERN,
  propertyNames: { pattern: TEXT_SCHEMA_PATTERN },
  items: { $ref: ref },
  additionalProperties: { $ref: ref },
});

/**
 * The same rule in a JSON Schema: every string (and every property name) gets the pattern, next to any pattern it
 * already has. Enumerations and constants need none. With `anyJsonRef` (a reference to safeJsonSchema), the places
 * that take any value (a schema without constraints, an array's unstated items, an object's undeclared properties)
 * take that instead, so the whole document states the rule. Returns the schema it was given, changed in place.
 */
export function withTextRule<S extends object>(schema: S, anyJsonRef?: string): S {
  const open = anyJsonRef === undefined ? undefined : () => ({ $ref: anyJsonRef });
  const pending: Node[] = [schema as Node];
  while (pending.length > 0) {
    const n = pending.pop()!;
    if (open && !CONSTRAINING.some((k) => k in n)) Object.assign(n, open());
    const types = Array.isArray(n.type) ? n.type : [n.type];
    if (types.includes('string') && n.enum === undefined && n.const === undefined) addPattern(n);
    const isObject = types.includes('object') || 'properties' in n;
    if (isObject && n.additionalProperties !== false) {
      n.propertyNames = addPattern({ ...(n.propertyNames as Node | undefined) });
      if (open && (n.additionalProperties === undefined || n.additionalProperties === true))
        n.additionalProperties = open();
    }
    if (open && types.includes('array') && (n.items === undefined || n.items === true)) n.items = open();
    const children = [
      ...ONE.map((k) => n[k]),
      ...LIST.flatMap((k) => (Array.isArray(n[k]) ? n[k] : [])),
      ...MAP.flatMap((k) => Object.values((n[k] as Node | undefined) ?? {})),
    ];
    for (const child of children)
      if (child !== null && typeof child === 'object' && !('$ref' in child)) pending.push(child as Node);
  }
  return schema;
}
function addPattern(n: Node, pattern = TEXT_SCHEMA_PATTERN): Node {
  if (n.pattern === undefined) n.pattern = pattern;
  else n.allOf = [...((n.allOf as unknown[] | undefined) ?? []), { pattern }];
  return n;
}

interface StringCheckDef {
  check: string;
  minimum?: number;
  /** Of a `length_equals` check. */
  length?: number;
  tx?: (input: string) => string;
}

/**
 * A `z.toJSONSchema` override: a string that is trimmed and then held to a length of one or more (a minimum or an
 * exact length) gets NOT_BLANK_PATTERN, since blanks alone trim to nothing and are refused. Zod keeps `.trim()` as
 * an `overwrite` check whose function is not named, so a check counts as the trim when it turns " x " into "x"; a
 * length checked before the trim does not count (it sees the blanks).
 */
export function notBlankRule(ctx: { zodSchema: unknown; jsonSchema: object }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; checks?: { _zod: { def: StringCheckDef } }[] } } })
    ._zod?.def;
  if (def?.type !== 'string' || !def.checks) return;
  let trimmed = false;
  for (const { _zod } of def.checks) {
    const check = _zod.def;
    if (check.check === 'overwrite' && check.tx?.(' x ') === 'x') trimmed = true;
    else if (
      trimmed &&
      ((check.check === 'min_length' && (check.minimum ?? 0) >= 1) ||
        (check.check === 'length_equals' && (check.length ?? 0) >= 1))
    ) {
      if ((ctx.jsonSchema as Node).pattern !== NOT_BLANK_PATTERN) addPattern(ctx.jsonSchema as Node, NOT_BLANK_PATTERN);
      return;
    }
  }
}
