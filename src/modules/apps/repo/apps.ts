/** Data access: SQL only, with typed rows (tables platform_app, platform_app_client; business for client codes). */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { AppConfig, AppView } from '../views.ts';

interface AppRow {
  id: number;
  code: string;
  name: string;
  type: string;
  schema_version: number;
  config: Omit<AppConfig, 'name' | 'type' | 'schema_version'>;
  available: boolean;
  configuration_version: number;
  clients: { code: string; display_name: string; available: boolean }[];
}

const APP_COLUMNS = `a.id, a.code, a.name, a.type, a.schema_version, a.config, a.available, a.configuration_version,
  coalesce((select json_agg(json_build_object('code', b.code, 'display_name', b.name, 'available', c.available) order by b.code)
    from platform_app_client c join business b on b.id = c.business_id where c.app_id = a.id), '[]') as clients`;

export const presentApp = (r: AppRow): AppView => ({
  code: r.code,
  name: r.name,
  type: r.type as AppView['type'],
  schema_version: r.schema_version,
  ...r.config,
  available: r.available,
  configuration_version: r.configuration_version,
  clients: r.clients,
});

/** The app with its bindings, locked for the rest of the transaction when `lock`. */
export async function appByCode(em: Em, code: string, lock = false): Promise<AppRow | null> {
  if (lock) await executeBound(em, 'select id from platform_app where code = $1 for update', [code]);
  const rows = await executeBound<AppRow>(em, `select ${APP_COLUMNS} from platform_app a where a.code = $1`, [code]);
  return rows[0] ?? null;
}

export async function countApps(em: Em): Promise<number> {
  return (await executeBound<{ n: number }>(em, 'select count(*)::int as n from platform_app', []))[0]!.n;
}

export async function listApps(em: Em, offset: number, limit: number): Promise<AppRow[]> {
  return executeBound<AppRow>(em, `select ${APP_COLUMNS} from platform_app a order by a.code limit $1 offset $2`, [
    limit,
    offset,
  ]);
}

/** Creates the app or replaces its configuration, raising its configuration_version. */
export async function saveApp(em: Em, code: string, c: AppConfig): Promise<void> {
  const { name, type, schema_version, ...config } = c;
  await executeBound(
    em,
    `insert into platform_app (code, name, type, schema_version, config) values ($1, $2, $3, $4, $5::jsonb)
     on conflict (code) do update set name = excluded.name, type = excluded.type, schema_version = excluded.schema_version,
       config = excluded.config, configuration_version = platform_app.configuration_version + 1, updated_at = now()`,
    [code, name, type, schema_version, JSON.stringify(config)],
  );
}

/** Sets the app's switch and raises its configuration_version. */
export async function setAppAvailable(em: Em, appId: number, available: boolean): Promise<void> {
  await executeBound(
    em,
    'update platform_app set available = $2, configuration_version = configuration_version + 1, updated_at = now() where id = $1',
    [appId, available],
  );
}

/** Raises the app's configuration_version (a binding changed) and answers the new one. */
export async function bumpVersion(em: Em, appId: number): Promise<number> {
  const rows = await executeBound<{ v: number }>(
    em,
    'update platform_app set configuration_version = configuration_version + 1, updated_at = now() where id = $1 returning configuration_version as v',
    [appId],
  );
  return rows[0]!.v;
}

export async function businessIdByCode(em: Em, code: string): Promise<number | null> {
  const rows = await executeBound<{ id: number }>(em, 'select id from business where code = $1', [code]);
  return rows[0]?.id ?? null;
}

export async function bindClient(em: Em, appId: number, businessId: number, available: boolean): Promise<void> {
  await executeBound(
    em,
    `insert into platform_app_client (app_id, business_id, available) values ($1, $2, $3)
     on conflict (app_id, business_id) do update set available = excluded.available, updated_at = now()`,
    [appId, businessId, available],
  );
}

/** Whether a binding was there to remove. */
export async function unbindClient(em: Em, appId: number, businessId: number): Promise<boolean> {
  const rows = await executeBound(
    em,
    'delete from platform_app_client where app_id = $1 and business_id = $2 returning app_id',
    [appId, businessId],
  );
  return rows.length > 0;
}

export interface BootstrapRow {
  app_id: number;
  business_id: number;
  code: string;
  name: string;
  type: string;
  schema_version: number;
  config: AppRow['config'];
  app_available: boolean;
  configuration_version: number;
  client_code: string;
  client_name: string;
  client_available: boolean;
}

/** The app as bound to the business of `clientCode`; null when either is unknown or they are not bound. */
export async function bootstrapRow(em: Em, appCode: string, clientCode: string): Promise<BootstrapRow | null> {
  const rows = await executeBound<BootstrapRow>(
    em,
    `select a.id as app_id, b.id as business_id, a.code, a.name, a.type, a.schema_version, a.config, a.available as app_available, a.configuration_version,
       b.code as client_code, b.name as client_name, c.available as client_available
     from platform_app a join platform_app_client c on c.app_id = a.id join business b on b.id = c.business_id
     where a.code = $1 and b.code = $2`,
    [appCode, clientCode],
  );
  return rows[0] ?? null;
}
