import { Migration } from '@mikro-orm/migrations';

/**
 * Secrets are stored sealed (AES-256-GCM under SECRETS_KEY, src/platform/secretBox.ts): a sealed 255-character
 * secret takes about 400 characters, so the columns become text. The key never enters the database, so the rows
 * written before are sealed by the start-up step of every process (the secrets module), not here.
 */
export class Migration20261123000000SealedSecrets extends Migration {
  override up(): void {
    this.addSql(`
      alter table webhook_settings alter column sign_secret type text;
      alter table webhook_endpoint alter column secret type text, alter column previous_secret type text;
    `);
  }
}
