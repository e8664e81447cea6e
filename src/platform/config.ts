import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_API_CONTACT_EMAIL } from './apiInfo.ts';
import { hostnameOf, isHostEntry, LOOPBACK_HOSTS } from './hostnames.ts';

const flag = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const port = z.coerce.number().int().min(1).max(65535);
/** A rate limit written `requests/seconds`, such as `600/60`; `off` turns it off. */
const quota = z
  .string()
  .trim()
  .regex(/^(off|[1-9]\d{0,8}\/[1-9]\d{0,5})$/, 'must be requests/seconds, such as 600/60, or off')
  .transform((v): Quota | null =>
    v === 'off' ? null : { limit: Number(v.split('/')[0]), windowSeconds: Number(v.split('/')[1]) },
  );

const EnvSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    )
    .refine((hosts) => hosts.every(isHostEntry), 'must be host names separated by commas, such as tms.example.com,api'),
  METRICS_PORT: z
    .string()
    .trim()
    .regex(/^(off|\d{1,5})$/, 'must be a port number, 0 for any free port, or off')
    .refine((v) => v === 'off' || Number(v) <= 65535, 'must be at most 65535')
    .default('9464')
    .transform((v) => (v === 'off' ? null : Number(v))),
  DATA_DIR: z.string().min(1).default('.data'),
  PG_PORT: port.default(5433),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  MAIL_SMTP_PORT: port.default(1025),
  MAIL_WEB_PORT: port.default(8025),
  DATABASE_URL: z.string().url().optional(),
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  WORKER_QUEUES: z
    .string()
    .optional()
    .transform((v) => {
      const queues = (v ?? '')
        .split(',')
        .map((q) => q.trim())
        .filter(Boolean);
      return queues.length ? queues : null;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_MODE: flag.default(false),
  STRICT_ERROR_CODES: flag.default(false),
  ASSIGNMENT_MODULE_AVAILABLE: flag.default(true),
  AI_AGENT_DAILY_TURN_CAP: z.coerce.number().int().min(1).max(100_000).default(200),
  AI_AGENT_MODEL_URL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  AI_AGENT_MODEL_KEY: z.string().trim().min(1).max(4096).optional(),
  AI_AGENT_MODEL: z.string().trim().min(1).max(200).optional(),
  AI_AGENT_MODEL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  AI_AGENT_MODEL_ALLOW_PRIVATE: flag.default(false),
  ROUTER_URL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  ROUTER_ALLOW_PRIVATE: flag.default(false),
  ROUTER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
  LABEL_CARRIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  LABEL_RATE_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  SANDBOX_TRACKING_DAY_SECONDS: z.coerce.number().positive().max(86_400).default(120),
  STORAGE_FEE_RUN_INTERVAL: z.coerce.number().int().min(60).max(86_400).default(3_600),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24),
  PUBLIC_BASE_URL: z.string().url().optional(),
  POD_FILE_URL_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  POD_S3_ENDPOINT: z
    .string()
    .url({ protocol: /^https?$/ })
    .optional(),
  POD_S3_BUCKET: z.string().min(3).max(63).optional(),
  POD_S3_REGION: z.string().min(1).default('us-east-1'),
  POD_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  POD_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  WORKFLOW_BUNDLE_PATH: z.string().optional(),
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  RELAY_SWEEP_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  WEBHOOK_LEASE_MARGIN_SEC: z.coerce.number().int().min(1).max(600).default(30),
  LOCKER_TIMER_SCALE: z.coerce.number().positive().max(1).default(1),
  HANDOVER_TIMER_SCALE: z.coerce.number().positive().max(1).default(1),
  APPROVAL_TIMER_SCALE: z.coerce.number().positive().max(1).default(1),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\//.test(v), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('TMS <no-reply@tms.localhost>'),
  API_CONTACT_EMAIL: z.email().default(DEFAULT_API_CONTACT_EMAIL),
  IDP_ISSUER: z.url().max(2048).optional(),
  IDP_JWKS_URL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .refine(
      (v) => v.startsWith('https:') || (LOOPBACK_HOSTS as readonly string[]).includes(hostnameOf(v) ?? ''),
      'must be an https URL (http only on the loopback, for development)',
    )
    .optional(),
  IDP_WEB_CLIENT_ID: z.string().trim().min(1).max(255).optional(),
  IDP_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  SMS_PROVIDER: z.enum(['sandbox', 'twilio']).optional(),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC and 32 hexadecimal digits)')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(16).max(256).optional(),
  TWILIO_FROM_NUMBER: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +15005550006')
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/, 'must be a Twilio messaging service SID (MG and 32 hexadecimal digits)')
    .optional(),
  TWILIO_API_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .refine(
      (v) => v.startsWith('https:') || (LOOPBACK_HOSTS as readonly string[]).includes(hostnameOf(v) ?? ''),
      'must be an https URL (http only on the loopback, for tests)',
    )
    .default('https://api.twilio.com'),
  REGISTRATION_TIMER_SCALE: z.coerce.number().positive().max(1).default(1),
  SMS_CAMPAIGN_MAX_PER_MINUTE: z.coerce.number().int().min(1).max(6000).default(600),
  SMS_CAMPAIGN_TIMER_SCALE: z.coerce.number().positive().max(1).default(1),
  CANCEL_PROVIDER_TIMER_SCALE: z.coerce.number().positive().max(1).default(1),
  INTERCEPTION_TIMER_SCALE: z.coerce.number().positive().max(1).default(1),
  NOTIFY_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag.default(false),
  SECRETS_KEY: z
    .string()
    .refine(
      (v) => v.split(',').every((k) => Buffer.from(k.trim(), 'base64').length >= 32),
      'must be one or more keys of at least 32 random bytes in base64, separated by commas',
    )
    .optional(),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  RATE_LIMIT_PUBLIC_READ: quota.prefault('600/60'),
  RATE_LIMIT_SIGN_IN: quota.prefault('30/60'),
  RATE_LIMIT_INGEST: quota.prefault('1200/60'),
  RATE_LIMIT_WEBHOOK_TEST: quota.prefault('10/60'),
  RATE_LIMIT_QUOTE: quota.prefault('120/60'),
  RATE_LIMIT_DRIVER_REGISTER: quota.prefault('10/3600'),
  SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(10),
  SIGN_IN_LOCK_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(900),
  GRAPHQL_MAX_QUERY_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(32 * 1024),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(15_000),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(15),
  GRAPHQL_MAX_MUTATIONS: z.coerce.number().int().min(1).default(5),
  GRAPHQL_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(8 * 1024 * 1024),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  port: number;
  /**
   * The address the API and the metrics listener bind to: loopback unless HOST opens them (the Docker image and
   * docker-compose.yml set 0.0.0.0); docs/decisions.md, Network exposure.
   */
  host: string;
  /**
   * The host names a request's Host (and Origin, when sent) may name: loopback, PUBLIC_BASE_URL's host and
   * ALLOWED_HOSTS. Any other is refused on every path, so that a page of another site whose name resolves to this
   * machine (DNS rebinding) reaches nothing.
   */
  allowedHosts: string[];
  /** Where `GET /metrics` listens, apart from the API (0: any free port; null: off); docs/observability.md. */
  metricsPort: number | null;
  dataDir: string;
  pgPort: number;
  temporalPort: number;
  temporalUiPort: number;
  /** `npm start`'s mail catcher, when SMTP_URL is not set: its SMTP port and its web page's. */
  mailSmtpPort: number;
  mailWebPort: number;
  /** Set when an external PostgreSQL is used; otherwise embedded PostgreSQL is started. */
  databaseUrl?: string;
  /** Set when an external Temporal is used; otherwise the local dev server is started. */
  temporalAddress?: string;
  temporalNamespace: string;
  /** The task queues this worker process serves; null serves every queue the modules name. */
  workerQueues: string[] | null;
  logLevel: string;
  demoMode: boolean;
  /**
   * An operation that answers an error code it does not declare answers 500 instead (the test suite sets it, so a
   * broken contract fails a test); otherwise the answer goes out and the breach is logged.
   */
  strictErrorCodes: boolean;
  /** System-wide switch: false answers 503 on every contractor assignment operation. */
  assignmentModuleAvailable: boolean;
  /** The Operations AI Agent's daily turns per business where the platform admin has set no cap of its own. */
  aiAgentDailyTurnCap: number;
  /**
   * The Operations AI Agent's model (docs/opt-in-families.md): an OpenAI-compatible chat-completions API at `url`
   * (the turn POSTs `{url}/chat/completions`), its Bearer key (never logged or echoed), the model's name, how long a
   * model call may take, and whether the URL may be a loopback or private address (development and tests). Null
   * while AI_AGENT_MODEL_URL is unset: the family answers 503 AI_AGENT_NOT_CONFIGURED.
   */
  aiAgentModel: { url: string; key: string | null; model: string; timeoutMs: number; allowPrivate: boolean } | null;
  /**
   * The road router the local delivery prices measure distances with (docs/orders.md, Local prices): an OSRM server
   * (`{url}/route/v1/driving/...`), how long a route may take, and whether the URL may be a loopback or private
   * address. Null while ROUTER_URL is unset: distances are great-circle.
   */
  router: { url: string; timeoutMs: number; allowPrivate: boolean } | null;
  /**
   * Carrier labels (docs/labels.md): how long one carrier call may take before it is a TIMEOUT, how long a rate_id
   * lives, and how long a day of a sandbox parcel's compressed journey lasts.
   */
  labels: { carrierTimeoutMs: number; rateTtlMinutes: number; sandboxDaySeconds: number };
  /** Seconds between two runs of the storage fee run (schedule storage-fee-run). */
  storageFeeRunSeconds: number;
  tokenTtlHours: number;
  publicBaseUrl: string;
  /**
   * Proof of delivery files (docs/routes.md): how long a signed download URL lasts, and the S3-compatible store
   * they are kept in (path-style requests, Signature V4), null to keep them under DATA_DIR.
   */
  podFiles: {
    urlTtlHours: number;
    s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | null;
  };
  /** A prebuilt workflow bundle (tests build it once per run). */
  workflowBundlePath?: string;
  /** Multiplies webhook retry waits: 1 in production; tests shrink the 10 s .. 10000 s schedule. */
  webhookRetryScale: number;
  /** How often the outbox relay sweeps for events a missed notification left, and for orphaned deliveries. */
  relaySweepMs: number;
  /**
   * Seconds a relay or worker keeps, beyond its slowest attempts, before another takes its work over: the room of
   * a claim, a careful batch's lease or a retry attempt's lease for its write and commit, and the age at which a
   * delivery nobody drives is adopted.
   */
  webhookLeaseMarginSec: number;
  /** Multiplies the locker delivery timers (docs/locker-deliveries.md); the tests run them in fractions of a second. */
  lockerTimerScale: number;
  /** Multiplies a third-party assignment's handover deadline (docs/third-party-deliveries.md), for tests and scenarios. */
  handoverTimerScale: number;
  /** Multiplies how long an MCP proposal waits before it expires (docs/mcp.md, Approvals), for tests. */
  approvalTimerScale: number;
  /** Where recipient notifications are sent (docs/notifications.md); null records them as skipped. */
  smtpUrl: string | null;
  /** The sender of recipient notifications. */
  mailFrom: string;
  /** Where integrators write about this deployment's API: the contact of the OpenAPI and AsyncAPI documents. */
  apiContactEmail: string;
  /**
   * The identity provider whose ID tokens the standalone apps' `auth/idp` sign-in and identity linking accept
   * (docs/apps.md, Sign-in): its issuer, its JWKS, the web's client id (an audience besides the apps' own) and the
   * leeway allowed between its clock and this server's (30 s unless IDP_CLOCK_TOLERANCE_SECONDS says); null,
   * and the method is refused, until IDP_ISSUER and IDP_JWKS_URL are both set.
   */
  idp: { issuer: string; jwksUrl: string; webClientId: string | null; clockToleranceSeconds: number } | null;
  /**
   * The SMS provider (docs/sms.md): `sandbox` records each message and sends none (npm start, the tests); `twilio`
   * sends through Twilio's Messages API. Null when SMS_PROVIDER is unset: nothing can be sent, and app registration
   * that needs phone verification is refused.
   */
  sms: SmsConfig | null;
  /** Multiplies how long an app registration waits for its code (docs/apps.md, Registration), for tests. */
  registrationTimerScale: number;
  /** The most messages a minute an SMS campaign sends, whatever it asks (docs/opt-in-families.md, SMS Marketing). */
  smsCampaignMaxPerMinute: number;
  /** Multiplies an SMS campaign's waits for its send time and for the end of quiet hours, for tests. */
  smsCampaignTimerScale: number;
  /** Multiplies the time a delivery provider has to answer an order's cancellation (30 minutes), for tests. */
  cancelProviderTimerScale: number;
  /** Multiplies how long an interception waits for its parcel to be held at a warehouse (docs/orders.md), for tests. */
  interceptionTimerScale: number;
  /** Multiplies the waits between notification attempts; the tests run them in fractions of a second. */
  notifyRetryScale: number;
  /** Days the webhook delivery log keeps deliveries and attempts (90 by default). */
  webhookLogRetentionDays: number;
  /**
   * Whether webhooks may go to loopback, private and link-local addresses. Off by default, so that a tenant's URL
   * cannot reach this service's own network; `npm start` and the tests turn it on for their local receivers.
   */
  webhookAllowPrivateTargets: boolean;
  /**
   * The keys that keep stored secrets and codes unreadable from a database dump; they never go into the database.
   * The first seals, every one opens (a rotation adds a key in front). `npm start` keeps one under DATA_DIR;
   * `npm run api` and `npm run worker` need SECRETS_KEY. Empty when none is set.
   */
  secretsKeys: Buffer[];
  /** What one GraphQL request may ask for; docs/graphql-limits.md says how each is counted and why. */
  graphqlLimits: GraphQLLimits;
  /**
   * How many proxies in front of the API append to X-Forwarded-For: the client address is the one the farthest of
   * them saw. 0 (the default) takes the connection's address and ignores the header, which anyone can write.
   */
  trustedProxyHops: number;
  /** Requests per window for each rate limit (null: off); docs/abuse-limits.md. */
  rateLimits: Record<RateLimitName, Quota | null>;
  /** Wrong passwords for one email within the lock's length before sign-in refuses that email for that long. */
  signIn: { maxFailures: number; lockSeconds: number };
}

