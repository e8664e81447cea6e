/**
 * Text for the PDF label's standard fonts (Helvetica), which can draw only the WinAnsi character set: letters with
 * accents outside it lose the accents (Ł becomes L, ż becomes z), as carriers commonly print addresses in Latin
 * letters, and anything else becomes `?`. Embedding a Unicode font would keep them, at the cost of a font file.
 */

// WinAnsi (Windows-1252) beyond Latin-1: the characters in its 0x80 to 0x9F range.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
/** Letters whose accent is not a combining mark in Unicode, so decomposition does not remove it. */
const LATIN_BASE: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŧ: 'T', ŧ: 't' };

function drawable(c: string): boolean {
  const code = c.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(c);
}

/** The text with every character the standard fonts cannot draw replaced by its base letter or `?`. */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const c of text) {
    if (drawable(c)) out += c;
    else if (LATIN_BASE[c]) out += LATIN_BASE[c];
    else if (/\s/.test(c)) out += ' ';
    else {
      const base = c.normalize('NFD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every(drawable) ? base : '?';
    }
  }
  return out;
}
