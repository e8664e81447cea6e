/**
 * Tracking (OTEP): one timeline per shipment from carrier events and the order's own status history; public reads
 * in every listed format, native and EPCIS ingest with provider keys, and the validator.
 */
import { defineModule } from '../../platform/module.ts';
import { OTEP_MESSAGES } from './messages.ts';
import {
  otepCredentialCreate,
  otepCredentialList,
  otepCredentialRevoke,
  otepIngest,
  otepIngestEpcis,
} from './operations/ingest.ts';
import {
  otepTrackingBatch,
  otepTrackingEvents,
  otepTrackingGet,
  otepValidate,
  otepVocabulary,
  publicTracking,
} from './operations/read.ts';
import { callerForOtepKey, OTEP_KEY_PREFIX } from './repo/credentials.ts';
import { otepClientLockerStorage, otepClientTracking } from './operations/client.ts';

/** A carried order follows its packages' newest carrier events (for an order leaving an interception's 48). */
export { followNewestEvents } from './repo/ingest.ts';
/** The OTEP code of the event synthesized for an order's change into each status (dispatch's tracking.event). */
export { OTEP_OF_ORDER_STATUS } from './orderStatusMap.ts';
/** The native OTEP timeline of one of the business's parcels, as otep_client_tracking answers it (uniorder). */
export { otepClientTracking } from './operations/client.ts';
/**
 * Native ingest for a trusted internal caller (the labels module's carrier polls, as the carrier's provider business):
 * a document checked as otep_ingest checks it, then written through the same path (tracking.event, status moves).
 */
export { checkDocument } from './document.ts';
export { ingestChecked } from './operations/ingest.ts';
export { OTEP_VERSION } from './vocabulary.ts';

export const tracking = defineModule({
  name: 'tracking',
  tags: {
    OTEP: 'The Open Tracking Events Protocol: public timelines of tracking numbers in OTEP, GS1 EPCIS and the other representations, its vocabulary and a conformance validator; providers push tracking events (native OTEP or EPCIS 2.0) with ingest keys they manage here.',
    Tracking: 'Classic public package tracking by number, answered from the OTEP timeline; no token needed.',
  },
  operations: [
    otepVocabulary,
    otepTrackingGet,
    otepTrackingEvents,
    otepTrackingBatch,
    publicTracking,
    otepValidate,
    otepIngest,
    otepIngestEpcis,
    otepCredentialCreate,
    otepCredentialList,
    otepCredentialRevoke,
    otepClientTracking,
    otepClientLockerStorage,
  ],
  messages: OTEP_MESSAGES,
  credentials: [{ prefix: OTEP_KEY_PREFIX, resolve: callerForOtepKey }],
});
