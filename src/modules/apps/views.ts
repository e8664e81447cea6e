/** The shapes of the standalone apps (docs/apps.md): the configuration the platform admin writes and the bootstrap. */
import { z } from 'zod';
import { eachOnce } from '../../platform/catalog/schemas.ts';
import { APP_TYPES, CAPABILITY_NAME, compareVersions, PLATFORMS, QUICK_ACTIONS, SEMVER } from './domain.ts';

const refuse = (key: string) => ({ params: { key } });
const httpsUrl = () =>
  z
    .url({ protocol: /^https$/ })
    .max(2048)
    .meta({ examples: ['https://apps.example/logo.png'] });
export const semver = () =>
  z
    .string()
    .max(64)
    .regex(SEMVER)
    .meta({ examples: ['1.4.0'] });
export const appCode = () =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9-]*$/)
    .meta({ examples: ['demo-customer'] });
export const clientCode = () =>
  z
    .string()
    .min(1)
    .max(191)
    .meta({ examples: ['DEMO'] });

const platformPolicy = z
  .object({
    minimum_version: semver(),
    recommended_version: semver(),
    /** What an app below the minimum does: refuse to run until updated, or only suggest it. */
    below_minimum: z.enum(['block', 'suggest_update']).default('block'),
    below_recommended: z.enum(['suggest_update', 'none']).default('suggest_update'),
    store_url: httpsUrl().nullable().default(null),
  })
  .strict()
  .refine((p) => compareVersions(p.minimum_version, p.recommended_version) <= 0, {
    path: ['recommended_version'],
    ...refuse('apps.recommended_below_minimum'),
  });

const registration = z
  .object({
    enabled: z.boolean(),
    phone_verification_required: z.boolean(),
    sms_configured: z.boolean(),
    default_phone_region: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .meta({ examples: ['CZ'] }),
    requires_approval: z.boolean(),
    code_length: z.number().int().min(4).max(8),
    /** Seconds before a new verification code may be asked for. */
    resend_after: z.number().int().min(10).max(600),
  })
  .strict();

