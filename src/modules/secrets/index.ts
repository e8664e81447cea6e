/**
 * Secrets at rest: the start-up step that seals secrets stored before sealing existed, and the rotation workflow
 * that re-seals every stored secret under a new key (docs/secrets.md). The sealing itself is the platform's
 * (secretBox.ts); each module declares the columns it keeps secrets in.
 */
import { defineModule } from '../../platform/module.ts';
import { createSecretsActivities, sealPlainSecrets } from './activities.ts';
import { SECRETS_ROTATION_WORKFLOW, SECRETS_ROTATION_QUEUE } from './contract.ts';

export const secrets = defineModule({
  name: 'secrets',
  taskQueue: SECRETS_ROTATION_QUEUE,
  activities: ({ orm, log }) => createSecretsActivities({ orm, log }),
  workflows: [SECRETS_ROTATION_WORKFLOW],
  startup: ({ orm, log }) => sealPlainSecrets(orm, log),
});
