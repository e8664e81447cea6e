/**
 * The shape of a webhook event as modules declare it in their `events.ts` and name in their descriptor (`events`).
 * The webhooks module is built with every module's events, and routes, documents (AsyncAPI) and checks test sends
 * from that one list.
 */
export type Schema = { [keyword: string]: unknown };
export type EventSender = 'tenant' | 'partner_locker' | 'third_party' | 'ohp';

export interface EventDefinition {
  name: string;
  sender: EventSender;
  summary: string;
  /** The payload as a self-contained JSON Schema (AsyncAPI publishes it; CloudEvents `dataschema` points at it). */
  payload: Schema;
  /**
   * Tenant events: the webhook settings field whose URLs receive the event, and the settings field holding a
   * comma-separated list that can restrict the family (empty means every event of the family).
   */
  route?: { field: string; restrictedBy?: string };
}
