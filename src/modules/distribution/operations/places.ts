import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { addressInput, addressView, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { STAFF } from '../../../platform/roles.ts';
import { CODE_PATTERN, PLACE_KINDS, SGLN_PATTERN } from '../domain.ts';
import { findPlace, insertPlace, listPlaces, type PlaceRow } from '../repo/places.ts';
import {
  endSupplierAccount,
  insertSupplierAccount,
  listSupplierAccounts,
  type SupplierAccountRow,
} from '../repo/supplierAccounts.ts';

const TAG = 'Distribution';
export const code = (what: string) =>
  z
    .string()
    .trim()
    .regex(CODE_PATTERN, what)
    .transform((c) => c.toUpperCase());

const PlaceView = z.object({
  kind: z.enum(PLACE_KINDS),
  code: z.string(),
  name: z.string(),
  address: addressView.nullable(),
  device_id: z.string().nullable().describe('The locker of a locker place (its device code)'),
  identifier: z
    .string()
    .describe('What EPCIS documents name the place by: its SGLN, or urn:tms:place:<business code>:<place code>'),
  created_at: z.string(),
});

function presentPlace(p: PlaceRow): z.input<typeof PlaceView> {
  const a = p.address;
  return {
    kind: p.kind,
    code: p.code,
    name: p.name,
    device_id: p.device_id,
    identifier: p.identifier,
    created_at: new Date(p.created_at).toISOString(),
    address: a && {
      line1: a.line1,
      line2: a.line2 ?? null,
      city: a.city,
      postal_code: a.postal_code,
      country: a.country,
      lat: a.lat ?? null,
      lng: a.lng ?? null,
    },
  };
}

export const placeCreate = defineOperation({
  name: 'place_create',
  summary: 'Add a place of the business: a warehouse, a locker or a store where parcels are picked up.',
  description:
    "A `locker` needs the `device_id` of a device of the business, and no other kind takes one (VALIDATION_FAILED). `code` is kept upper-case and unique in the business (PLACE_CODE_TAKEN); `sgln` is the place's GS1 SGLN, unique across businesses (PLACE_IDENTIFIER_TAKEN), and without it the identifier is `urn:tms:place:<business>:<place>`. Scans and carrier events name places by code or identifier. A place cannot be changed or deleted yet.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/places', status: 201 },
  failures: {
    PLACE_CODE_TAKEN: 'The business already has a place with this code',
    PLACE_IDENTIFIER_TAKEN: 'Another place has this SGLN',
  },
  graphql: { name: 'placeCreate', kind: 'mutation' },
  input: z
    .object({
      kind: z.enum(PLACE_KINDS),
      code: code('place code'),
      name: z.string().trim().min(1).max(200),
      address: addressInput().nullish(),
      device_id: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .nullish()
        .describe('A device of the business; a locker place needs one, no other kind takes one'),
      sgln: z
        .string()
        .regex(SGLN_PATTERN, 'SGLN URN')
        .nullish()
        .describe("The place's GS1 SGLN (urn:epc:id:sgln:...); our own URN when absent"),
    })
    .strict(),
  output: z.object({ result: z.literal(true), place: PlaceView }),
  async handler(input, ctx) {
    const deviceCode = input.device_id ?? null;
    if (input.kind === 'locker' && deviceCode === null) throw errors.field('device_id', 'field.required');
    if (input.kind !== 'locker' && deviceCode !== null) throw errors.field('device_id', 'field.unknown');
    const place = await insertPlace(ctx.em, ctx.caller.businessId, {
      kind: input.kind,
      code: input.code,
      name: input.name,
      address: input.address ?? null,
      deviceCode,
      sgln: input.sgln ?? null,
    });
    if (place === 'no_device') throw errors.field('device_id', 'field.unknown_device');
    if (place === 'code_taken') throw fail('PLACE_CODE_TAKEN', 'distribution.place_code_taken');
    if (place === 'identifier_taken') throw fail('PLACE_IDENTIFIER_TAKEN', 'distribution.place_identifier_taken');
    return { result: true as const, place: presentPlace(place) };
  },
});

export const placeList = defineOperation({
  name: 'place_list',
  summary: 'List the places of the business, by code.',
  description:
    'Answers every place with its kind, address, device and the identifier carrier documents use for it; filter with `kind` (`warehouse`, `locker`, `store`). Not paginated. Use it to look up the codes that scans, scanner keys and distribution lists take; place_get reads one.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/places' },
  graphql: { name: 'places', kind: 'query' },
  input: z.object({ kind: z.enum(PLACE_KINDS).optional() }).strict(),
  output: z.object({ result: z.literal(true), places: z.array(PlaceView) }),
  async handler(input, ctx) {
    const places = await listPlaces(ctx.em, ctx.caller.businessId, input.kind ?? null);
    return { result: true as const, places: places.map(presentPlace) };
  },
});

