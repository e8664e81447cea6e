import { EVENTS } from '../../src/modules/index.ts';
import { EventRouting } from '../../src/modules/webhooks/index.ts';

/** Every module's webhook events, routed as the webhooks module routes them. */
export const ROUTING = new EventRouting(EVENTS);

export const eventDefinition = (name: string) => ROUTING.definition(name);
