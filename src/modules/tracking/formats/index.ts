import { aftership } from './aftership.ts';
import { bigcommerce } from './bigcommerce.ts';
import { epcis } from './epcis.ts';
import { etsy } from './etsy.ts';
import { magento } from './magento.ts';
import { onerecord } from './onerecord.ts';
import { otep } from './otep.ts';
import { otlp } from './otlp.ts';
import { prestashop } from './prestashop.ts';
import { sensorthings } from './sensorthings.ts';
import { shippo } from './shippo.ts';
import { shopify } from './shopify.ts';
import type { Format } from './types.ts';
import { uncefact } from './uncefact.ts';
import { woocommerce } from './woocommerce.ts';

/** Every representation a timeline can be read in, by its `format` value; `otep` is the default. */
export const FORMATS: ReadonlyMap<string, Format> = new Map(
  [
    otep,
    epcis,
    onerecord,
    uncefact,
    otlp,
    sensorthings,
    aftership,
    shopify,
    shippo,
    woocommerce,
    magento,
    bigcommerce,
    prestashop,
    etsy,
  ].map((f) => [f.id, f]),
);
export const FORMAT_IDS: readonly string[] = [...FORMATS.keys()];
export const DEFAULT_FORMAT = 'otep';