/** Everything of an app's configuration besides its code and its switches, as the platform admin writes it. */
export const appConfigInput = z
  .object({
    name: z.string().trim().min(1).max(191),
    type: z.enum(APP_TYPES),
    schema_version: z.number().int().min(1).max(1000),
    capabilities: z
      .record(z.string().max(100).regex(CAPABILITY_NAME), z.boolean())
      .refine((c) => Object.keys(c).length <= 200, refuse('apps.too_many_capabilities'))
      .meta({ examples: [{ 'orders.send': true, 'wallet.view': false }] }),
    quick_actions: eachOnce(z.array(z.enum(QUICK_ACTIONS)).max(QUICK_ACTIONS.length), 'apps.quick_action_twice'),
    authentication: z
      .object({
        methods: z.object({ idp: z.boolean(), email: z.boolean(), registration: z.boolean() }).strict(),
        idp: z.object({ server_client_id: z.string().max(255) }).strict(),
        registration,
      })
      .strict()
      .refine((a) => !a.methods.idp || a.idp.server_client_id.trim() !== '', {
        path: ['idp', 'server_client_id'],
        ...refuse('apps.idp_audience_required'),
      })
      .refine((a) => a.methods.registration === a.registration.enabled, {
        path: ['registration', 'enabled'],
        ...refuse('apps.registration_mismatch'),
      }),
    services: z
      .object({
        identity: z.object({ source_of_truth: z.enum(['platform', 'client']), shared_with_web: z.boolean() }).strict(),
        wallet: z
          .object({
            source_of_truth: z.enum(['platform', 'client', 'none']),
            ledger_mode: z.enum(['none', 'internal', 'external']),
          })
          .strict(),
      })
      .strict(),
    branding: z
      .object({
        display_name: z.string().trim().min(1).max(100),
        primary_color: z
          .string()
          .regex(/^#[0-9A-Fa-f]{6}$/)
          .meta({ examples: ['#0B5FFF'] }),
        secondary_color: z
          .string()
          .regex(/^#[0-9A-Fa-f]{6}$/)
          .nullable()
          .default(null),
        logo_url: httpsUrl().nullable().default(null),
        support_url: httpsUrl().nullable().default(null),
      })
      .strict(),
    service_contracts: z
      .array(
        z
          .object({
            code: z
              .string()
              .regex(/^[a-z][a-z0-9_]*$/)
              .max(64)
              .meta({ examples: ['terms'] }),
            title: z.string().trim().min(1).max(191),
            version: semver(),
            url: httpsUrl(),
            acceptance_required: z.boolean(),
          })
          .strict(),
      )
      .max(20)
      .refine((l) => new Set(l.map((c) => c.code)).size === l.length, refuse('apps.contract_twice')),
    version_policy: z.object({ ios: platformPolicy, android: platformPolicy }).strict(),
  })
  .strict();
export type AppConfig = z.output<typeof appConfigInput>;

const clientView = z.object({ code: z.string(), display_name: z.string(), available: z.boolean() });

/** An app as the platform admin reads it. */
export const appView = appConfigInput.safeExtend({
  code: z.string(),
  available: z.boolean(),
  configuration_version: z.number().int(),
  clients: z.array(clientView),
});
export type AppView = z.input<typeof appView>;

export const bindingView = z.object({
  result: z.literal(true),
  app_code: z.string(),
  client_code: z.string(),
  available: z.boolean(),
  configuration_version: z.number().int(),
});

const policyView = z.object({
  minimum_version: z.string(),
  recommended_version: z.string(),
  below_minimum: z.enum(['block', 'suggest_update']),
  below_recommended: z.enum(['suggest_update', 'none']),
  store_url: z.string().nullable(),
});

/** The bootstrap's data: the specification's members, and the branding, contracts and policy it leaves open. */
export const bootstrapData = z.object({
  app: z.object({ code: z.string(), name: z.string(), type: z.string(), schema_version: z.number().int() }),
  client: z.object({ code: z.string(), display_name: z.string() }),
  configuration_version: z.number().int(),
  capabilities: z.record(z.string(), z.boolean()),
  authentication: z.object({
    methods: z.object({ idp: z.boolean(), email: z.boolean(), registration: z.boolean() }),
    idp: z.object({ server_client_id: z.string() }),
    registration: z.object({
      enabled: z.boolean(),
      phone_verification_required: z.boolean(),
      sms_configured: z.boolean(),
      default_phone_region: z.string(),
      requires_approval: z.boolean(),
      code_length: z.number().int(),
      resend_after: z.number().int(),
    }),
  }),
  services: z.object({
    identity: z.object({ source_of_truth: z.string(), shared_with_web: z.boolean() }),
    wallet: z.object({ source_of_truth: z.string(), ledger_mode: z.string() }),
  }),
  settings: z.object({ home: z.object({ quick_actions: z.array(z.enum(QUICK_ACTIONS)) }) }),
  branding: z.object({
    display_name: z.string(),
    primary_color: z.string(),
    secondary_color: z.string().nullable(),
    logo_url: z.string().nullable(),
    support_url: z.string().nullable(),
  }),
  service_contracts: z.array(
    z.object({
      code: z.string(),
      title: z.string(),
      version: z.string(),
      url: z.string(),
      acceptance_required: z.boolean(),
    }),
  ),
  version_policy: z.object({ ios: policyView, android: policyView }),
  /** The verdict for the platform and app_version asked about; null unless both were sent. */
  update: z
    .object({
      platform: z.enum(PLATFORMS),
      app_version: z.string(),
      action: z.enum(['none', 'suggest_update', 'block']),
    })
    .nullable(),
});
export type BootstrapData = z.input<typeof bootstrapData>;

export const bootstrapOutput = z.object({ result: z.literal(true), data: bootstrapData });
