/** Drivers: driver records (capacity, skills, shift, breaks, depot), self-registration and its approval, duty. */
import { defineModule } from '../../platform/module.ts';
import { DRIVERS_ERRORS } from './errorCodes.ts';
import { DRIVERS_MESSAGES } from './messages.ts';
import { driverDuty } from './operations/duty.ts';
import {
  driverApprove,
  driverCreate,
  driverGet,
  driverList,
  driverReject,
  driverSuspend,
  driverUpdate,
} from './operations/records.ts';
import { driverRegister } from './operations/register.ts';
import { driverMaySignIn } from './repo/drivers.ts';

export { planningDrivers } from './repo/planning.ts';
export { ensureProfile as seedDriverProfile, type ProfileChange } from './repo/drivers.ts';
export type { PlanningDriver } from './repo/planning.ts';
export type { DriverStatus } from './domain.ts';

export const drivers = defineModule({
  name: 'drivers',
  tags: {
    DriverInfo:
      "The business's drivers: their records (capacity, skills, shift, breaks, depot), their newest position, and the approval of drivers who registered themselves.",
  },
  operations: [
    driverList,
    driverGet,
    driverCreate,
    driverUpdate,
    driverApprove,
    driverReject,
    driverSuspend,
    driverRegister,
    driverDuty,
  ],
  messages: DRIVERS_MESSAGES,
  errorCodes: DRIVERS_ERRORS,
  hooks: {
    // A pending, rejected or suspended driver is answered as a wrong password.
    signInAllowed: async (em, account) => account.role !== 'driver' || driverMaySignIn(em, account.id),
  },
});
