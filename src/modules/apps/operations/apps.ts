/** The platform admin's configuration of standalone apps, and the apps' public bootstrap (specification A2, docs/apps.md). */
import { z } from 'zod';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { offsetOf, pageExample, pageOf, pageOutput, pageParams, pathCode } from '../../../platform/catalog/schemas.ts';
import { auditedChange } from '../../../platform/db/audit.ts';
import { errors } from '../../../platform/errors.ts';
import { bootstrapOf, withVerdict, type CachedBootstrap } from '../bootstrap.ts';
import { DEMO_APPS } from '../demoApps.ts';
import { PLATFORMS } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import * as repo from '../repo/apps.ts';
import { appCode, appConfigInput, appView, bindingView, bootstrapOutput, clientCode, semver } from '../views.ts';

const TAG = 'Platform apps';
const PLATFORM_ADMIN = ['platform_admin'] as const;
const ADMIN_ONLY = 'Only the platform admin may call it (FORBIDDEN to every other role).';

/** The read cache's key of a bootstrap; every app or binding change empties the cache (NOTIFY read_cache). */
const cacheKey = (app: string, client: string) => `app-bootstrap:${app}:${client}`;

/** A platform-admin change: one transaction with its platform audit row (src/platform/db/audit.ts). */
const change = auditedChange;

const [demoCustomer] = DEMO_APPS;
const { code: _demoCode, ...demoCustomerConfig } = demoCustomer!;

export const appConfigure = defineOperation({
  name: 'app_configure',
  summary: 'Create a standalone app or replace its whole configuration.',
  description: `Writes everything an app's bootstrap shows besides its client: name, type (customer or driver), schema version, capabilities (dotted lowercase names to booleans), the ordered home quick actions (send, return, store, lockers, luggage, handover, pay, wallet), authentication methods with the identity provider's server client id and the registration settings, services, branding, service contracts and the version policy per platform (docs/apps.md). A new app is available and bound to no client; an existing one keeps its switch and bindings. Every call raises configuration_version, is kept in the platform audit trail with the configuration before and after, and is seen by the next bootstrap. Refuses VALIDATION_FAILED for an unknown quick action, a capability name that is not dotted lowercase, a version that is not semantic or a recommended version below the minimum, identity provider sign-in without a server client id, or a registration method that disagrees with its settings. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/apps/{app_code}' },
  input: appConfigInput.safeExtend({ app_code: appCode() }),
  output: appView,
  examples: {
    input: { app_code: 'demo-customer', ...demoCustomerConfig },
    output: { code: 'demo-customer', ...demoCustomerConfig, available: true, configuration_version: 3, clients: [] },
  },
  async handler({ app_code, ...config }, ctx) {
    return change(ctx, 'app_configure', `app:${app_code}`, async (em) => {
      const before = await repo.appByCode(em, app_code, true);
      await repo.saveApp(em, app_code, config);
      const after = repo.presentApp((await repo.appByCode(em, app_code))!);
      return { before: before && repo.presentApp(before), after, answer: after };
    });
  },
});

export const appList = defineOperation({
  name: 'app_list',
  summary: 'List the standalone apps with their configuration, switches and clients.',
  description: `Answers every app by code, with its whole configuration, its availability, its configuration_version and the client businesses it is bound to (each with its own availability). Use it to review what the bootstraps answer. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'GET', path: '/v1/platform/apps' },
  input: z.object(pageParams).strict(),
  output: pageOutput('apps', appView),
  examples: pageExample('apps', [
    {
      code: 'demo-customer',
      ...demoCustomerConfig,
      available: true,
      configuration_version: 4,
      clients: [{ code: 'DEMO', display_name: 'Demo', available: true }],
    },
  ]),
  async handler(input, ctx) {
    const [total, rows] = await Promise.all([
      repo.countApps(ctx.em),
      repo.listApps(ctx.em, offsetOf(input), input.per_page),
    ]);
    return pageOf(input, 'apps', total, rows.map(repo.presentApp));
  },
});

