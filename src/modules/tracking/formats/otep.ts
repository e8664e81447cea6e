import { PROJECTION_STANDARDS } from '../document.ts';
import type { Format } from './types.ts';

/**
 * The native timeline. It names the external standards it is also published in, so a posted copy of it
 * reaches conformance level 2 when it uses profile codes; native ingest accepts it back as it is.
 */
export const otep: Format = {
  id: 'otep',
  mediaType: 'application/json',
  project: (t) => ({ ...t, projections: [...PROJECTION_STANDARDS] }),
  projectEvents: (t) => ({ otep_version: t.otep_version, tracking_number: t.tracking_number, events: t.events }),
};
