import type { Timeline } from '../model.ts';

export interface ProjectionContext {
  /** Public base URL of this service (config.publicBaseUrl), for absolute IRIs and links. */
  baseUrl: string;
}

/** One output representation of a timeline, selected by `format` or an Accept profile. */
export interface Format {
  /** The `format` query value. */
  id: string;
  /** Content type of the answer. */
  mediaType: string;
  /** The whole timeline in this representation. */
  project(t: Timeline, ctx: ProjectionContext): unknown;
  /** Only the events, for `.../events`; defaults to project(). */
  projectEvents?(t: Timeline, ctx: ProjectionContext): unknown;
}
