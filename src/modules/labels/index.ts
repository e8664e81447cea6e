/**
 * Carrier labels (docs/labels.md): carriers behind one adapter interface (two sandbox carriers that print real
 * labels), rates with ids that buy once, label orders bought once whatever is retried, documents, voids, hand-over
 * to the carriers with manifests, and the tracking of each label's parcel. Uniorder reaches it through this file.
 */
import { defineModule } from '../../platform/module.ts';
import { LABELS_ERRORS } from './errorCodes.ts';
import { LABELS_MESSAGES } from './messages.ts';
import { labelRate } from './operations/rate.ts';
import { labelSubmitOrder } from './operations/submitOrder.ts';
import { labelShippingDetail, shippingGetLabel } from './operations/documents.ts';
import { labelCancel } from './operations/void.ts';
import { orderLocalLabel } from './operations/localLabel.ts';
import {
  carrierAccountCreate,
  carrierAccountDelete,
  carrierAccountList,
  carrierAccountUpdate,
} from './operations/accounts.ts';
import { labelMethods } from './operations/methods.ts';
import { labelCompare, labelQuoteAndShip } from './operations/compare.ts';
import { labelEndOfDay, labelManifest, labelSubmitShippingInformation } from './operations/handover.ts';
import { labelEndOfDaySchedule, labelEndOfDayScheduleSet } from './operations/schedule.ts';
import { createEndOfDayActivities } from './endOfDayActivities.ts';
import { SEALED_CREDENTIALS } from './repo/accounts.ts';
import { createLabelActivities } from './activities.ts';
import {
  LABEL_PURCHASE_SWEEP_SCHEDULE,
  LABEL_PURCHASE_SWEEP_WORKFLOW,
  LABEL_QUEUE,
  LABEL_RATE_PRUNE_SCHEDULE,
  LABEL_RATE_PRUNE_WORKFLOW,
  LABEL_TRACKING_WORKFLOW,
  LABEL_END_OF_DAY_WORKFLOW,
} from './contract.ts';

export { quoteLabels, presentRate, labelPricesHidden } from './operations/rate.ts';
export { buyAtRate, runPurchase, type BuyInput, type LabelEnv } from './operations/purchase.ts';
export { purchaseAnswer, presentLabel, statusFor } from './operations/present.ts';
export { newRateId, RATE_ID_PATTERN, type LabelFormat } from './domain.ts';
export { labelOrderOf, labelOrderByKey, type LabelOrderRow } from './repo/labelOrders.ts';
export { rebuyLabel } from './operations/rebuy.ts';
export {
  findLabelOrder,
  labelDocumentAnswer,
  type LabelDocumentAnswer,
  type OrderLookup,
} from './operations/documents.ts';
export { voidLabel, cancelFailedLabelOrder, type VoidAnswer } from './operations/void.ts';
export { localLabelAnswer } from './operations/localLabel.ts';
export { connectSandboxCarriers } from './operations/accounts.ts';
export {
  RateInput,
  RateInputShape,
  RateView,
  CarrierMessage,
  PurchaseAnswer,
  PurchaseInputShape,
  PartyView,
  partyOf,
} from './views.ts';
// CARRIER_SERVICES: each carrier's service codes, for a module that names one ahead of any rate (customer-services).
export { CARRIER_CODES, CARRIER_SERVICES, isCarrierCode, type CarrierCode } from './carriers/registry.ts';

export const labels = defineModule({
  name: 'labels',
  tags: {
    Labels:
      'Carrier labels: rate a shipment with every connected carrier, buy its label at a rate (once, whatever is retried), print it (PDF 4x6 in or ZPL), void it, hand labels to the carriers with an end-of-day manifest, and follow each parcel in the tracking timeline.',
  },
  operations: [
    labelRate,
    labelSubmitOrder,
    labelShippingDetail,
    shippingGetLabel,
    labelCancel,
    orderLocalLabel,
    labelMethods,
    labelCompare,
    labelQuoteAndShip,
    carrierAccountList,
    carrierAccountCreate,
    carrierAccountUpdate,
    carrierAccountDelete,
    labelSubmitShippingInformation,
    labelEndOfDay,
    labelManifest,
    labelEndOfDaySchedule,
    labelEndOfDayScheduleSet,
  ],
  messages: LABELS_MESSAGES,
  errorCodes: LABELS_ERRORS,
  sealedColumns: [SEALED_CREDENTIALS],
  taskQueue: LABEL_QUEUE,
  activities: (deps) => ({ ...createLabelActivities(deps), ...createEndOfDayActivities(deps) }),
  workflows: [
    LABEL_TRACKING_WORKFLOW,
    LABEL_PURCHASE_SWEEP_WORKFLOW,
    LABEL_RATE_PRUNE_WORKFLOW,
    LABEL_END_OF_DAY_WORKFLOW,
  ],
  schedules: () => [
    {
      id: LABEL_PURCHASE_SWEEP_SCHEDULE,
      workflowType: LABEL_PURCHASE_SWEEP_WORKFLOW,
      args: [],
      spec: { intervals: [{ every: '1 minute' }] },
      purpose:
        'Finishes label purchases left pending for over 2 minutes and starts the tracking of bought labels that have none.',
    },
    {
      id: LABEL_RATE_PRUNE_SCHEDULE,
      workflowType: LABEL_RATE_PRUNE_WORKFLOW,
      args: [],
      spec: { calendars: [{ hour: '*', minute: 41 }] },
      purpose: 'Deletes label rates unused and expired for over a day.',
    },
  ],
});
