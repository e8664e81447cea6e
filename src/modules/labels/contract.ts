/**
 * The labels module's processes (docs/labels.md): imported by the API and the activities (to start and signal them)
 * and by the workflows. Ids `label-tracking-<order id>` and `label-eod-<business id>`, on the main task queue.
 * Nothing but ids crosses into history: the label, its shipment and its documents stay in the database.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';

export const LABEL_TRACKING_WORKFLOW = 'labelTracking';
export const LABEL_END_OF_DAY_WORKFLOW = 'labelEndOfDay';
export const labelTrackingWorkflowId = (orderId: number): string => `label-tracking-${orderId}`;
export const labelEndOfDayId = (businessId: number): string => `label-eod-${businessId}`;

export interface LabelTrackingInput {
  orderId: number;
  businessId: number;
}

/** The label was handed to the carrier (submitted or manifested): its parcel's journey starts. */
export const handedOverSignal = defineSignal<[{ at: string }]>('handedOver');
/** The label was voided: the process ends. */
export const voidedSignal = defineSignal('voided');

export interface JourneyProgress {
  state: 'waiting_hand_over' | 'tracking' | 'ended';
  handedOverAt: string | null;
  /** The id of the newest carrier event ingested. */
  lastEventId: string | null;
  polls: number;
}
export const journeyQuery = defineQuery<JourneyProgress>('journey');
