/**
 * The same 4x6 inch label as ZPL II for a 203 dpi thermal printer (812 x 1218 dots): carrier and service, ship-from
 * and ship-to blocks, weight, reference and a Code 128 barcode (^BC) of the tracking number. Every field is written
 * with ^FH, and `^`, `~` and the escape character itself are sent as hex escapes, so text from users cannot end a
 * field or start a command; control characters are dropped.
 */
import { addressLines, formatWeight, labelDate, type LabelContent } from './content.ts';

const WIDTH = 812;
const HEIGHT = 1218;
const MARGIN = 30;
const INNER = WIDTH - 2 * MARGIN;

/** The label as one ZPL format, ^XA to ^XZ, with UTF-8 text (^CI28). */
export function renderLabelZpl(label: LabelContent): string {
  const out = ['^XA', '^CI28', `^PW${WIDTH}`, `^LL${HEIGHT}`, '^LH0,0'];
  let y = MARGIN;
  const line = (text: string, size: number, x = MARGIN, width = INNER) => {
    out.push(`^FO${x},${y}^A0N,${size},${size}^FH_^FD${escapeField(fit(text, size, width))}^FS`);
    y += Math.round(size * 1.25);
  };
  const rule = () => {
    y += 6;
    out.push(`^FO${MARGIN},${y}^GB${INNER},3,3^FS`);
    y += 18;
  };

  line(label.carrierName, 50);
  line(label.serviceName, 32);
  rule();
  line('FROM', 22);
  for (const text of addressLines(label.from)) line(text, 24);
  rule();
  line('SHIP TO', 24);
  const [toName = '', ...toRest] = addressLines(label.to);
  line(toName, 42);
  for (const text of toRest) line(text, 34);
  rule();
  const top = y;
  line(`WEIGHT  ${formatWeight(label.weightGrams)}`, 28, MARGIN, INNER / 2);
  const date = labelDate(label);
  if (date) {
    y = top;
    line(`DATE  ${date}`, 28, MARGIN + INNER / 2, INNER / 2);
  }
  line(`REF  ${label.reference}`, 28);

  // Code 128 in automatic mode (A: the printer picks the subsets, pairs of digits where that is shorter); the
  // interpretation line prints the number under the bars. Modules of 3 dots as in the PDF, 2 when a long number might
  // not fit (the widest case, subset B: 11 modules per character, plus start, check digit and stop). The printer's
  // choice of subsets decides the width, so the barcode starts at the left margin, past a quiet zone, rather than
  // being centred on a guess.
  const modules = 11 * (label.trackingNumber.length + 3) + 2;
  const dots = modules * 3 <= INNER - 10 ? 3 : 2;
  const barHeight = 200;
  const barY = HEIGHT - MARGIN - 50 - barHeight;
  const barX = MARGIN + 10;
  out.push(`^BY${dots},3,${barHeight}`);
  out.push(`^FO${barX},${barY}^BCN,${barHeight},Y,N,N,A^FH_^FD${escapeField(label.trackingNumber)}^FS`);
  out.push('^XZ');
  return `${out.join('\n')}\n`;
}

/**
 * The text cut with `...` to the characters that fit the width. The printer measures the scalable font, not this
 * code, so the cut assumes characters of 0.55 of the font's height, as wide as capitals; a ^FB block would not
 * help, as it prints what does not fit over its last line.
 */
function fit(text: string, size: number, width: number): string {
  const chars = [...text];
  const max = Math.floor(width / (size * 0.55));
  return chars.length <= max ? text : `${chars.slice(0, max - 3).join('')}...`;
}

/** Field text for ^FH_: the escape character, `^` and `~` as hex bytes, control characters removed. */
export function escapeField(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[_^~]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