export const placeGet = defineOperation({
  name: 'place_get',
  summary: 'Read one place of the business by its code.',
  description:
    'The code is matched without regard to case, as places keep theirs upper-case. Answers its kind, name, address, device (for a locker) and its `identifier`: the SGLN, or `urn:tms:place:<business>:<place>`, by which EPCIS documents and scans name it. Refuses a code of no place of the business (NOT_FOUND).',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/places/{code}' },
  failures: { NOT_FOUND: 'No such place of the business' },
  graphql: { name: 'place', kind: 'query' },
  input: z.object({ code: code('place code') }).strict(),
  output: z.object({ result: z.literal(true), place: PlaceView }),
  async handler(input, ctx) {
    const place = await findPlace(ctx.em, ctx.caller.businessId, input.code);
    if (!place) throw errors.notFound();
    return { result: true as const, place: presentPlace(place) };
  },
});

const SupplierAccountView = z.object({
  id: z.number().int(),
  carrier_code: z.string(),
  carrier_name: z.string(),
  member_number: z.string(),
  created_at: z.string(),
  ended_at: z.string().nullable(),
});

const presentAccount = (a: SupplierAccountRow): z.input<typeof SupplierAccountView> => ({
  ...a,
  created_at: new Date(a.created_at).toISOString(),
  ended_at: a.ended_at && new Date(a.ended_at).toISOString(),
});

export const supplierAccountCreate = defineOperation({
  name: 'carrier_supplier_account_create',
  summary: 'Open a supplier account for a carrier: its packages then get distribution records and carrier events.',
  description:
    "Use it when a carrier (a delivery provider account) delivers through the business's network under an agreed `member_number`. Its packages' steps then send `carrier_package.distribution.*` events to the carrier's provider endpoint, carrying the member number. Refuses a code of no carrier (VALIDATION_FAILED on `carrier_code`), a carrier already active here (SUPPLIER_ACCOUNT_EXISTS) and a member number in use (MEMBER_NUMBER_TAKEN).",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/carrier-supplier-accounts', status: 201 },
  failures: {
    SUPPLIER_ACCOUNT_EXISTS: 'The carrier already has an active account here',
    MEMBER_NUMBER_TAKEN: 'The member number is in use by another active account',
  },
  graphql: { name: 'carrierSupplierAccountCreate', kind: 'mutation' },
  input: z
    .object({
      carrier_code: z.string().trim().min(1).max(64).describe("The carrier's business code"),
      member_number: code('member number').describe("The carrier's member number with the business, as they agreed it"),
    })
    .strict(),
  output: z.object({ result: z.literal(true), account: SupplierAccountView }),
  async handler(input, ctx) {
    const account = await insertSupplierAccount(
      ctx.em,
      ctx.caller.businessId,
      input.carrier_code,
      input.member_number,
      ctx.caller.id,
    );
    if (account === 'no_carrier') throw errors.field('carrier_code', 'field.unknown_carrier');
    if (account === 'exists') throw fail('SUPPLIER_ACCOUNT_EXISTS', 'distribution.supplier_account_exists');
    if (account === 'member_taken') throw fail('MEMBER_NUMBER_TAKEN', 'distribution.member_number_taken');
    return { result: true as const, account: presentAccount(account) };
  },
});

export const supplierAccountList = defineOperation({
  name: 'carrier_supplier_account_list',
  summary: "List the business's carrier supplier accounts, ended ones included.",
  description:
    "Each account has its carrier's code and name, member number, and `ended_at` once ended (null while active). Not paginated. Use it to find the id carrier_supplier_account_end takes, or to check why a carrier gets no distribution events.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/carrier-supplier-accounts' },
  graphql: { name: 'carrierSupplierAccounts', kind: 'query' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), accounts: z.array(SupplierAccountView) }),
  async handler(_input, ctx) {
    const accounts = await listSupplierAccounts(ctx.em, ctx.caller.businessId);
    return { result: true as const, accounts: accounts.map(presentAccount) };
  },
});

export const supplierAccountEnd = defineOperation({
  name: 'carrier_supplier_account_end',
  summary:
    'End a carrier supplier account: new packages of the carrier get no distribution records; those under way keep theirs.',
  description:
    "From then on the carrier's new packages get no distribution records or events, while packages under way keep theirs. Answers the account with `ended_at`. An ended account cannot be reopened: open a new one with carrier_supplier_account_create. Refuses an id that is no active account of the business, including one already ended (NOT_FOUND).",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'DELETE', path: '/v1/carrier-supplier-accounts/{id}' },
  failures: { NOT_FOUND: 'No such active account of the business' },
  graphql: { name: 'carrierSupplierAccountEnd', kind: 'mutation' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), account: SupplierAccountView }),
  async handler(input, ctx) {
    const account = await endSupplierAccount(ctx.em, ctx.caller.businessId, input.id);
    if (!account) throw errors.notFound();
    return { result: true as const, account: presentAccount(account) };
  },
});
