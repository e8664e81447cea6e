/**
 * Standalone apps (specification A2, docs/apps.md): the platform admin configures each app and binds it to client
 * businesses; an app reads its public bootstrap per client, kept by the read cache until a change empties it. Every
 * platform-admin change writes the platform audit trail (src/platform/db/audit.ts) in its own transaction.
 */
import { defineModule } from '../../platform/module.ts';
import { APPS_ERRORS } from './errorCodes.ts';
import { APPS_MESSAGES } from './messages.ts';
import { APP_OPERATIONS } from './operations/apps.ts';
import { SIGN_IN_OPERATIONS } from './operations/signIn.ts';
import { createRegistrationActivities } from './activities.ts';
import { REGISTRATION_QUEUE, REGISTRATION_WORKFLOW } from './contract.ts';
import { REGISTRATION_OPERATIONS } from './operations/registrations.ts';
import { REGISTRATION_ERRORS } from './registrationErrors.ts';
import { REGISTRATION_MESSAGES } from './registrationMessages.ts';

export const apps = defineModule({
  name: 'apps',
  tags: {
    'Platform apps':
      "Standalone customer and driver apps: their public bootstrap per client business (branding, capabilities, sign-in methods, service contracts, version policy), and the platform admin's configuration of each app and of its client bindings.",
  },
  operations: [...APP_OPERATIONS, ...SIGN_IN_OPERATIONS, ...REGISTRATION_OPERATIONS],
  messages: { ...APPS_MESSAGES, ...REGISTRATION_MESSAGES },
  errorCodes: { ...APPS_ERRORS, ...REGISTRATION_ERRORS },
  // Registration (docs/apps.md, Registration): the workflow app-registration-<id> and its activities.
  taskQueue: REGISTRATION_QUEUE,
  workflows: [REGISTRATION_WORKFLOW],
  activities: createRegistrationActivities,
});

export { DEMO_APPS, seedDemoApps } from './demoApps.ts';
export type { AppConfig } from './views.ts';
