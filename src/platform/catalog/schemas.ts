import { z } from 'zod';
import type { RawContent } from './types.ts';

/**
 * A whole number from 1 to `max`, given as a number (JSON bodies, GraphQL) or as its decimal digits (query and path
 * parameters arrive as text), with a zero fraction allowed (`42.0`, which JSON Schema counts an integer too).
 * Nothing else is read as one: `true` or `[5]` is refused as the document's `integer` says, not coerced.
 */
export const intParam = (max = 2_147_483_647) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,10}(\.0{1,10})?$/.test(v) ? Number(v) : v),
    z.number().int().min(1).max(max),
  );
export const pageParams = {
  page: intParam().default(1).describe('The page to answer, from 1'),
  per_page: intParam(200).default(50).describe('Items per page, at most 200'),
};
export const pathId = intParam();

/**
 * An array whose items each appear once: a repeat is refused with the message `key` (422), and the published schema
 * says `uniqueItems`, so that a client or a fuzzer knows the rule before it sends.
 */
export const eachOnce = <T extends z.ZodArray>(list: T, key: string): T =>
  list.refine((a) => new Set(a).size === a.length, { params: { key } }).meta({ uniqueItems: true });

/**
 * A code that names a row in a path (a device, a key, an account), matched exactly: untrimmed, so that a code of
 * blanks, which any schema allows, names nothing (404) rather than nothing at all (422).
 */
export const pathCode = (max: number) => z.string().min(1).max(max);

/**
 * An email address as the published `format: email` reads it: zod's shape, and a local part of at most 64
 * characters (RFC 5321), which zod alone lets through.
 */
export const emailParam = () =>
  z
    .string()
    .trim()
    .email()
    .max(255)
    .refine((e) => e.split('@')[0]!.length <= 64);

/**
 * Every time and date the catalog accepts lies in the years 1000 to 9999, so that whatever the offset PostgreSQL
 * and JavaScript can hold it (PostgreSQL has no year 0). The bound is in the published schema too.
 */
const YEARS = /^[1-9]/;
const inYears = <S extends z.ZodString | z.ZodISODateTime | z.ZodISODate>(s: S) =>
  s
    .refine((v) => YEARS.test(v), { params: { key: 'field.time_out_of_range' } })
    .meta({ allOf: [{ pattern: YEARS.source }] });

/** A time: ISO 8601 with an offset. */
export const timeParam = () => inYears(z.iso.datetime({ offset: true }));
/** A calendar date: ISO 8601 YYYY-MM-DD. */
export const dateParam = () => inYears(z.iso.date());

export const okResult = z.object({ result: z.literal(true) });

/**
 * The output of an operation whose answer is a file (`rest.rawAnswer`): the handler's RawContent, sent as bytes. It
 * never reaches a JSON document, so the schema checks nothing; the OpenAPI document describes the answer as binary.
 */
export const rawAnswer = z.custom<RawContent>();

type PageShape<K extends string, T extends z.ZodType, R extends z.ZodType> = {
  result: R;
  total: z.ZodNumber;
  page: z.ZodNumber;
  per_page: z.ZodNumber;
} & { [k in K]: z.ZodArray<T> };

/** The output of every list: `{ result, total, page, per_page, <key>: [...] }`, for inputs that take `pageParams`. */
export function pageOutput<K extends string, T extends z.ZodType, R extends z.ZodType = z.ZodLiteral<true>>(
  key: K,
  item: T,
  result?: R,
): z.ZodObject<PageShape<K, T, R>> {
  const int = () => z.number().int();
  return z.object({
    result: result ?? z.literal(true),
    total: int(),
    page: int(),
    per_page: int(),
    [key]: z.array(item),
  } as PageShape<K, T, R>);
}

/** The rows to skip for a page of `pageParams`. */
export const offsetOf = (input: { page: number; per_page: number }): number => (input.page - 1) * input.per_page;

/** A page answer: the request's page and size with the total and the items under `key`. */
export function pageOf<K extends string, T>(
  input: { page: number; per_page: number },
  key: K,
  total: number,
  items: T[],
) {
  return { result: true as const, total, page: input.page, per_page: input.per_page, [key]: items } as {
    result: true;
    total: number;
    page: number;
    per_page: number;
  } & { [k in K]: T[] };
}

/** The examples of a paged list: its first page of 50, holding `items`. */
export function pageExample<K extends string, T>(key: K, items: T[]) {
  const input = { page: 1, per_page: 50 };
  return { input, output: pageOf(input, key, items.length, items) };
}

const addressText = (max: number) => z.string().trim().min(1).max(max);

/** One address the reference shows in every request and answer that holds one. */
const ADDRESS_EXAMPLE = {
  line1: 'Vodickova 710/31',
  city: 'Praha',
  postal_code: '110 00',
  country: 'CZ',
  lat: 50.0806,
  lng: 14.4251,
} as const;
const sample = <S extends z.ZodType>(schema: S, example: unknown) => schema.meta({ examples: [example] });

/** A postal address as every operation takes it; the country is kept upper-case. */
export const addressInput = () =>
  z
    .object({
      line1: sample(addressText(255), ADDRESS_EXAMPLE.line1),
      line2: z.string().trim().max(255).nullish(),
      city: sample(addressText(100), ADDRESS_EXAMPLE.city),
      postal_code: sample(addressText(20), ADDRESS_EXAMPLE.postal_code),
      country: sample(
        z
          .string()
          .trim()
          .regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2'),
        ADDRESS_EXAMPLE.country,
      ).transform((c) => c.toUpperCase()),
      lat: sample(z.number().min(-90).max(90), ADDRESS_EXAMPLE.lat).nullish(),
      lng: sample(z.number().min(-180).max(180), ADDRESS_EXAMPLE.lng).nullish(),
    })
    .strict();

/** A postal address as every operation answers it. */
export const addressView = z.object({
  line1: sample(z.string(), ADDRESS_EXAMPLE.line1),
  line2: z.string().nullable(),
  city: sample(z.string(), ADDRESS_EXAMPLE.city),
  postal_code: sample(z.string(), ADDRESS_EXAMPLE.postal_code),
  country: sample(z.string(), ADDRESS_EXAMPLE.country),
  lat: sample(z.number(), ADDRESS_EXAMPLE.lat).nullable(),
  lng: sample(z.number(), ADDRESS_EXAMPLE.lng).nullable(),
});

/** A machine key as its owner lists it (src/platform/db/accessKeys.ts): never its secret, which only its creation answers. */
export const keyView = z.object({
  key_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
