import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { lockDriver } from '../repo/drivers.ts';
import { changeDuty } from '../repo/duty.ts';

export const driverDuty = defineOperation({
  name: 'driver_duty_set',
  summary: 'The driver goes on or off duty.',
  description:
    'A change writes the webhook event driver.on_duty_changed (to order_lifecycle_webhook_url) in the same transaction; sending the duty the driver has already changes nothing, sends no event and answers `changed: false`. Only active drivers go on duty (FORBIDDEN).',
  tag: 'Driver',
  roles: ['driver'],
  business: true,
  rest: { method: 'POST', path: '/v1/driver/duty' },
  graphql: { name: 'driverDutySet', kind: 'mutation' },
  input: z.object({ on_duty: z.boolean() }).strict(),
  output: z.object({
    result: z.literal(true),
    on_duty: z.boolean(),
    changed: z.boolean().describe('False when the driver was on (or off) duty already'),
    changed_at: z.iso.datetime().nullable().describe('When the duty last changed (ISO 8601, UTC)'),
  }),
  async handler(input, ctx) {
    const { id, businessId } = ctx.caller;
    return ctx.em.transactional(async (tx) => {
      const driver = await lockDriver(tx, businessId, id);
      if (!driver) throw errors.forbidden();
      if (driver.status !== 'active') throw errors.forbidden('drivers.not_active');
      if (driver.on_duty === input.on_duty) {
        const last = driver.duty_changed_at === null ? null : new Date(driver.duty_changed_at).toISOString();
        return { result: true as const, on_duty: driver.on_duty, changed: false, changed_at: last };
      }
      const changedAt = await changeDuty(tx, businessId, id, input.on_duty);
      return { result: true as const, on_duty: input.on_duty, changed: true, changed_at: changedAt.toISOString() };
    });
  },
});
