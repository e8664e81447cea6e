/**
 * The labels module's processes (docs/labels.md): imported by the API and the activities (to start and signal them)
 * and by the workflows. Ids `label-tracking-<order id>` and `label-eod-<business id>`, on the main task queue.
 * Nothing but ids crosses into history: the label, its shipment and its documents stay in the database.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const LABEL_TRACKING_WORKFLOW = 'labelTracking';
export const LABEL_END_OF_DAY_WORKFLOW = 'labelEndOfDay';
export const labelTrackingWorkflowId = (orderId: number): string => `label-tracking-${orderId}`;
export const labelEndOfDayId = (businessId: number): string => `label-eod-${businessId}`;

/** What `labelEndOfDay` is started with by the schedule `label-eod-<business id>` (docs/labels.md, "Schedule"). */
export interface LabelEndOfDayInput {
  businessId: number;
}

/** What a scheduled end of day made, as ids and codes only: its manifests are read with labelservice_manifest. */
export interface LabelEndOfDayResult {
  manifestIds: number[];
  /** `<carrier account id>:<carrier's code>` of each account whose manifest failed (its labels stay open). */
  failures: string[];
}

/** The scheduled end of day's activity (endOfDayActivities.ts): the business's end of day, run as the service. */
export type EndOfDayActivities = {
  runLabelEndOfDay(input: LabelEndOfDayInput): Promise<LabelEndOfDayResult>;
};

export interface LabelTrackingInput {
  orderId: number;
  businessId: number;
  /** Set by the process itself when it continues as new: where the journey stands. */
  resume?: { handedOverAt: string; lastEventId: string | null };
}

/** How a label's tracking process ended. */
export type LabelTrackingOutcome = 'journey_ended' | 'voided' | 'not_handed_over';

/** Polls of one run of `labelTracking` before it continues as new (a short history whatever the journey's length). */
export const TRACKING_POLLS_PER_RUN = 200;

/** The sweep of interrupted purchases (docs/labels.md, "Buying a label, once"), every minute. */
export const LABEL_PURCHASE_SWEEP_WORKFLOW = 'labelPurchaseSweep';
export const LABEL_PURCHASE_SWEEP_SCHEDULE = 'label-purchase-sweep';
/** The deletion of rates unused and expired for a day (docs/labels.md, "rate_id"), hourly. */
export const LABEL_RATE_PRUNE_WORKFLOW = 'labelRatePrune';
export const LABEL_RATE_PRUNE_SCHEDULE = 'label-rate-prune';
/** The labels module's processes run on the main task queue. */
export const LABEL_QUEUE = PROCESS_QUEUE;

/** What the tracking process knows when it starts: how long to wait for the hand-over, and what already happened. */
export interface TrackingStart {
  /** 30 compressed days (SANDBOX_TRACKING_DAY_SECONDS each). */
  handOverWaitSeconds: number;
  /** When the label was submitted or manifested, if it was before the process started; else null. */
  handedOverAt: string | null;
  /** The label is voided, or gone: nothing to follow. */
  voided: boolean;
}

/** One poll of the carrier: the newest event id the timeline has now, and when to ask again (null: done). */
export interface PollAnswer {
  lastEventId: string | null;
  nextCheckAt: string | null;
  /** The label was voided meanwhile: the process ends. */
  voided?: boolean;
}

/** The labels module's activities, as they cross into history (activities.ts implements them). */
export type LabelActivities = {
  /** Reads the label's state and the hand-over wait (the workflow cannot read the configuration). */
  labelTrackingStart(input: { orderId: number }): Promise<TrackingStart>;
  /**
   * Asks the carrier for the parcel's events after `since` and ingests them as the carrier's provider business
   * (tracking.event webhooks, the OTEP timeline, public tracking and the order's status follow); a repeated poll
   * ingests duplicates only. A carrier refusal that is not retryable is logged and asked again later.
   */
  pollCarrierEvents(input: { orderId: number; since: string | null; handedOverAt: string }): Promise<PollAnswer>;
  /**
   * Finishes the purchases left pending over PENDING_SWEEP_AFTER_MS (the carrier key buys once) and starts the
   * tracking of purchased labels that have none; answers how many purchases it took up (another caller may have
   * finished one meanwhile: it then writes nothing) and how many trackings it started.
   */
  sweepLabelPurchases(): Promise<{ purchases: number; trackingStarted: number }>;
  /** Deletes the rates unused and expired for over a day; answers how many. */
  pruneLabelRates(): Promise<number>;
};

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

/**
 * How many times the wait for a hand-over reads the label's state (every 5 compressed days of the 30): a hand-over
 * whose signal was lost is followed at most 5 days late (10 minutes with the default day of 120 s).
 */
export const HAND_OVER_CHECKS = 6;
