/**
 * Device orders: a parcel stored in a smart-locker compartment, collected with a pickup code or removed by staff,
 * overdue after its deadline. Each is a workflow `device-order-<id>` (contract.ts); the table is its read model.
 */
import { defineModule } from '../../platform/module.ts';
import { DEVICE_ORDER_EVENTS } from './events.ts';
import { createDeviceOrderActivities } from './activities.ts';
import { flagStoredParcels } from './cancelled.ts';
import { tellDeviceOrderOfDoorReport } from './doors.ts';
import { deviceOrderExceptions, deviceOrderProcesses } from './orderReads.ts';
import {
  DEVICE_ORDER_EXCEPTIONS,
  DEVICE_ORDER_STATUS,
  DEVICE_ORDER_WORKFLOW,
  DEVICE_ID,
  DEVICE_ORDER_QUEUE,
} from './contract.ts';
import {
  deviceOrderExceptionList,
  deviceOrderExceptionOpen,
  deviceOrderExceptionResolve,
} from './operations/exceptions.ts';
import { DEVICE_ORDERS_MESSAGES } from './messages.ts';
import { DEVICE_ORDERS_ERRORS } from './errorCodes.ts';
import { PICKUP_CODE } from './repo/orders.ts';
import {
  deviceOrderCollect,
  deviceOrderGet,
  deviceOrderList,
  deviceOrderRemove,
  deviceOrderStore,
} from './operations/orders.ts';

export { storeBroughtParcel, type BroughtOutcome, type BroughtParcel } from './brought.ts';

export const deviceOrders = defineModule({
  name: 'device-orders',
  tags: {
    'Device Orders':
      'Parcels kept in a device compartment until someone collects them with a pickup code: store, collect, remove, and the exceptions staff open and resolve. The device_order.* webhooks follow each one.',
  },
  taskQueue: DEVICE_ORDER_QUEUE,
  events: DEVICE_ORDER_EVENTS,
  // A door report of a compartment it holds, or held last, may open or close its door_left_open exception.
  // Its open device orders and their open exceptions, for the orders module's snapshot and exceptions list.
  hooks: {
    doorReported: tellDeviceOrderOfDoorReport,
    orderProcesses: deviceOrderProcesses,
    orderExceptions: deviceOrderExceptions,
    // A parcel of a cancelled order still in its compartment is flagged for staff to take out.
    orderCancelled: flagStoredParcels,
  },
  operations: [
    deviceOrderStore,
    deviceOrderCollect,
    deviceOrderRemove,
    deviceOrderGet,
    deviceOrderList,
    deviceOrderExceptionOpen,
    deviceOrderExceptionResolve,
    deviceOrderExceptionList,
  ],
  activities: ({ orm, config }) => createDeviceOrderActivities({ orm, config }),
  workflows: [DEVICE_ORDER_WORKFLOW],
  messages: DEVICE_ORDERS_MESSAGES,
  errorCodes: DEVICE_ORDERS_ERRORS,
  searchAttributes: [DEVICE_ID, DEVICE_ORDER_STATUS, DEVICE_ORDER_EXCEPTIONS],
  sealedColumns: [PICKUP_CODE],
});
