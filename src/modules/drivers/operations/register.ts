import { z } from 'zod';
import { AppError } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { hashPassword } from '../../../platform/secrets.ts';
import { emailParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { phoneOf, profileChange } from '../profile.ts';
import { businessOfCode, insertDriver, updateProfile } from '../repo/drivers.ts';
import { capacityInput, driverName, phoneInput, skillsInput, vehicleInput } from '../views.ts';

export const driverRegister = defineOperation({
  name: 'driver_register',
  summary: 'A driver registers itself with a business, which approves it before it can sign in.',
  description:
    "Public, no token. Names the business by its client code and opens a pending driver account with name, email, password (8 to 1024 characters) and phone (international form), optionally the vehicle, its capacity and the driver's skills. The answer is always 202 with status pending, also when an account has the email already (then nothing changes), so that registration does not tell which emails have accounts. A pending driver's sign-in answers INVALID_CREDENTIALS, as a wrong password does, until a client admin approves it (driver_approve). NOT_FOUND for a client code no business has (client codes are public: the app bootstrap answers the same), VALIDATION_FAILED for a field that is not right; each address may register 10 times an hour (RATE_LIMITED).",
  tag: 'Driver',
  roles: 'public',
  limit: 'driver_register',
  rest: { method: 'POST', path: '/v1/driver/register', status: 202 },
  failures: { NOT_FOUND: 'No business has this client code' },
  graphql: { name: 'driverRegister', kind: 'mutation' },
  input: z
    .object({
      client_code: z.string().trim().min(1).max(64).describe("The business's client code"),
      name: driverName,
      email: emailParam().toLowerCase(),
      password: z.string().min(8).max(1024),
      phone: phoneInput,
      vehicle: vehicleInput.optional(),
      capacity: capacityInput.optional(),
      skills: skillsInput.optional(),
    })
    .strict(),
  output: z.object({ result: z.literal(true), status: z.literal('pending'), message: z.string() }),
  examples: {
    input: {
      client_code: 'DEMO',
      name: 'Jan Novák',
      email: 'jan.novak@example.com',
      password: 'correct horse battery',
      phone: '+420601123456',
      vehicle: 'Van',
      capacity: { weight_kg: 800, volume_l: 6000, parcels: 120 },
      skills: ['refrigerated'],
    },
    output: {
      result: true,
      status: 'pending',
      message: 'Registration received. The business will review it; you can sign in once it approves you.',
    },
  },
  async handler(input, ctx) {
    const businessId = await businessOfCode(ctx.em, input.client_code);
    if (businessId === null) throw new AppError(404, 'NOT_FOUND', 'drivers.unknown_client');
    const change = profileChange({ vehicle: input.vehicle, capacity: input.capacity, skills: input.skills }, null);
    change.phone = phoneOf(input.phone);
    // Hashed whether or not the email is taken, so that the time says nothing either.
    const passwordHash = await hashPassword(input.password);
    await ctx.em.transactional(async (tx) => {
      const id = await insertDriver(tx, {
        businessId,
        email: input.email,
        name: input.name,
        passwordHash,
        status: 'pending',
      });
      if (id !== null) await updateProfile(tx, id, change);
    });
    return { result: true as const, status: 'pending' as const, message: translate('drivers.registered', ctx.lang) };
  },
});
