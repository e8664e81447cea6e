/**
 * Routes (docs/routes.md): route builds with a real solver (process build-route-<id>), a driver's route of a day
 * and its stops, and the route reads. The route and stop writers below are what dispatch uses to put an order on a
 * driver's route and to finish its stops.
 */
import { defineModule } from '../../platform/module.ts';
import { createRoutesActivities } from './activities.ts';
import { BUILD_ROUTE_WORKFLOW, ROUTES_QUEUE } from './contract.ts';
import { ROUTES_ERRORS } from './errorCodes.ts';
import { ROUTES_MESSAGES } from './messages.ts';
import { buildRoute, buildRouteOptions, cancelBuildRoute, getBuildRoute } from './operations/build.ts';
import { removeRouteOrders } from './operations/remove.ts';
import { myRouteToday, routeDetail, routeList, routesToday } from './operations/routes.ts';

export {
  driverRouteOf,
  finishStop,
  lockRoute,
  orderStops,
  putOrderOnRoute,
  releaseFinishedOrder,
  routeStops,
  startRoute,
  takeOrderOffRoute,
  type OffRouteRefusal,
  type OrderToRoute,
  type RouteRow,
  type RouteStatus,
  type StopKind,
  type StopRow,
  type StopStatus,
} from './repo/routes.ts';

export const routes = defineModule({
  name: 'routes',
  tags: {
    Routes:
      'Route builds with the route optimiser (time windows, capacities, skills, shifts, breaks, P2P pairs), routes and their stops, and taking orders off a route.',
  },
  // The options read before the build of an id: both paths begin /v3/client/build-route/.
  operations: [
    buildRouteOptions,
    buildRoute,
    getBuildRoute,
    cancelBuildRoute,
    routesToday,
    routeList,
    routeDetail,
    myRouteToday,
    removeRouteOrders,
  ],
  taskQueue: ROUTES_QUEUE,
  activities: createRoutesActivities,
  workflows: [BUILD_ROUTE_WORKFLOW],
  messages: ROUTES_MESSAGES,
  errorCodes: ROUTES_ERRORS,
});
