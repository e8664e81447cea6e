/**
 * The route board (docs/routes.md, "The route board"): a day's routes offered to the business's contractors, who
 * claim seats; workflow `route-board-<id>` (contract.ts) opens, closes, awards and settles it, and every change is
 * sent as route_board.changed (declared by the orders module) to the merchant-level route_board_webhook_url.
 */
import { defineModule } from '../../platform/module.ts';
import { createRouteBoardActivities } from './activities.ts';
import { ROUTE_BOARD_QUEUE, ROUTE_BOARD_WORKFLOW } from './contract.ts';
import { ROUTE_BOARD_ERRORS } from './errorCodes.ts';
import { ROUTE_BOARD_MESSAGES } from './messages.ts';
import { ROUTE_BOARD_OPERATIONS } from './operations.ts';

export const routeBoard = defineModule({
  name: 'route-board',
  tags: {
    'Route board':
      "A day's routes offered to the business's contractors: they claim seats (or any seat, pooled), the board awards them at its closing time, and each contractor names the driver of the routes it won.",
  },
  taskQueue: ROUTE_BOARD_QUEUE,
  operations: ROUTE_BOARD_OPERATIONS,
  activities: createRouteBoardActivities,
  workflows: [ROUTE_BOARD_WORKFLOW],
  messages: ROUTE_BOARD_MESSAGES,
  errorCodes: ROUTE_BOARD_ERRORS,
});
