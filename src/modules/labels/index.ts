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
import { SEALED_CREDENTIALS } from './repo/accounts.ts';

export { quoteLabels, presentRate, labelPricesHidden } from './operations/rate.ts';
export { buyAtRate, runPurchase, type BuyInput, type LabelEnv } from './operations/purchase.ts';
export { purchaseAnswer, presentLabel } from './operations/present.ts';
export { RateInput, RateInputShape, RateView, CarrierMessage, PurchaseAnswer, PurchaseInputShape } from './views.ts';

export const labels = defineModule({
  name: 'labels',
  tags: {
    Labels:
      'Carrier labels: rate a shipment with every connected carrier, buy its label at a rate (once, whatever is retried), print it (PDF 4x6 in or ZPL), void it, hand labels to the carriers with an end-of-day manifest, and follow each parcel in the tracking timeline.',
  },
  operations: [labelRate, labelSubmitOrder],
  messages: LABELS_MESSAGES,
  errorCodes: LABELS_ERRORS,
  sealedColumns: [SEALED_CREDENTIALS],
});
