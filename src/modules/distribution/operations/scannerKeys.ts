/**
 * Keys of the scanners at a place of the business: a scanner sends distribution scans at its place with its key,
 * and the key opens nothing else (docs/distribution.md, Scanner keys).
 */
import { z } from 'zod';
import { keyView, pathCode } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { code } from './places.ts';
import { findScanPlace } from '../repo/distributions.ts';
import { createScannerKey, listScannerKeys, MAX_SCANNER_KEYS, revokeScannerKey } from '../repo/scannerKeys.ts';

const TAG = 'Distribution';
const ADMIN = ['client_admin'] as const;
const placeCode = code('place code');

async function placeIdOr404(ctx: BusinessContext, placeCodeValue: string): Promise<number> {
  const place = await findScanPlace(ctx.em, ctx.caller.businessId, placeCodeValue);
  if (!place) throw errors.notFound();
  return place.id;
}

export const scannerKeyCreate = defineOperation({
  name: 'scanner_key_create',
  summary: 'Create a key for a scanner at a place of the business; its secret is shown once.',
  description: `The secret (\`tms_sk_...\`) is in this answer only and only its hash is kept. Sent as a bearer token, it opens distribution_scan and distribution_scan_batch and nothing else, and only for scans at this place; those scans are recorded as the admin's who made it. A place holds at most ${MAX_SCANNER_KEYS} unrevoked keys (TOO_MANY_KEYS). Refuses a code of no place of the business (NOT_FOUND).`,
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/places/{code}/scanner-keys', status: 201 },
  failures: {
    NOT_FOUND: 'No such place of the business',
    TOO_MANY_KEYS: 'The place already holds its most active keys',
  },
  input: z.object({ code: placeCode, name: z.string().trim().min(1).max(100).default('scanner key') }).strict(),
  output: z.object({ result: z.literal(true), key: keyView.extend({ secret: z.string() }) }),
  async handler(input, ctx) {
    const key = await createScannerKey(
      ctx.em,
      ctx.caller.businessId,
      await placeIdOr404(ctx, input.code),
      ctx.caller.id,
      input.name,
    );
    if (!key) throw fail('TOO_MANY_KEYS', 'distribution.too_many_scanner_keys', { max: MAX_SCANNER_KEYS });
    return { result: true as const, key };
  },
});

export const scannerKeyList = defineOperation({
  name: 'scanner_key_list',
  summary: 'List the scanner keys of a place of the business (never their secrets).',
  description:
    'Newest first, revoked keys included (`revoked_at` set), each with its name, creation and last use (`last_used_at`, updated at most once a minute), which tells a scanner still in service from one to revoke. Refuses a code of no place of the business (NOT_FOUND). The secrets were shown once at creation and cannot be read again.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'GET', path: '/v1/places/{code}/scanner-keys' },
  failures: { NOT_FOUND: 'No such place of the business' },
  input: z.object({ code: placeCode }).strict(),
  output: z.object({ result: z.literal(true), keys: z.array(keyView) }),
  async handler(input, ctx) {
    return {
      result: true as const,
      keys: await listScannerKeys(ctx.em, ctx.caller.businessId, await placeIdOr404(ctx, input.code)),
    };
  },
});

export const scannerKeyRevoke = defineOperation({
  name: 'scanner_key_revoke',
  summary: 'Revoke a scanner key; it stops working at once.',
  description:
    'Use it when a scanner is lost or retired: its next request is refused as UNAUTHENTICATED. The key stays listed with `revoked_at`; revoking it again succeeds and keeps the first time. Refuses a place the business does not have, or a key id of another place (NOT_FOUND). Make a new key with scanner_key_create.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'DELETE', path: '/v1/places/{code}/scanner-keys/{key_id}' },
  failures: { NOT_FOUND: 'No such place of the business, or no such key of this place' },
  input: z.object({ code: placeCode, key_id: pathCode(40) }).strict(),
  output: z.object({ result: z.literal(true) }),
  async handler(input, ctx) {
    if (!(await revokeScannerKey(ctx.em, ctx.caller.businessId, await placeIdOr404(ctx, input.code), input.key_id)))
      throw errors.notFound();
    return { result: true as const };
  },
});
