/**
 * A 4x6 inch shipping label as PDF (288 x 432 pt): carrier and service, ship-from and ship-to blocks, weight,
 * reference and a Code 128 barcode of the tracking number with the number printed under it. The barcode image has
 * a whole number of dots per bar at 203 dpi, the resolution of common thermal label printers, so a printed bar is
 * never a fraction of a dot wide and readers decode it.
 */
import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import { addressLines, formatWeight, labelDate, type LabelContent } from './content.ts';
import { toWinAnsi } from './winAnsi.ts';

const WIDTH = 288;
const HEIGHT = 432;
const MARGIN = 12;
const INNER = WIDTH - 2 * MARGIN;
const PRINTER_DPI = 203;
/** Modules (narrowest bars) of 3 dots (0.375 mm) print well; 2 dots when a long number would not fit otherwise. */
const DOTS_PER_MODULE = [3, 2];
/** PDF dates are whole seconds; a label without a date gets the epoch, so its bytes depend on its content only. */
const NO_DATE = new Date(0);

/**
 * The label as PDF bytes, one page per parcel (`labels`, in order); the same content gives the same bytes (fixed
 * creation date, hence a fixed file id).
 */
export async function renderLabelPdf(labels: LabelContent | readonly LabelContent[]): Promise<Buffer> {
  const pages = Array.isArray(labels) ? (labels as readonly LabelContent[]) : [labels as LabelContent];
  const first = pages[0];
  if (!first) throw new Error('a label has at least one page');
  const created = first.createdAt ? new Date(first.createdAt) : NO_DATE;
  const { doc, done } = pdfDocument([WIDTH, HEIGHT], `${first.carrierName} label ${first.trackingNumber}`, created);
  for (const label of pages) {
    doc.addPage({ size: [WIDTH, HEIGHT], margin: 0 });
    drawLabel(doc, label, await barcodeImage(label.trackingNumber));
  }
  doc.end();
  return done;
}

function drawLabel(doc: PDFKit.PDFDocument, label: LabelContent, barcode: { png: Buffer; widthPt: number }): void {
  let y = MARGIN;
  const line = (text: string, size: number, bold = false, x = MARGIN, width = INNER) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
    doc.text(fit(doc, text, width), x, y, { width, lineBreak: false });
    y += size * 1.2;
  };
  const rule = () => {
    y += 3;
    doc
      .moveTo(MARGIN, y)
      .lineTo(WIDTH - MARGIN, y)
      .lineWidth(1)
      .stroke();
    y += 6;
  };

  line(label.carrierName, 18, true);
  line(label.serviceName, 11);
  rule();
  line('FROM', 7, true);
  for (const text of addressLines(label.from)) line(text, 8);
  rule();
  line('SHIP TO', 8, true);
  const [toName = '', ...toRest] = addressLines(label.to);
  line(toName, 14, true);
  for (const text of toRest) line(text, 12);
  rule();
  const top = y;
  line(`WEIGHT  ${formatWeight(label.weightGrams)}`, 10, true, MARGIN, INNER / 2);
  const date = labelDate(label);
  if (date) {
    y = top;
    line(`DATE  ${date}`, 10, false, MARGIN + INNER / 2, INNER / 2);
  }
  line(`REF  ${label.reference}`, 10);
  rule();

  // The barcode sits at the bottom of the label, centred, with quiet zones from the margins and its own padding.
  const numberSize = 12;
  const barHeight = 80;
  const barY = HEIGHT - MARGIN - numberSize * 1.4 - barHeight;
  doc.image(barcode.png, (WIDTH - barcode.widthPt) / 2, barY, { width: barcode.widthPt, height: barHeight });
  y = barY + barHeight + 4;
  doc.font('Helvetica-Bold').fontSize(numberSize);
  doc.text(fit(doc, label.trackingNumber, INNER), MARGIN, y, { width: INNER, align: 'center', lineBreak: false });
}

/**
 * A PDF document of pages of `size`, titled, dated `created` (a fixed date: the same content gives the same bytes),
 * and its bytes once it ends.
 */
export function pdfDocument(size: [number, number], title: string, created: Date) {
  const doc = new PDFDocument({
    size,
    margin: 0,
    autoFirstPage: false,
    info: { Title: title, Producer: 'TMS', Creator: 'TMS', CreationDate: created, ModDate: created },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/** A Code 128 PNG at one pixel per printer dot, and its width in points. */
export async function barcodeImage(text: string): Promise<{ png: Buffer; widthPt: number }> {
  let last: { png: Buffer; widthPt: number } | undefined;
  for (const dots of DOTS_PER_MODULE) {
    const png = await bwipjs.toBuffer({ bcid: 'code128', text, scaleX: dots, scaleY: 1, height: 10, paddingwidth: 10 });
    // A PNG's width is the big-endian integer at byte 16 of its IHDR chunk.
    last = { png, widthPt: (png.readUInt32BE(16) * 72) / PRINTER_DPI };
    if (last.widthPt <= INNER) return last;
  }
  if (!last) throw new Error('no barcode scale');
  throw new Error(`The tracking number ${text} is too long for a 4 inch barcode (${Math.round(last.widthPt)} pt)`);
}

/** The text shortened with an ellipsis until it fits the width in the current font. */
export function fit(doc: PDFKit.PDFDocument, value: string, width: number): string {
  const text = toWinAnsi(value);
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 0 && doc.widthOfString(`${cut}...`) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}
