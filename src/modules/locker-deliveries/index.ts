/**
 * Partner locker deliveries: a locker provider's parcels delivered into a business's lockers, each a workflow
 * `locker-delivery-<id>` (contract.ts) whose read model is the locker_delivery row (docs/locker-deliveries.md).
 */
import { defineModule } from '../../platform/module.ts';
import { createLockerDeliveryActivities } from './activities.ts';
import { LOCKER_DELIVERY_STATUS, LOCKER_DELIVERY_WORKFLOW, PARCEL_REFERENCES, PROVIDER_ID } from './contract.ts';
import { LOCKER_DELIVERIES_MESSAGES } from './messages.ts';
import { lockerDeliveryConsoleConfirm, lockerDeliveryConsoleGet, lockerDeliveryConsoleList } from './console.ts';
import { lockerDoorReported } from './doors.ts';
import {
  lockerDeliveryCancel,
  lockerDeliveryConfirm,
  lockerDeliveryCorrection,
  lockerDeliveryCreate,
  lockerDeliveryFail,
  lockerDeliveryGet,
  lockerDeliveryList,
  lockerDeliveryOpen,
  lockerDeliveryRotateCode,
} from './operations.ts';
import { PICKUP_CODE } from './repo/deliveries.ts';
import { partnerLockerList, partnerLockerSandboxCode } from './sandbox.ts';
import { lockerCodeEntered, lockerCourierConfirmed } from './screen.ts';
import {
  lockerPartnerGrant,
  lockerPartnerList,
  lockerPartnerRevoke,
  lockerSettingsGet,
  lockerSettingsUpdate,
} from './settings.ts';

export { grantLockerPartner } from './repo/partners.ts';

export const lockerDeliveries = defineModule({
  name: 'locker-deliveries',
  operations: [
    lockerDeliveryCreate,
    lockerDeliveryGet,
    lockerDeliveryList,
    lockerDeliveryOpen,
    lockerDeliveryConfirm,
    lockerDeliveryCancel,
    lockerDeliveryFail,
    lockerDeliveryCorrection,
    lockerDeliveryRotateCode,
    lockerDeliveryConsoleList,
    lockerDeliveryConsoleGet,
    lockerDeliveryConsoleConfirm,
    lockerCodeEntered,
    lockerDoorReported,
    lockerCourierConfirmed,
    lockerSettingsGet,
    lockerSettingsUpdate,
    lockerPartnerList,
    lockerPartnerGrant,
    lockerPartnerRevoke,
    partnerLockerList,
    partnerLockerSandboxCode,
  ],
  activities: ({ orm, config }) => createLockerDeliveryActivities({ orm, config }),
  workflows: [LOCKER_DELIVERY_WORKFLOW],
  messages: LOCKER_DELIVERIES_MESSAGES,
  searchAttributes: [PROVIDER_ID, LOCKER_DELIVERY_STATUS, PARCEL_REFERENCES],
  sealedColumns: [PICKUP_CODE],
});
