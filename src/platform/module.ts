/**
 * What a module declares so that the platform can assemble the service from a list of modules
 * (`src/modules/index.ts`): the catalog, the worker, the messages, the search attributes, the schedules and the
 * credentials, the hooks and the webhook events are all built from these descriptors; the activities are assembled
 * in activities/index.ts. Workflows are listed in workflows/index.ts (the bundle entry, which must hold
 * deterministic code only). The platform knows this shape and nothing of any feature.
 */
import type { EntitySchema } from '@mikro-orm/core';
import type { Client } from '@temporalio/client';
import type { defineSearchAttributeKey } from '@temporalio/common';
import type { Operation, Caller } from './catalog/types.ts';
import type { Config } from './config.ts';
import type { EventDefinition } from './events.ts';
import type { HookSet } from './hooks.ts';
import type { Em, Orm } from './db/orm.ts';
import type { Messages } from './i18n/messages.ts';
import type { ErrorCodes } from './errorCodes.ts';
import type { Logger } from './logger.ts';
import type { SealedColumn } from './secretBox.ts';
import type { ScheduleDefinition } from './temporal/schedules.ts';

/** What the worker hands to a module's activity factory and services. */
export interface WorkerDeps {
  orm: Orm;
  config: Config;
  log: Logger;
  temporal: Client;
  /** The connection string, for services that hold a connection of their own (LISTEN). */
  databaseUrl: string;
}

/** A long-running part of the worker process besides the Temporal worker (the outbox relay). */
export interface WorkerService {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A kind of bearer credential a module issues, told apart by its prefix so a token is looked up in one table. */
export interface CredentialKind {
  prefix: string;
  resolve(em: Em, token: string): Promise<Caller | null>;
  /**
   * Whether the read cache may keep who a token belongs to: only where the lookup has no side effect and reads
   * tables whose changes the cache hears of (auth_token, app_user, business).
   */
  cached?: boolean;
}

/** A key made by `defineSearchAttributeKey`; the worker registers every module's keys at start-up. */
export type SearchAttributeKey = ReturnType<typeof defineSearchAttributeKey>;

// A module's activities are plain async functions; the worker registers them by their names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Activities = Record<string, (...args: any[]) => Promise<unknown>>;

export interface ModuleDescriptor {
  /** The folder name under src/modules. */
  name: string;
  operations?: readonly Operation[];
  /**
   * The tags (families of the API reference) the module owns, each with what a person integrating finds under it:
   * the OpenAPI document declares them. A module whose operations use another module's tag does not repeat it.
   */
  tags?: Readonly<Record<string, string>>;
  /** MikroORM entities of the module's tables that it reads or writes through the ORM. */
  entities?: readonly EntitySchema[];
  activities?: (deps: WorkerDeps) => Activities;
  /**
   * The task queue its contract names for its workflows and activities: its schedules start there, and its services
   * run in the worker processes that serve it (WORKER_QUEUES).
   */
  taskQueue?: string;
  /** Workflow type names the module's workflows.ts exports; a test checks the bundle entry exports them all. */
  workflows?: readonly string[];
  messages?: Messages;
  /** The error codes the module's operations answer (its errorCodes.ts), merged into one registry with the platform's. */
  errorCodes?: ErrorCodes;
  /** The webhook events the module publishes (its events.ts); the webhooks module is built with every module's. */
  events?: readonly EventDefinition[];
  searchAttributes?: readonly SearchAttributeKey[];
  schedules?: (config: Config) => readonly ScheduleDefinition[];
  services?: (deps: WorkerDeps) => readonly WorkerService[];
  /**
   * Documents served as they are under /api (the AsyncAPI description of the webhooks), built once per base URL, with
   * the deployment's API contact (API_CONTACT_EMAIL).
   */
  documents?: readonly { path: string; build(publicBaseUrl: string, contactEmail: string): unknown }[];
  /** The default credential (no prefix) is a session token; other kinds name their prefix. */
  credentials?: readonly CredentialKind[];
  /** Columns of the module's tables that hold secrets it must read back: stored sealed (secretBox.ts), re-sealed by a key rotation. */
  sealedColumns?: readonly SealedColumn[];
  /** What the module does at other modules' hook points (platform/hooks.ts), by point. */
  hooks?: HookSet;
  /** Runs in every API and worker process after migrations, before either serves: short, idempotent, safe to run twice at once. */
  startup?: (deps: { orm: Orm; log: Logger }) => Promise<void>;
}

/** Keeps a descriptor's literal types while checking it against the shape. */
export function defineModule<const M extends ModuleDescriptor>(module: M): M {
  return module;
}
