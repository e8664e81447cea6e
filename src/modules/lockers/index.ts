/**
 * Lockers: devices of a business and their compartments as they are built (docs/lockers.md). A compartment holds
 * one parcel at a time, whichever process put it there; the processes (device orders, partner deliveries) take
 * and free compartments through this module. A locker calls its own endpoints with a device key.
 */
import { defineModule } from '../../platform/module.ts';
import { lockerDoorReported } from './operations/doors.ts';
import { lockerCodeEntered, lockerCourierConfirmed } from './operations/screen.ts';
import { lockerCodeLockLift } from './operations/screenLock.ts';
import { Device } from './entities.ts';
import { LOCKERS_MESSAGES } from './messages.ts';
import { deviceKeyCreate, deviceKeyList, deviceKeyRevoke } from './operations/keys.ts';
import { callerForDeviceKey, DEVICE_KEY_PREFIX } from './repo/deviceKeys.ts';

export { Device } from './entities.ts';
export { storedParcels, type StoredParcel } from './repo/stored.ts';
export { deviceCode } from './schemas.ts';
export { ownDevice, type DoorReported, type DoorReportedHook } from './operations/doors.ts';
export { enterCode, ScreenAnswer, ScreenInput, type ScreenCodeMatch } from './operations/screen.ts';
export {
  COMPARTMENT_SIZES,
  compartmentsOf,
  DOOR_STATES,
  type DoorState,
  pickupLockerCode,
  type CompartmentSize,
  type CompartmentSpec,
} from './domain.ts';
export {
  insertCompartments,
  insertDevice,
  occupyCompartment,
  recordDoorReport,
  releaseCompartment,
  tryOccupyCompartment,
  type DeviceRow,
  type DoorReportOutcome,
  type NewDevice,
  type Occupant,
} from './repo/compartments.ts';

export const lockers = defineModule({
  name: 'lockers',
  tags: {
    Lockers:
      "The business's own lockers: the device keys a locker calls with, what a locker reports (doors, codes typed on its screen, the courier's confirmation), the wrong-code lock, and the console over partner deliveries into those lockers with their timers and allowed partners.",
  },
  operations: [
    deviceKeyCreate,
    deviceKeyList,
    deviceKeyRevoke,
    lockerDoorReported,
    lockerCodeEntered,
    lockerCourierConfirmed,
    lockerCodeLockLift,
  ],
  entities: [Device],
  messages: LOCKERS_MESSAGES,
  credentials: [{ prefix: DEVICE_KEY_PREFIX, resolve: callerForDeviceKey }],
});
