/**
 * IATA ONE Record (data model 3.2, https://onerecord.iata.org/ns/cargo#) JSON-LD: the shipment as a
 * cargo:Shipment whose `events` are its cargo:LogisticsEvents, one per OTEP event in occurrence order.
 *
 * Property names follow the 3.x ontology, where a LogisticsEvent has eventCode (CodeListElement), eventName,
 * eventDate, creationDate, eventTimeType, eventFor (the LogisticsObject) and eventLocation (a Location with
 * locationName, address {cityName, textualPostCode, country}, geolocation {latitude, longitude}). The 2.x
 * names linkedObject and recordedAtLocation, still used in the OTEP mapping table, were replaced by eventFor
 * and eventLocation in 3.0. LogisticsEvent has no remark property, so the incident reason (and the event's
 * description) travels in cargo:description, which the ontology allows on any object.
 *
 * The event codes are Cargo-IMP / cXML code list 1.18 status codes as projected by the vocabulary, written as
 * CodeListElements (not as named individuals of the code-list ontology, which has no last-mile codes).
 */
import type { OtepEvent, OtepLocation, Timeline } from '../model.ts';
import { REASON_BY_ID, STATUS_BY_ID } from '../vocabulary.ts';
import type { Format, ProjectionContext } from './types.ts';

const CARGO = 'https://onerecord.iata.org/ns/cargo#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const STATUS_CODE_LIST = 'IATA cXML Code List 1.18 Status Codes';
const OTEP_CODE_LIST = 'OTEP vocabulary status codes';

const CONTEXT = { '@vocab': CARGO, cargo: CARGO, xsd: XSD };

const dateTime = (iso: string) => ({ '@type': 'xsd:dateTime', '@value': iso });
const double = (n: number) => ({ '@type': 'xsd:double', '@value': n });
const codeListElement = (code: string, codeListName: string) => ({
  '@type': 'cargo:CodeListElement',
  code,
  codeListName,
});

export const shipmentIri = (t: Timeline, ctx: ProjectionContext) =>
  `${ctx.baseUrl.replace(/\/+$/, '')}/api/v1/otep/trackings/${encodeURIComponent(t.tracking_number)}`;

function location(loc: OtepLocation) {
  const address = {
    ...(loc.city ? { cityName: loc.city } : {}),
    ...(loc.postal_code ? { textualPostCode: loc.postal_code } : {}),
    ...(loc.country ? { country: codeListElement(loc.country, 'ISO 3166-1 alpha-2') } : {}),
  };
  const hasPoint = typeof loc.lat === 'number' && typeof loc.lng === 'number';
  return {
    '@type': 'cargo:Location',
    ...(loc.name ? { locationName: loc.name } : {}),
    ...(loc.gln ? { locationCodes: [codeListElement(loc.gln, 'GS1 GLN')] } : {}),
    ...(Object.keys(address).length ? { address: { '@type': 'cargo:Address', ...address } } : {}),
    ...(hasPoint
      ? { geolocation: { '@type': 'cargo:Geolocation', latitude: double(loc.lat!), longitude: double(loc.lng!) } }
      : {}),
  };
}

/** The reason label with its OTEP id, then the carrier's words: the closest ONE Record has to a remark. */
function remark(e: OtepEvent): string | null {
  const reason = e.incident_reason
    ? `${REASON_BY_ID.get(e.incident_reason)?.label ?? 'Incident'} (${e.incident_reason})`
    : null;
  const parts = [reason, e.description ?? null].filter((p): p is string => Boolean(p));
  return parts.length ? parts.join('. ') : null;
}

function logisticsEvent(e: OtepEvent, forIri: string) {
  const status = STATUS_BY_ID.get(e.status_code);
  const text = remark(e);
  const hasLocation = e.location && Object.values(e.location).some((v) => v !== null && v !== undefined && v !== '');
  return {
    '@id': `${forIri}/logistics-events/${encodeURIComponent(e.id)}`,
    '@type': 'cargo:LogisticsEvent',
    // Where ONE Record's status list has no code of this meaning, the code is the OTEP one, from our vocabulary.
    eventCode: status?.projection.onerecord
      ? codeListElement(status.projection.onerecord, STATUS_CODE_LIST)
      : codeListElement(e.status_code, OTEP_CODE_LIST),
    eventName: status?.label ?? e.status_code,
    eventDate: dateTime(e.occurred_at),
    creationDate: dateTime(e.recorded_at),
    eventTimeType: { '@id': `${CARGO}ACTUAL` },
    eventFor: { '@id': forIri },
    ...(hasLocation ? { eventLocation: location(e.location!) } : {}),
    ...(text ? { description: text } : {}),
  };
}

export const onerecord: Format = {
  id: 'onerecord',
  mediaType: 'application/ld+json',
  project(t, ctx) {
    const iri = shipmentIri(t, ctx);
    return {
      '@context': CONTEXT,
      '@id': iri,
      '@type': 'cargo:Shipment',
      externalReferences: [
        {
          '@type': 'cargo:ExternalReference',
          documentIdentifier: t.tracking_number,
          documentLink: `${iri}?format=otep`,
          description: 'OTEP tracking timeline',
        },
      ],
      events: t.events.map((e) => logisticsEvent(e, iri)),
    };
  },
  projectEvents(t, ctx) {
    const iri = shipmentIri(t, ctx);
    return { '@context': CONTEXT, '@graph': t.events.map((e) => logisticsEvent(e, iri)) };
  },
};