export type SmsConfig =
  | { provider: 'sandbox' }
  | {
      provider: 'twilio';
      accountSid: string;
      authToken: string;
      /** The sender: a number of the account, or (when set, preferred) a messaging service. */
      fromNumber: string | null;
      messagingServiceSid: string | null;
      /** https://api.twilio.com unless TWILIO_API_BASE_URL says (a local stand-in in tests). */
      apiBaseUrl: string;
    };

/** A rate limit: at most `limit` requests in `windowSeconds`. */
export interface Quota {
  limit: number;
  windowSeconds: number;
}

export type RateLimitName = 'public_read' | 'sign_in' | 'ingest' | 'webhook_test' | 'quote' | 'driver_register';

export interface GraphQLLimits {
  /** Bytes of the query document (the JSON body as a whole stays under the body parser's 1 MiB). */
  maxQueryBytes: number;
  /** Estimated cost: every field 1, a paged field 1 + page size times what is selected under it. */
  maxCost: number;
  maxAliases: number;
  /** Nesting of fields, the root field being 1. */
  maxDepth: number;
  /** Root fields of a mutation: each runs an operation of its own (a sign-in hashes a password). */
  maxMutations: number;
  /** Bytes of the serialised answer. */
  maxResponseBytes: number;
}

/** Reads and validates the environment once; a bad value stops the boot with the variable's name. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (
    e.SMS_PROVIDER === 'twilio' &&
    (!e.TWILIO_ACCOUNT_SID || !e.TWILIO_AUTH_TOKEN || (!e.TWILIO_FROM_NUMBER && !e.TWILIO_MESSAGING_SERVICE_SID))
  )
    throw new Error(
      'Invalid configuration:\n  SMS_PROVIDER: twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID',
    );
  if (e.POD_S3_ENDPOINT && (!e.POD_S3_BUCKET || !e.POD_S3_ACCESS_KEY_ID || !e.POD_S3_SECRET_ACCESS_KEY))
    throw new Error(
      'Invalid configuration:\n  POD_S3_ENDPOINT: needs POD_S3_BUCKET, POD_S3_ACCESS_KEY_ID and POD_S3_SECRET_ACCESS_KEY',
    );
  if (e.AI_AGENT_MODEL_URL && !e.AI_AGENT_MODEL)
    throw new Error('Invalid configuration:\n  AI_AGENT_MODEL: AI_AGENT_MODEL_URL needs the model name as well');
  const publicBaseUrl = e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`;
  return {
    port: e.PORT,
    host: e.HOST,
    allowedHosts: [
      ...new Set([...LOOPBACK_HOSTS, ...[publicBaseUrl, ...e.ALLOWED_HOSTS].flatMap((h) => hostnameOf(h) ?? [])]),
    ],
    metricsPort: e.METRICS_PORT,
    dataDir: path.resolve(e.DATA_DIR),
    pgPort: e.PG_PORT,
    temporalPort: e.TEMPORAL_PORT,
    temporalUiPort: e.TEMPORAL_UI_PORT,
    mailSmtpPort: e.MAIL_SMTP_PORT,
    mailWebPort: e.MAIL_WEB_PORT,
    databaseUrl: e.DATABASE_URL,
    temporalAddress: e.TEMPORAL_ADDRESS,
    temporalNamespace: e.TEMPORAL_NAMESPACE,
    workerQueues: e.WORKER_QUEUES,
    logLevel: e.LOG_LEVEL,
    demoMode: e.DEMO_MODE,
    strictErrorCodes: e.STRICT_ERROR_CODES,
    assignmentModuleAvailable: e.ASSIGNMENT_MODULE_AVAILABLE,
    aiAgentDailyTurnCap: e.AI_AGENT_DAILY_TURN_CAP,
    aiAgentModel: e.AI_AGENT_MODEL_URL
      ? {
          url: e.AI_AGENT_MODEL_URL.replace(/\/+$/, ''),
          key: e.AI_AGENT_MODEL_KEY ?? null,
          model: e.AI_AGENT_MODEL!,
          timeoutMs: e.AI_AGENT_MODEL_TIMEOUT_MS,
          allowPrivate: e.AI_AGENT_MODEL_ALLOW_PRIVATE,
        }
      : null,
    router: e.ROUTER_URL
      ? {
          url: e.ROUTER_URL.replace(/\/+$/, ''),
          timeoutMs: e.ROUTER_TIMEOUT_MS,
          allowPrivate: e.ROUTER_ALLOW_PRIVATE,
        }
      : null,
    labels: {
      carrierTimeoutMs: e.LABEL_CARRIER_TIMEOUT_MS,
      rateTtlMinutes: e.LABEL_RATE_TTL_MINUTES,
      sandboxDaySeconds: e.SANDBOX_TRACKING_DAY_SECONDS,
    },
    storageFeeRunSeconds: e.STORAGE_FEE_RUN_INTERVAL,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    publicBaseUrl,
    podFiles: {
      urlTtlHours: e.POD_FILE_URL_TTL_HOURS,
      s3: e.POD_S3_ENDPOINT
        ? {
            endpoint: e.POD_S3_ENDPOINT.replace(/\/+$/, ''),
            bucket: e.POD_S3_BUCKET!,
            region: e.POD_S3_REGION,
            accessKeyId: e.POD_S3_ACCESS_KEY_ID!,
            secretAccessKey: e.POD_S3_SECRET_ACCESS_KEY!,
          }
        : null,
    },
    workflowBundlePath: e.WORKFLOW_BUNDLE_PATH,
    webhookRetryScale: e.WEBHOOK_RETRY_SCALE,
    relaySweepMs: e.RELAY_SWEEP_MS,
    webhookLeaseMarginSec: e.WEBHOOK_LEASE_MARGIN_SEC,
    lockerTimerScale: e.LOCKER_TIMER_SCALE,
    handoverTimerScale: e.HANDOVER_TIMER_SCALE,
    approvalTimerScale: e.APPROVAL_TIMER_SCALE,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    apiContactEmail: e.API_CONTACT_EMAIL,
    idp:
      e.IDP_ISSUER && e.IDP_JWKS_URL
        ? {
            issuer: e.IDP_ISSUER,
            jwksUrl: e.IDP_JWKS_URL,
            webClientId: e.IDP_WEB_CLIENT_ID ?? null,
            clockToleranceSeconds: e.IDP_CLOCK_TOLERANCE_SECONDS,
          }
        : null,
    sms:
      e.SMS_PROVIDER === 'twilio'
        ? {
            provider: 'twilio',
            accountSid: e.TWILIO_ACCOUNT_SID!,
            authToken: e.TWILIO_AUTH_TOKEN!,
            fromNumber: e.TWILIO_FROM_NUMBER ?? null,
            messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID ?? null,
            apiBaseUrl: e.TWILIO_API_BASE_URL.replace(/\/+$/, ''),
          }
        : e.SMS_PROVIDER === 'sandbox'
          ? { provider: 'sandbox' }
          : null,
    registrationTimerScale: e.REGISTRATION_TIMER_SCALE,
    smsCampaignMaxPerMinute: e.SMS_CAMPAIGN_MAX_PER_MINUTE,
    smsCampaignTimerScale: e.SMS_CAMPAIGN_TIMER_SCALE,
    cancelProviderTimerScale: e.CANCEL_PROVIDER_TIMER_SCALE,
    interceptionTimerScale: e.INTERCEPTION_TIMER_SCALE,
    notifyRetryScale: e.NOTIFY_RETRY_SCALE,
    webhookAllowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    webhookLogRetentionDays: e.WEBHOOK_LOG_RETENTION_DAYS,
    secretsKeys:
      e.SECRETS_KEY === undefined ? [] : e.SECRETS_KEY.split(',').map((k) => Buffer.from(k.trim(), 'base64')),
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    rateLimits: {
      public_read: e.RATE_LIMIT_PUBLIC_READ,
      sign_in: e.RATE_LIMIT_SIGN_IN,
      ingest: e.RATE_LIMIT_INGEST,
      webhook_test: e.RATE_LIMIT_WEBHOOK_TEST,
      quote: e.RATE_LIMIT_QUOTE,
      driver_register: e.RATE_LIMIT_DRIVER_REGISTER,
    },
    signIn: { maxFailures: e.SIGN_IN_MAX_FAILURES, lockSeconds: e.SIGN_IN_LOCK_SECONDS },
    graphqlLimits: {
      maxQueryBytes: e.GRAPHQL_MAX_QUERY_BYTES,
      maxCost: e.GRAPHQL_MAX_COST,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxMutations: e.GRAPHQL_MAX_MUTATIONS,
      maxResponseBytes: e.GRAPHQL_MAX_RESPONSE_BYTES,
    },
  };
}
