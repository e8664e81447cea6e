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
  summary: `Create a key for a locker of the business: it opens only that device's locker endpoints, sent as a bearer token; the secret is shown once (at most ${MAX_DEVICE_KEYS} unrevoked keys per device).`,
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
  summary: 'Revoke a locker key; it stops working at once.',
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
