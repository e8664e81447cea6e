import { z } from 'zod';
import { fail } from '../../../platform/errorCodes.ts';
import { errors } from '../../../platform/errors.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { keyView, pathCode } from '../../../platform/catalog/schemas.ts';
import { createDeviceKey, listDeviceKeys, MAX_DEVICE_KEYS, revokeDeviceKey } from '../repo/deviceKeys.ts';

const TAG = 'Lockers';
const deviceId = pathCode(64).describe('Device code');
export const deviceKeyCreate = defineOperation({
  name: 'device_key_create',
  summary: 'Create a key for a locker of the business; its secret is shown once.',
  description:
    "The locker sends the secret as `Authorization: Bearer <secret>`; it opens only that device's locker endpoints (screen codes, courier confirmation, door reports) and acts as the admin who created it. Only the secret's hash is stored, so keep it from this answer: it cannot be read again, and a retry makes another key. A device holds at most 5 unrevoked keys (TOO_MANY_KEYS: revoke one first), and a device the business does not have answers NOT_FOUND.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/devices/{device_id}/keys', status: 201 },
  failures: {
    NOT_FOUND: 'No such device of the business',
    TOO_MANY_KEYS: 'The device already holds its most active keys',
  },
  input: z.object({ device_id: deviceId, name: z.string().trim().min(1).max(100).default('locker key') }).strict(),
  output: z.object({ result: z.literal(true), key: keyView.extend({ secret: z.string() }) }),
  async handler(input, ctx) {
    const key = await createDeviceKey(ctx.em, ctx.caller.businessId, input.device_id, ctx.caller.id, input.name);
    if (key === 'no_device') throw errors.notFound();
    if (key === 'too_many') throw fail('TOO_MANY_KEYS', 'lockers.too_many_keys', { max: MAX_DEVICE_KEYS });
    return { result: true as const, key };
  },
});

export const deviceKeyList = defineOperation({
  name: 'device_key_list',
  summary: 'List the keys of a locker of the business (never their secrets).',
  description:
    'Newest first, revoked keys included: each with its id, name, when it was created, last used (recorded at most once a minute) and revoked. Use it to find a key to rotate or revoke with device_key_revoke. A device the business does not have answers NOT_FOUND.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/devices/{device_id}/keys' },
  failures: { NOT_FOUND: 'No such device of the business' },
  input: z.object({ device_id: deviceId }).strict(),
  output: z.object({ keys: z.array(keyView) }),
  async handler(input, ctx) {
    const keys = await listDeviceKeys(ctx.em, ctx.caller.businessId, input.device_id);
    if (!keys) throw errors.notFound();
    return { keys };
  },
});

export const deviceKeyRevoke = defineOperation({
  name: 'device_key_revoke',
  summary: "Revoke a locker's key; it stops working at once.",
  description:
    "From then on the key is no credential at all: the locker's next call with it answers UNAUTHENTICATED. Revoking a revoked key again keeps its first revocation time. Create the replacement with device_key_create first, so the locker is never without a key. Refuses a key that is not one of this device's, or a device of another business (NOT_FOUND).",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'DELETE', path: '/v1/devices/{device_id}/keys/{key_id}' },
  failures: { NOT_FOUND: 'No such key of this device' },
  input: z.object({ device_id: deviceId, key_id: pathCode(40) }).strict(),
  output: z.object({ result: z.literal(true) }),
  async handler(input, ctx) {
    if (!(await revokeDeviceKey(ctx.em, ctx.caller.businessId, input.device_id, input.key_id))) throw errors.notFound();
    return { result: true as const };
  },
});
