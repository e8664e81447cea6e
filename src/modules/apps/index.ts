/**
 * Standalone apps (specification A2, docs/apps.md): the platform admin configures each app and binds it to client
 * businesses; an app reads its public bootstrap per client, kept by the read cache until a change empties it. Every
 * platform-admin change writes the platform audit trail (src/platform/db/audit.ts) in its own transaction.
 */
import { defineModule } from '../../platform/module.ts';
import { APPS_ERRORS } from './errorCodes.ts';
import { APPS_MESSAGES } from './messages.ts';
import { APP_OPERATIONS } from './operations.ts';

export const apps = defineModule({
  name: 'apps',
  tags: {
    'Platform apps':
      "Standalone customer and driver apps: their public bootstrap per client business (branding, capabilities, sign-in methods, service contracts, version policy), and the platform admin's configuration of each app and of its client bindings.",
  },
  operations: APP_OPERATIONS,
  messages: APPS_MESSAGES,
  errorCodes: APPS_ERRORS,
});

export { DEMO_APPS, seedDemoApps } from './demoApps.ts';
export type { AppConfig } from './views.ts';
