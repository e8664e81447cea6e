/**
 * Partner locker deliveries: a locker provider's parcels delivered into a business's lockers, each a workflow
 * `locker-delivery-<id>` (contract.ts) whose read model is the locker_delivery row (docs/locker-deliveries.md).
 */
import { defineModule } from '../../platform/module.ts';
import { PARTNER_LOCKER_EVENTS } from './events.ts';
import { createLockerDeliveryActivities } from './activities.ts';
import {
  LOCKER_DELIVERY_STATUS,
  LOCKER_DELIVERY_WORKFLOW,
  PARCEL_REFERENCES,
  PROVIDER_ID,
  LOCKER_DELIVERY_QUEUE,
} from './contract.ts';
import { LOCKER_DELIVERIES_MESSAGES } from './messages.ts';
import { LOCKER_DELIVERIES_ERRORS } from './errorCodes.ts';
import {
  lockerDeliveryConsoleConfirm,
  lockerDeliveryConsoleGet,
  lockerDeliveryConsoleList,
} from './operations/console.ts';
import { tellDeliveryOfDoor } from './doors.ts';
import { lockerDeliveryProcesses } from './orderReads.ts';
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
} from './operations/deliveries.ts';
import { PICKUP_CODE } from './repo/deliveries.ts';
import { partnerLockerList, partnerLockerSandboxCode } from './operations/sandbox.ts';
import { confirmAtScreen, deliveryOfScreenCode } from './screen.ts';
import {
  lockerPartnerGrant,
  lockerPartnerList,
  lockerPartnerRevoke,
  lockerSettingsGet,
  lockerSettingsUpdate,
} from './operations/settings.ts';

export { grantLockerPartner } from './repo/partners.ts';

export const lockerDeliveries = defineModule({
  name: 'locker-deliveries',
  tags: {
    'Partner Locker':
      "For locker providers delivering into a partner business's lockers: reserve compartments and receive the codes, open the doors, confirm, cancel, fail or correct a deposit, rotate codes, see the lockers with their free compartments, and play deliveries on sandbox lockers. The partner_locker.* webhooks follow each delivery.",
  },
  taskQueue: LOCKER_DELIVERY_QUEUE,
  events: PARTNER_LOCKER_EVENTS,
  // A door report of a compartment one of its deliveries holds settles a deposit or a pickup.
  hooks: {
    doorReported: tellDeliveryOfDoor,
    screenCode: deliveryOfScreenCode,
    courierDone: confirmAtScreen,
    orderProcesses: lockerDeliveryProcesses,
  },
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
  errorCodes: LOCKER_DELIVERIES_ERRORS,
  searchAttributes: [PROVIDER_ID, LOCKER_DELIVERY_STATUS, PARCEL_REFERENCES],
  sealedColumns: [PICKUP_CODE],
});
