import type { z } from 'zod';
import { errors, type FieldError } from '../errors.ts';

/** Turns zod issues into field errors keyed by message, so each language says the same thing. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue): FieldError[] => {
    const field = issue.path.map(String).join('.') || '(body)';
    switch (issue.code) {
      case 'invalid_type':
        return [
          issue.input === undefined
            ? { field, key: 'field.required' }
            : { field, key: 'field.invalid_type', params: { expected: issue.expected } },
        ];
      case 'too_big':
        if (issue.origin === 'string')
          return [{ field, key: 'field.too_long', params: { maximum: Number(issue.maximum) } }];
        if (issue.origin === 'array')
          return [{ field, key: 'field.too_many_items', params: { maximum: Number(issue.maximum) } }];
        return [{ field, key: 'field.too_big', params: { maximum: String(issue.maximum) } }];
      case 'too_small':
        if (issue.origin === 'string')
          return [
            {
              field,
              key: Number(issue.minimum) === 1 ? 'field.required' : 'field.too_short',
              params: { minimum: Number(issue.minimum) },
            },
          ];
        if (issue.origin === 'array')
          return [{ field, key: 'field.too_few_items', params: { minimum: Number(issue.minimum) } }];
        return [{ field, key: 'field.too_small', params: { minimum: String(issue.minimum) } }];
      case 'invalid_value':
        return [{ field, key: 'field.invalid_value', params: { values: issue.values.map(String).join(', ') } }];
      case 'invalid_format':
        return [{ field, key: 'field.invalid_format', params: { format: issue.format } }];
      case 'unrecognized_keys':
        return issue.keys.map((k) => ({
          field: [...issue.path.map(String), k].join('.'),
          key: 'field.unknown' as const,
        }));
      case 'custom': {
        // Refinements name their message key and parameters: { params: { key, ...params } }.
        const { key = 'field.invalid', ...params } = (issue.params ?? {}) as { key?: FieldError['key'] } & Record<
          string,
          string
        >;
        return [{ field, key, params }];
      }
      default:
        return [{ field, key: 'field.invalid' }];
    }
  });
}

export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  // reportInput: a value of the wrong type is told apart from a missing one (zod leaves issue.input out otherwise).
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw errors.validation(toFieldErrors(parsed.error.issues));
  return parsed.data;
}
