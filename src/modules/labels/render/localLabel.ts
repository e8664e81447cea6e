/**
 * The label of a local delivery order of the business's own fleet (docs/labels.md, "print_local_label"): the same
 * 4x6 layout as a carrier's label, the business as the carrier, the order type as the service, one page per package
 * with the package number as its barcode; the route and stop number when the order is planned. Rendered on each call.
 */
import type { LabelFormat } from '../domain.ts';
import type { LabelContent } from './content.ts';
import { renderLabelPdf } from './labelPdf.ts';
import { renderLabelZpl } from './labelZpl.ts';

const SERVICE_OF_TYPE: Record<string, string> = { D: 'Local delivery (D)', P: 'Pickup (P)', P2P: 'Peer to peer (P2P)' };

export interface LocalLabelInput {
  businessName: string;
  type: string;
  orderId: number;
  orderRef: string | null;
  /** YYYY-MM-DD. */
  scheduledDate: string;
  recipient: {
    name: string;
    address: { line1: string; line2?: string | null; city: string; postal_code: string; country: string };
  };
  packages: readonly { package_number: string; weight_grams: number | null }[];
  route: { routeId: number; stopNumber: number } | null;
}

/** The label's pages, one per package. */
export function localLabelPages(input: LocalLabelInput): LabelContent[] {
  const a = input.recipient.address;
  const planned = input.route ? `  ROUTE ${input.route.routeId} STOP ${input.route.stopNumber}` : '';
  return input.packages.map((p, i) => ({
    trackingNumber: p.package_number,
    carrierName: input.businessName,
    serviceName: SERVICE_OF_TYPE[input.type] ?? input.type,
    from: { name: input.businessName, lines: [], city: '', postalCode: '', country: '' },
    to: {
      name: input.recipient.name,
      lines: [a.line1, a.line2 ?? ''],
      city: a.city,
      postalCode: a.postal_code,
      country: a.country,
    },
    weightGrams: p.weight_grams ?? 0,
    reference: `${input.orderRef ?? `#${input.orderId}`}  ${i + 1}/${input.packages.length}${planned}`,
    createdAt: `${input.scheduledDate}T00:00:00Z`,
  }));
}

/** The label in a format: PDF bytes, or ZPL text (one ^XA..^XZ format per page). */
export async function renderLocalLabel(input: LocalLabelInput, format: LabelFormat): Promise<Buffer> {
  const pages = localLabelPages(input);
  if (pages.length === 0) throw new Error(`order ${input.orderId} has no package`);
  return format === 'PDF' ? renderLabelPdf(pages) : Buffer.from(pages.map(renderLabelZpl).join('\n'));
}
