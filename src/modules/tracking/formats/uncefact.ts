/**
 * UN/CEFACT transport status events, as plain JSON with names in the style of the Multi-Modal Transport
 * reference data model (consignment, transport event, occurrence date time, occurrence location, status
 * reason). One transport event per OTEP event, in occurrence order:
 *
 *   {
 *     "consignment": {
 *       "id": "<tracking number>",
 *       "transportEvents": [{
 *         "id": "<OTEP event id>",
 *         "transportEventTypeCode": "21",            UNECE Rec. 24 transport status code (vocabulary projection)
 *         "transportEventTypeCodeListId": "UNECE Rec. 24",
 *         "description": "Delivered",                 OTEP status label
 *         "otepStatusCode": "otep:core:delivered",
 *         "occurrenceDateTime": "2026-11-20T15:42:00+01:00",
 *         "recordedDateTime": "2026-11-20T14:42:05Z",
 *         "statusReasonCode": "…",                   only with an incident reason (vocabulary projection)
 *         "statusReasonDescription": "…",
 *         "otepIncidentReason": "otep:reason:…",
 *         "remarks": "…",                            the event's free-text description
 *         "occurrenceLocation": {
 *           "id": "<GLN or SGLN URN>", "name": "<place name>",
 *           "postalAddress": { "cityName", "postcode", "countryCode" },
 *           "geographicalCoordinate": { "latitudeMeasure", "longitudeMeasure" }   decimal degrees
 *         }
 *       }]
 *     }
 *   }
 *
 * Absent values are left out rather than sent as null.
 */
import type { OtepEvent, OtepLocation, Timeline } from '../model.ts';
import { REASON_BY_ID, STATUS_BY_ID } from '../vocabulary.ts';
import type { Format } from './types.ts';

const present = (v: unknown) => v !== null && v !== undefined && v !== '';

function occurrenceLocation(loc: OtepLocation) {
  const postalAddress = {
    ...(present(loc.city) ? { cityName: loc.city } : {}),
    ...(present(loc.postal_code) ? { postcode: loc.postal_code } : {}),
    ...(present(loc.country) ? { countryCode: loc.country } : {}),
  };
  const hasPoint = typeof loc.lat === 'number' && typeof loc.lng === 'number';
  const out = {
    ...(present(loc.gln) ? { id: loc.gln } : {}),
    ...(present(loc.name) ? { name: loc.name } : {}),
    ...(Object.keys(postalAddress).length ? { postalAddress } : {}),
    ...(hasPoint ? { geographicalCoordinate: { latitudeMeasure: loc.lat, longitudeMeasure: loc.lng } } : {}),
  };
  return Object.keys(out).length ? out : null;
}

function transportEvent(e: OtepEvent) {
  const status = STATUS_BY_ID.get(e.status_code);
  const reason = e.incident_reason ? REASON_BY_ID.get(e.incident_reason) : undefined;
  const where = e.location ? occurrenceLocation(e.location) : null;
  return {
    id: e.id,
    ...(status?.projection.uncefact
      ? { transportEventTypeCode: status.projection.uncefact, transportEventTypeCodeListId: 'UNECE Rec. 24' }
      : {}),
    description: status?.label ?? e.status_code,
    otepStatusCode: e.status_code,
    occurrenceDateTime: e.occurred_at,
    recordedDateTime: e.recorded_at,
    ...(reason
      ? {
          statusReasonCode: reason.uncefact,
          statusReasonCodeListId: 'UN/EDIFACT 9013',
          statusReasonDescription: reason.label,
        }
      : {}),
    ...(e.incident_reason ? { otepIncidentReason: e.incident_reason } : {}),
    ...(present(e.description) ? { remarks: e.description } : {}),
    ...(where ? { occurrenceLocation: where } : {}),
  };
}

/** The whole document is already the event list, so `.../events` answers the same. */
export const uncefact: Format = {
  id: 'uncefact',
  mediaType: 'application/json',
  project: (t: Timeline) => ({ consignment: { id: t.tracking_number, transportEvents: t.events.map(transportEvent) } }),
};