export const appAvailabilitySet = defineOperation({
  name: 'app_availability_set',
  summary: 'Switch a standalone app on or off for every client.',
  description: `While an app is off its bootstrap answers APP_UNAVAILABLE (403) for every client; its configuration and bindings are kept. Raises configuration_version and is kept in the platform audit trail. NOT_FOUND for an unknown app. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/apps/{app_code}/availability' },
  failures: { NOT_FOUND: 'No app has this code' },
  input: z.object({ app_code: pathCode(64), available: z.boolean() }).strict(),
  output: z.object({
    result: z.literal(true),
    app_code: z.string(),
    available: z.boolean(),
    configuration_version: z.number().int(),
  }),
  async handler({ app_code, available }, ctx) {
    return change(ctx, 'app_availability_set', `app:${app_code}`, async (em) => {
      const app = await repo.appByCode(em, app_code, true);
      if (!app) throw errors.notFound();
      await repo.setAppAvailable(em, app.id, available);
      const v = app.configuration_version + 1;
      return {
        before: { available: app.available, configuration_version: app.configuration_version },
        after: { available, configuration_version: v },
        answer: { result: true as const, app_code, available, configuration_version: v },
      };
    });
  },
});

const bindingInput = { app_code: pathCode(64), client_code: pathCode(191) };

export const appClientBind = defineOperation({
  name: 'app_client_bind',
  summary: 'Bind a standalone app to a client business, or switch an existing binding on or off.',
  description: `Binds the app to the business whose code is client_code (the clientCode of the bootstrap path), available unless \`available\` is false; called again, it switches the binding. While a binding is off, that client's bootstrap answers APP_UNAVAILABLE (403); other clients of the app are untouched. Raises the app's configuration_version and is kept in the platform audit trail. NOT_FOUND for an unknown app or business code. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/apps/{app_code}/clients/{client_code}' },
  failures: { NOT_FOUND: 'No app or no business has this code' },
  input: z.object({ ...bindingInput, available: z.boolean().default(true) }).strict(),
  output: bindingView,
  examples: {
    input: { app_code: 'demo-customer', client_code: 'DEMO', available: true },
    output: { result: true, app_code: 'demo-customer', client_code: 'DEMO', available: true, configuration_version: 4 },
  },
  async handler({ app_code, client_code, available }, ctx) {
    return change(ctx, 'app_client_bind', `app:${app_code}/client:${client_code}`, async (em) => {
      const app = await repo.appByCode(em, app_code, true);
      const businessId = await repo.businessIdByCode(em, client_code);
      if (!app || businessId === null) throw errors.notFound();
      const was = app.clients.find((c) => c.code === client_code);
      await repo.bindClient(em, app.id, businessId, available);
      const v = await repo.bumpVersion(em, app.id);
      return {
        before: was ? { available: was.available, configuration_version: app.configuration_version } : null,
        after: { available, configuration_version: v },
        answer: { result: true as const, app_code, client_code, available, configuration_version: v },
      };
    });
  },
});

export const appClientUnbind = defineOperation({
  name: 'app_client_unbind',
  summary: 'Remove a standalone app from a client business.',
  description: `After it, that client's bootstrap answers NOT_FOUND, as for an app it never had; to keep the binding but refuse it for a while, switch it off with app_client_bind instead. Raises the app's configuration_version and is kept in the platform audit trail. NOT_FOUND for an unknown app or business code, or an app not bound to that business. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'DELETE', path: '/v1/platform/apps/{app_code}/clients/{client_code}' },
  failures: { NOT_FOUND: 'No app or business has this code, or they are not bound' },
  input: z.object(bindingInput).strict(),
  output: z.object({ result: z.literal(true), configuration_version: z.number().int() }),
  async handler({ app_code, client_code }, ctx) {
    return change(ctx, 'app_client_unbind', `app:${app_code}/client:${client_code}`, async (em) => {
      const app = await repo.appByCode(em, app_code, true);
      const businessId = await repo.businessIdByCode(em, client_code);
      const was = app?.clients.find((c) => c.code === client_code);
      if (!app || businessId === null || !was || !(await repo.unbindClient(em, app.id, businessId)))
        throw errors.notFound();
      const v = await repo.bumpVersion(em, app.id);
      return {
        before: { available: was.available, configuration_version: app.configuration_version },
        after: null,
        answer: { result: true as const, configuration_version: v },
      };
    });
  },
});

const demoBootstrap = bootstrapOf({
  app_id: 1,
  business_id: 1,
  code: 'demo-customer',
  name: demoCustomer!.name,
  type: demoCustomer!.type,
  schema_version: demoCustomer!.schema_version,
  config: demoCustomerConfig,
  app_available: true,
  configuration_version: 3,
  client_code: 'DEMO',
  client_name: 'Demo',
  client_available: true,
});

export const appBootstrap = defineOperation({
  name: 'app_bootstrap',
  summary: "A standalone app's public configuration for one client: branding, capabilities, contracts, version policy.",
  description:
    "What a standalone app reads at start-up, before anyone signs in: the app, the client, configuration_version (raised by every change, so an app can tell its copy is stale), capabilities, sign-in methods with the identity provider's audience and the registration settings, services, the home quick actions whose capability is on (in order), branding, service contracts and the version policy per platform (docs/apps.md). With both `platform` and `app_version`, `update` says whether that version runs as it is (none), should update (suggest_update) or must (block). The client code selects configuration only; it is no credential. Needs no token. NOT_FOUND when the app or the client does not exist or they are not bound; APP_UNAVAILABLE (403) while the app or its binding to the client is switched off; VALIDATION_FAILED for a platform other than ios or android or an app_version that is not a semantic version.",
  tag: TAG,
  roles: 'public',
  limit: 'public_read',
  rest: { method: 'GET', path: '/v1/apps/{app_code}/clients/{client_code}/bootstrap' },
  failures: {
    NOT_FOUND: 'No such app or client, or the app is not bound to the client',
    APP_UNAVAILABLE: 'The app, or its binding to this client, is switched off',
  },
  input: z
    .object({
      app_code: pathCode(64).meta({ examples: ['demo-customer'] }),
      client_code: clientCode(),
      platform: z.enum(PLATFORMS).optional(),
      app_version: semver().optional(),
    })
    .strict(),
  output: bootstrapOutput,
  examples: {
    input: { app_code: 'demo-customer', client_code: 'DEMO', platform: 'ios', app_version: '1.3.2' },
    output: {
      result: true,
      data: withVerdict(demoBootstrap.state === 'ok' ? demoBootstrap.data : ({} as never), 'ios', '1.3.2'),
    },
  },
  async handler({ app_code, client_code, platform, app_version }, ctx) {
    const load = async (): Promise<CachedBootstrap> =>
      bootstrapOf(await repo.bootstrapRow(ctx.em, app_code, client_code), ctx.config.sms !== null);
    const cached = (await ctx.reads.get(cacheKey(app_code, client_code), load))!;
    if (cached.state === 'missing') throw errors.notFound();
    if (cached.state === 'unavailable') throw fail('APP_UNAVAILABLE', 'apps.unavailable');
    return { result: true as const, data: withVerdict(cached.data, platform, app_version) };
  },
});

export const APP_OPERATIONS = [appBootstrap, appConfigure, appList, appAvailabilitySet, appClientBind, appClientUnbind];
