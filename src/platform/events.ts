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
  /**
   * For the partner receiving it: when it is sent, what it means for them and what to do with it (the AsyncAPI
   * message's description; the contract lint refuses an event without one).
   */
  description?: string;
  /** The payload as a self-contained JSON Schema (AsyncAPI publishes it; CloudEvents `dataschema` points at it). */
  payload: Schema;
  /**
   * Tenant events: the webhook settings field whose URLs receive the event, and the settings field holding a
   * comma-separated list that can restrict the family (empty means every event of the family).
   */
  route?: { field: string; restrictedBy?: string };
}

/**
 * Gives a module's events their descriptions for the receiver, by event name, beside the declarations; naming an
 * event the list does not hold is a mistake and throws when the module loads.
 */
export function describeEvents(
  events: readonly EventDefinition[],
  descriptions: Readonly<Record<string, string>>,
): readonly EventDefinition[] {
  const names = new Set(events.map((e) => e.name));
  const unknown = Object.keys(descriptions).filter((name) => !names.has(name));
  if (unknown.length > 0) throw new Error(`Descriptions of events not declared here: ${unknown.join(', ')}`);
  return events.map((e) => (descriptions[e.name] ? { ...e, description: descriptions[e.name] } : e));
}
