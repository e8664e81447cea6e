/** SMS Marketing's test world: a business with the family usable, orders whose recipients have phone numbers. */
import { randomInt } from 'node:crypto';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';
import type { TestApp } from '../../helpers/app.ts';

export type Business = Awaited<ReturnType<typeof makeBusiness>>;

/** A Czech mobile number in E.164 no other test run is likely to hold. */
export const czechMobile = (): string => `+42060${randomInt(1, 9)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

/** The platform admin's switches for SMS Marketing, through its operations. */
export function platformSwitches(app: TestApp, platform: string) {
  const put = (biz: Business, path: string, body: unknown) =>
    app.http.put(`/v1/platform/businesses/${encodeURIComponent(biz.business.code)}${path}`, body, {
      token: platform,
    });
  return {
    family: (biz: Business, enabled: boolean) => put(biz, '/families/sms_marketing', { enabled }),
    migrated: (biz: Business, migrated: boolean) => put(biz, '/sms-marketing/migration', { migrated }),
    revoked: (biz: Business, revoked: boolean) => put(biz, '/sms-marketing/revocation', { revoked, reason: 'Tests' }),
  };
}

/** An order of the business to a recipient with this phone number, written as given, in `country`. */
export async function orderTo(app: TestApp, biz: Business, phone: string, country = 'CZ'): Promise<void> {
  const order = await makeOrder(app.em(), biz.business.id);
  await app
    .em()
    .execute(
      `update delivery_order set recipient = jsonb_set(jsonb_set(recipient, '{phone}', to_jsonb(?::text)), '{address,country}', to_jsonb(?::text)) where id = ?`,
      [phone, country, order.id],
    );
}

/** A business with SMS Marketing switched on and migrated, and its staff's tokens. */
export async function usableBusiness(app: TestApp, platform: string) {
  const biz = await makeBusiness(app.em());
  const sw = platformSwitches(app, platform);
  if ((await sw.family(biz, true)).status !== 200) throw new Error('family not switched on');
  if ((await sw.migrated(biz, true)).status !== 200) throw new Error('not marked migrated');
  return {
    biz,
    admin: await app.login(biz.users.admin.email, PASSWORD),
    employee: await app.login(biz.users.employee.email, PASSWORD),
  };
}

/** Quiet hours that do not hold now (UTC, the test businesses' time zone): they start in an hour, for eight. */
export function quietLater(): { start: string; end: string } {
  const h = (new Date().getUTCHours() + 1) % 24;
  const hh = (n: number) => `${String(n % 24).padStart(2, '0')}:00`;
  return { start: hh(h), end: hh(h + 8) };
}

/** Quiet hours that hold now: from the start of the current hour, for eight. */
export function quietNow(): { start: string; end: string } {
  const h = new Date().getUTCHours();
  const hh = (n: number) => `${String(n % 24).padStart(2, '0')}:00`;
  return { start: hh(h), end: hh(h + 8) };
}

/** The sms ledger's rows of a campaign, per number: how many and in which status. */
export async function ledgerOf(app: TestApp, campaignId: number): Promise<Record<string, { n: number; sent: number }>> {
  const rows = await app
    .em()
    .execute<{ to_number: string; n: number; sent: number }[]>(
      `select to_number, count(*)::int as n, count(*) filter (where status = 'sent')::int as sent from sms_message where idempotency_key like ? group by to_number`,
      [`sms-campaign:${campaignId}:%`],
    );
  return Object.fromEntries(rows.map((r) => [r.to_number, { n: r.n, sent: r.sent }]));
}
