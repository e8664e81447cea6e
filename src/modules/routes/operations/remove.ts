/** Taking orders off a route (docs/routes.md, Routes): each order's result, order.unassigned for each one taken off. */
import { z } from 'zod';
import { eachOnce, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { insertOutboxEvents, type NewOutboxEvent } from '../../../platform/db/outbox.ts';
import { errors } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { actorOf, orderLifecycleEvent } from '../../orders/index.ts';
import { lockRoute, orderStops, takeOrderOffRoute } from '../repo/routes.ts';
import { planningOrders } from '../repo/planning.ts';

const RESULT_MESSAGE = {
  NOT_ON_ROUTE: 'routes.remove.not_on_route',
  STOP_STARTED: 'routes.remove.stop_started',
} as const;

export const removeRouteOrders = defineOperation({
  name: 'remove_route_orders',
  summary: 'Take orders off a route; a stop done or under way keeps its order. Answers each order\u2019s result.',
  description:
    'Each order given leaves the route with its pending stops (the later stops move up; the order keeps no driver), sends order.unassigned (reason revoke) and writes operation type 3084 in its audit trail. An order not on this route (or not the business\u2019s) is NOT_ON_ROUTE, one whose stop is done or failed is STOP_STARTED; the others are still taken off. A route left without orders is cancelled. Another business\u2019s route is NOT_FOUND.',
  tag: 'Routes',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/routes/{id}/remove-orders' },
  graphql: { name: 'routeRemoveOrders', kind: 'mutation' },
  failures: { NOT_FOUND: 'No route of the business has this id' },
  input: z
    .object({
      id: pathId,
      order_ids: eachOnce(
        z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(500),
        'routes.duplicate_id',
      ).describe('The orders to take off, 1 to 500, each once'),
    })
    .strict(),
  output: z.object({
    result: z.boolean().describe('true when at least one order was taken off'),
    results: z.array(
      z.object({
        order_id: z.number().int(),
        removed: z.boolean(),
        code: z.enum(['NOT_ON_ROUTE', 'STOP_STARTED']).optional(),
        message: z.string().optional(),
      }),
    ),
  }),
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const actor = actorOf(ctx);
    return ctx.em.transactional(async (tx) => {
      const route = await lockRoute(tx, businessId, input.id);
      if (!route) throw errors.notFound();
      const events: NewOutboxEvent[] = [];
      const results: { order_id: number; removed: boolean; code?: keyof typeof RESULT_MESSAGE; message?: string }[] =
        [];
      for (const orderId of input.order_ids) {
        const found = await orderStops(tx, businessId, orderId);
        const first = found?.route.id === route.id ? found.stops[0] : undefined;
        const outcome = first ? await takeOrderOffRoute(tx, businessId, orderId, actor) : 'not_on_route';
        if (typeof outcome === 'string') {
          const code = outcome === 'stop_started' ? ('STOP_STARTED' as const) : ('NOT_ON_ROUTE' as const);
          results.push({ order_id: orderId, removed: false, code, message: translate(RESULT_MESSAGE[code], ctx.lang) });
          continue;
        }
        const [order] = await planningOrders(tx, businessId, [orderId]);
        events.push(
          orderLifecycleEvent(order!, 'order.unassigned', `OLC-${first!.id}.unassigned`, {
            previous_driver_id: outcome.driverId,
            reason: 'revoke',
          }),
        );
        results.push({ order_id: orderId, removed: true });
      }
      await insertOutboxEvents(tx, events);
      return { result: results.some((r) => r.removed), results };
    });
  },
});
