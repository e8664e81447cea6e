/**
 * The ship-out process (docs/customer-services.md, "Ship-outs"), imported by the API (to start it, tell it of a
 * price, a payment or a cancel, and send the staff steps) and by the workflow. Workflow id `shipout-<id>`; the
 * shipout row is the read model: the operations and the process's activities change it, each change in one
 * transaction with the shipout row locked, so the database judges every race (a payment against the expiry, a
 * cancel against a pick). Only ids and statuses cross into history.
 */
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const SHIPOUT_WORKFLOW = 'shipoutWorkflow';
export const SHIPOUT_QUEUE = PROCESS_QUEUE;
export const shipoutWorkflowId = (id: number): string => `shipout-${id}`;

export const SHIPOUT_STATUSES = [
  'awaiting_price',
  'pending_payment',
  'paid',
  'picked',
  'packed',
  'handed_over',
  'cancelled',
  'expired',
] as const;
export type ShipoutStatus = (typeof SHIPOUT_STATUSES)[number];

export interface ShipoutInput {
  shipoutId: number;
  businessId: number;
  /** The status it was created in: awaiting_price (priced later by staff) or pending_payment. */
  status: ShipoutStatus;
  /** How long it stays payable once priced (the settings' unpaid_expiry_seconds at creation), in ms. */
  unpaidExpiryMs: number;
}

/** The row moved on (priced, paid, settled offline, cancelled): its new status, written before the signal. */
export const statusSignal = defineSignal<[ShipoutStatus]>('status');

/** A staff step, by a staff account (its id, for the order's trail). */
export interface StepInput {
  userId: number;
}
export const pickUpdate = defineUpdate<ShipoutStatus, [StepInput]>('pick');
export const packUpdate = defineUpdate<ShipoutStatus, [StepInput]>('pack');
export const handOverUpdate = defineUpdate<ShipoutStatus, [StepInput]>('hand_over');

/** Failure type of a staff step the ship-out's status does not allow. */
export const SHIPOUT_WRONG_STATE = 'ShipoutWrongState';
/**
 * Failure type of a hand-over the business's set-up refuses (no carrier account, no rate for the service): its
 * first detail is the error code (NO_CARRIER_ACCOUNT, CARRIER_ERROR); nothing changed, the ship-out stays packed.
 */
export const HAND_OVER_REFUSED = 'ShipoutHandOverRefused';

export type StaffStep = 'pick' | 'pack';

/** The ship-out's activities, as they cross into history (activities.ts implements them). */
export type ShipoutActivities = {
  /**
   * The unpaid expiry: a ship-out still pending_payment is expired, its holds voided and its packages released,
   * in one transaction. Answers the status it is in afterwards (paid, when a payment came first).
   */
  expireShipout(shipoutId: number): Promise<ShipoutStatus>;
  /** The row's status as it is now (a signal may have been lost); a ship-out never written is `expired`. */
  readShipoutStatus(shipoutId: number): Promise<ShipoutStatus>;
  /** pick: paid -> picked; pack: picked -> packed. A step already taken answers as it is; any other status is answered. */
  recordStep(input: { shipoutId: number; step: StaffStep }): Promise<ShipoutStatus>;
  /**
   * The hand-over of a packed ship-out: places its outbound order (own fleet) or buys its label (carrier, key
   * `tms:sho-<id>`), then in one transaction posts its holds, marks its packages shipped and moves it to handed_over. A
   * retry after a killed worker finds the order or the label by its key and places nothing twice.
   */
  handOver(input: { shipoutId: number; userId: number }): Promise<ShipoutStatus>;
};
