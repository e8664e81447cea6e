/**
 * OGC SensorThings API 1.1 style: the shipment is a Thing with one Datastream, "<tn> status", whose
 * Observations are the OTEP events in occurrence order, written as an expanded entity tree
 * (`$expand=Datastreams/Observations/FeatureOfInterest`). An Observation's result is the OTEP status code,
 * its phenomenonTime the occurrence and its resultTime the recording; phase, incident reason, description
 * and location go in parameters. An event with coordinates gets a FeatureOfInterest with a GeoJSON Point
 * ([lng, lat]).
 *
 * Ids are strings derived from the tracking number. Links are absolute and point at the OTEP endpoints that
 * serve them in this format, since the service has no SensorThings entity paths of its own.
 */
import type { OtepEvent, OtepLocation, Timeline } from '../model.ts';
import { STATUS_BY_ID } from '../vocabulary.ts';
import type { Format, ProjectionContext } from './types.ts';

const CATEGORY_OBSERVATION = 'http://www.opengis.net/def/observationType/OGC-OM/2.0/OM_CategoryObservation';

function links(t: Timeline, ctx: ProjectionContext) {
  const base = ctx.baseUrl.replace(/\/+$/, '');
  const tracking = `${base}/api/v1/otep/trackings/${encodeURIComponent(t.tracking_number)}`;
  return {
    vocabulary: `${base}/api/v1/otep/vocabulary`,
    thing: `${tracking}?format=sensorthings`,
    observations: `${tracking}/events?format=sensorthings`,
  };
}

/** The published location fields only (a stored location could carry more), without empty ones. */
function placeOf(loc: OtepLocation): Partial<OtepLocation> {
  const { name, city, postal_code, country, lat, lng, gln } = loc;
  return Object.fromEntries(
    Object.entries({ name, city, postal_code, country, lat, lng, gln }).filter(
      ([, v]) => v !== null && v !== undefined && v !== '',
    ),
  );
}

function featureOfInterest(id: string, selfLink: string, loc: OtepLocation) {
  const place = [loc.postal_code, loc.city, loc.country].filter(Boolean).join(' ');
  return {
    '@iot.id': id,
    '@iot.selfLink': selfLink,
    name: loc.name || loc.city || `${loc.lat},${loc.lng}`,
    description: place || 'Where the event happened',
    encodingType: 'application/geo+json',
    feature: { type: 'Point', coordinates: [loc.lng, loc.lat] },
  };
}

function observation(t: Timeline, e: OtepEvent, ctx: ProjectionContext) {
  const id = `${t.tracking_number}:${e.id}`;
  const selfLink = `${links(t, ctx).observations}#${encodeURIComponent(e.id)}`;
  const loc = e.location;
  const hasPoint = loc && typeof loc.lat === 'number' && typeof loc.lng === 'number';
  const location = loc ? placeOf(loc) : {};
  return {
    '@iot.id': id,
    '@iot.selfLink': selfLink,
    phenomenonTime: e.occurred_at,
    resultTime: e.recorded_at,
    result: e.status_code,
    parameters: {
      phase: e.phase,
      ...(e.incident_reason ? { incident_reason: e.incident_reason } : {}),
      ...(e.description ? { description: e.description } : {}),
      ...(Object.keys(location).length ? { location } : {}),
      source: e.source,
      ...(e.after_terminal ? { after_terminal: true } : {}),
    },
    ...(hasPoint ? { FeatureOfInterest: featureOfInterest(`${id}:foi`, `${selfLink}:foi`, loc) } : {}),
  };
}

const observations = (t: Timeline, ctx: ProjectionContext) => t.events.map((e) => observation(t, e, ctx));

export const sensorthings: Format = {
  id: 'sensorthings',
  mediaType: 'application/json',
  project(t, ctx) {
    const link = links(t, ctx);
    const current = t.current ? STATUS_BY_ID.get(t.current.status_code) : undefined;
    return {
      '@iot.id': t.tracking_number,
      '@iot.selfLink': link.thing,
      name: t.tracking_number,
      description: `Shipment ${t.tracking_number}`,
      properties: {
        otep_version: t.otep_version,
        service: t.service,
        ...(t.current
          ? {
              current_status: t.current.status_code,
              current_label: current?.label ?? t.current.status_code,
              terminal: t.current.terminal,
            }
          : {}),
      },
      Datastreams: [
        {
          '@iot.id': `${t.tracking_number}:status`,
          '@iot.selfLink': `${link.thing}#status`,
          name: `${t.tracking_number} status`,
          description: `OTEP status changes of shipment ${t.tracking_number}`,
          unitOfMeasurement: { name: null, symbol: null, definition: null },
          observationType: CATEGORY_OBSERVATION,
          ObservedProperty: {
            '@iot.id': 'otep-status',
            name: 'OTEP status',
            definition: link.vocabulary,
            description: 'Canonical OTEP status code of a shipment',
          },
          Sensor: {
            '@iot.id': 'otep-timeline',
            name: 'OTEP timeline',
            description: 'Status events reported by the merchant or a carrier',
            encodingType: 'text/html',
            metadata: link.vocabulary,
          },
          'Observations@iot.navigationLink': link.observations,
          'Observations@iot.count': t.events.length,
          Observations: observations(t, ctx),
        },
      ],
    };
  },
  projectEvents: (t, ctx) => ({ '@iot.count': t.events.length, value: observations(t, ctx) }),
};
