/**
 * Phone numbers as the SMS provider takes them: E.164 (+420601123456). A number written nationally (601 123 456) is
 * read in the region given (the app's default_phone_region); one written with + or 00 in any. Parsed and checked
 * against the numbering plans of libphonenumber-js (its full metadata, so that a number of a plan's length but
 * outside its ranges is refused too).
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * The number in E.164, or null when it is not a valid phone number (for the region, when written nationally). With
 * `ZZ` or a region libphonenumber does not know, only numbers written internationally are read.
 */
export function toE164(text: string, region: string): string | null {
  if (text.length > 40) return null;
  const parsed = parsePhoneNumberFromString(text, { defaultCountry: region as CountryCode, extract: false });
  return parsed?.isValid() ? parsed.number : null;
}
