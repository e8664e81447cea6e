/**
 * A carrier's end-of-day manifest as PDF (docs/labels.md, "endofday"): a US Letter page per 40 labels listing each
 * parcel's tracking number and service, headed by the carrier, the shipper, the date and a Code 128 barcode of the
 * manifest id that the driver who collects the parcels scans.
 */
import { barcodeImage, fit, pdfDocument } from './labelPdf.ts';

export interface ManifestContent {
  manifestId: string;
  carrierName: string;
  shipperName: string;
  /** YYYY-MM-DD; also the PDF's creation date, so the same manifest renders the same bytes. */
  shipDate: string;
  lines: readonly { trackingNumber: string; service: string; reference: string }[];
}

const WIDTH = 612;
const HEIGHT = 792;
const MARGIN = 48;
const PER_PAGE = 40;

export async function renderManifestPdf(manifest: ManifestContent): Promise<Buffer> {
  const created = new Date(`${manifest.shipDate}T00:00:00Z`);
  const { doc, done } = pdfDocument(
    [WIDTH, HEIGHT],
    `${manifest.carrierName} manifest ${manifest.manifestId}`,
    created,
  );
  const barcode = await barcodeImage(manifest.manifestId);
  const pages = Math.max(1, Math.ceil(manifest.lines.length / PER_PAGE));
  for (let page = 0; page < pages; page++) {
    doc.addPage({ size: [WIDTH, HEIGHT], margin: 0 });
    const width = WIDTH - 2 * MARGIN;
    let y = MARGIN;
    const text = (value: string, size: number, bold = false, x = MARGIN, w = width) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
      doc.text(fit(doc, value, w), x, y, { width: w, lineBreak: false });
    };
    text(`${manifest.carrierName} manifest`, 18, true);
    y += 24;
    text(`${manifest.shipperName}  ${manifest.shipDate}  page ${page + 1} of ${pages}`, 10);
    y += 16;
    doc.image(barcode.png, MARGIN, y, { width: barcode.widthPt, height: 50 });
    y += 54;
    text(manifest.manifestId, 11, true);
    y += 22;
    text('#', 9, true, MARGIN, 30);
    text('TRACKING NUMBER', 9, true, MARGIN + 30, 200);
    text('SERVICE', 9, true, MARGIN + 230, 120);
    text('REFERENCE', 9, true, MARGIN + 350, width - 350);
    y += 14;
    manifest.lines.slice(page * PER_PAGE, (page + 1) * PER_PAGE).forEach((line, i) => {
      text(String(page * PER_PAGE + i + 1), 9, false, MARGIN, 30);
      text(line.trackingNumber, 9, false, MARGIN + 30, 200);
      text(line.service, 9, false, MARGIN + 230, 120);
      text(line.reference, 9, false, MARGIN + 350, width - 350);
      y += 13;
    });
  }
  if (manifest.lines.length > 0) {
    doc.font('Helvetica-Bold').fontSize(10);
    doc.text(`${manifest.lines.length} parcels`, MARGIN, HEIGHT - MARGIN, { lineBreak: false });
  }
  doc.end();
  return done;
}
