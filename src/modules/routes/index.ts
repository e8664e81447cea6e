/**
 * Routes (docs/routes.md): route builds with a real solver (process build-route-<id>), a driver's route of a day
 * and its stops, and the route reads. The route and stop writers below are what dispatch uses to put an order on a
 * driver's route and to finish its stops.
 */
import { defineModule } from '../../platform/module.ts';

export {
  driverRouteOf,
  finishStop,
  lockRoute,
  orderStops,
  putOrderOnRoute,
  routeStops,
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
});
