/**
 * Lockers: devices of a business and their compartments as they are built (docs/lockers.md). A compartment holds
 * one parcel at a time, whichever process put it there; the processes (device orders, partner deliveries) take
 * and free compartments through this module.
 */
import { defineModule } from '../../platform/module.ts';
import { Device } from './entities.ts';

export { Device } from './entities.ts';
export { COMPARTMENT_SIZES, compartmentsOf, pickupLockerCode, type CompartmentSize, type CompartmentSpec } from './domain.ts';
export { insertCompartments, insertDevice, occupyCompartment, releaseCompartment, type DeviceRow, type NewDevice, type Occupant } from './repo/compartments.ts';

export const lockers = defineModule({
  name: 'lockers',
  entities: [Device],
});
