/**
 * What a scenario plays with: the service's public API as the accounts it acts for, the local webhook receiver
 * standing in for their endpoints, the mail catcher the service sends recipients' notices to, and the timeline.
 * Everything a scenario changes that would outlive it (endpoint URLs, device and ingest keys) is put back or
 * revoked when it closes.
 */
import { randomBytes } from 'node:crypto';
import { api, ScenarioError, type Api, type Credentials } from './api.ts';
import { Journal } from './journal.ts';
import { startReceiver, type Receiver, type Webhook } from './receiver.ts';

/** Who the scenarios act as: a business, the delivery provider (carrier) and the partner locker provider it works with. */
export interface Accounts {
  /** A client admin of the business. */
  admin: Credentials;
  /** A delivery provider account, and its business code. */
  carrier: Credentials;
  carrierCode: string;
  /** A partner locker provider the business grants its lockers to. */
  lockerProvider: Credentials;
  /** A (not simulated) locker of the business. */
  locker: string;
  /** Two contractors (broker employees) of the business, for the route board. */
  contractors?: [Credentials, Credentials];
  /** Two drivers of the business, for the driver's day. */
  drivers?: [Credentials, Credentials];
  /** The business's timezone (IANA), whose date is today for the driver's day; UTC, the demo business's, when absent. */
  timezone?: string;
  /** An employee of the business (the warehouse staff) and one of its customer accounts, for customer services. */
  employee?: Credentials;
  customer?: Credentials;
}

const DEMO_PASSWORD = 'demo-password';
export const DEMO_ACCOUNTS: Accounts = {
  admin: { email: 'admin@demo.example', password: DEMO_PASSWORD },
  carrier: { email: 'carrier@demo.example', password: DEMO_PASSWORD },
  carrierCode: 'DEMO-CARRIER',
  lockerProvider: { email: 'locker-provider@demo.example', password: DEMO_PASSWORD },
  locker: 'DEMO-LOCKER-1',
  contractors: [
    { email: 'broker@demo.example', password: DEMO_PASSWORD },
    { email: 'broker2@demo.example', password: DEMO_PASSWORD },
  ],
  drivers: [
    { email: 'driver@demo.example', password: DEMO_PASSWORD },
    { email: 'driver2@demo.example', password: DEMO_PASSWORD },
  ],
  employee: { email: 'employee@demo.example', password: DEMO_PASSWORD },
  customer: { email: 'customer@demo.example', password: DEMO_PASSWORD },
};

export interface WorldOptions {
  url: string;
  /** The mail catcher's page, whose `/api/messages` lists what the service sent. */
  mailUrl: string;
  accounts: Accounts;
  /** Where the timeline is printed as it goes. */
  write?: (line: string) => void;
  /** How long to wait for each thing the service does by itself. */
  waitMs?: number;
}

type Role = 'admin' | 'carrier' | 'lockerProvider' | 'employee' | 'customer';

/** The business's settings fields a scenario's receiver takes over. */
const BUSINESS_FIELDS = [
  'order_status_change_webhook_url',
  'tracking_event_webhook_url',
  'device_order_webhook_url',
] as const;

export async function openWorld(opts: WorldOptions) {
  const journal = new Journal(opts.write);
  const receiver: Receiver = await startReceiver(journal);
  const service: Api = api(opts.url);
  const tokens = new Map<Role, Promise<string>>();
  const undo: (() => Promise<unknown>)[] = [];
  const waitMs = opts.waitMs ?? 60_000;
  /** A short id of this run, in the references, names and addresses it creates. */
  const run = randomBytes(3).toString('hex').toUpperCase();

  const token = (role: Role): Promise<string> => {
    const who = opts.accounts[role];
    if (!who) throw new ScenarioError(`the scenario needs the ${role} account, which the accounts do not name`);
    if (!tokens.has(role)) tokens.set(role, service.login(who));
    return tokens.get(role)!;
  };
  const secret = () => `scn_${randomBytes(24).toString('base64url')}`;

  async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = waitMs): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new ScenarioError(`${what}: not seen within ${Math.round(ms / 1000)} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return {
    api: service,
    journal,
    receiver,
    accounts: opts.accounts,
    run,
    /** The recipient of the run's parcels, an address no other run uses. */
    recipient: `ada.${run.toLowerCase()}@example.com`,
    token,
    until,
    /** Something to do when the world closes, latest first. */
    defer(step: () => Promise<unknown>): void {
      undo.push(step);
    },

    /** Points the business's order, tracking and device order webhooks at the receiver, under a secret of the run. */
    async businessWebhooks(): Promise<void> {
      const admin = await token('admin');
      const before = (await service.call('GET', '/v1/webhook-settings', { token: admin })).body.settings;
      const key = secret();
      const url = receiver.endpoint('business', 'tenant', key);
      await service.call('PUT', '/v1/webhook-settings', {
        token: admin,
        body: { webhook_sign_secret: key, ...Object.fromEntries(BUSINESS_FIELDS.map((f) => [f, url])) },
      });
      undo.push(() =>
        service.call('PUT', '/v1/webhook-settings', {
          token: admin,
          body: Object.fromEntries(BUSINESS_FIELDS.map((f) => [f, before[f] ?? null])),
        }),
      );
    },

    /** Points the business's route_board_webhook_url at the receiver, under a secret of the run. */
    async routeBoardWebhooks(): Promise<void> {
      const admin = await token('admin');
      const before = (await service.call('GET', '/v1/webhook-settings', { token: admin })).body.settings;
      const key = secret();
      await service.call('PUT', '/v1/webhook-settings', {
        token: admin,
        body: { webhook_sign_secret: key, route_board_webhook_url: receiver.endpoint('business', 'tenant', key) },
      });
      undo.push(() =>
        service.call('PUT', '/v1/webhook-settings', {
          token: admin,
          body: { route_board_webhook_url: before.route_board_webhook_url ?? null },
        }),
      );
    },

    /**
     * Points a provider's endpoint at the receiver under a secret of the run: its live URL, or with `sandbox` its
     * sandbox URL with sandbox delivery switched on. Every event, in the native format.
     */
    async providerWebhooks(role: 'carrier' | 'lockerProvider', opt: { sandbox?: boolean } = {}): Promise<void> {
      const provider = await token(role);
      const before = (await service.call('GET', '/v1/provider/webhook-settings', { token: provider })).body.settings;
      const key = secret();
      const url = receiver.endpoint(
        role === 'carrier' ? 'carrier' : 'lockers',
        role === 'carrier' ? 'third_party' : 'partner_locker',
        key,
      );
      const target = opt.sandbox ? { sandbox_url: url, sandbox_enabled: true, ...(!before && { url }) } : { url };
      await service.call('PUT', '/v1/provider/webhook-settings', {
        token: provider,
        body: { ...target, events: [], format: 'native', standard_webhooks: false, secret: key },
      });
      if (before) {
        const { url: liveUrl, sandbox_url, sandbox_enabled, events, format, standard_webhooks } = before;
        undo.push(() =>
          service.call('PUT', '/v1/provider/webhook-settings', {
            token: provider,
            body: { url: liveUrl, sandbox_url, sandbox_enabled, events, format, standard_webhooks },
          }),
        );
      }
    },

    /** Waits for a webhook of this event that names `about` (and of which `also` holds), received and followed. */
    webhook(event: string, about: string, opt: { ms?: number; also?: (body: any) => boolean } = {}): Promise<Webhook> {
      receiver.follow(about);
      return until(
        `webhook ${event} about ${about}`,
        async () =>
          receiver.received.find((w) => w.event === event && w.raw.includes(about) && (opt.also?.(w.body) ?? true)),
        opt.ms,
      );
    },

    /**
     * The pickup code of the newest notice the service mailed to `to`, read from the mail catcher; the timeline
     * shows the notice, never the code.
     */
    async pickupCode(to: string): Promise<string> {
      const found = await until(`a mail to ${to}`, async () => {
        const res = await fetch(`${opts.mailUrl}/api/messages`).catch(() => null);
        if (!res?.ok)
          throw new ScenarioError(
            `no mail catcher answers at ${opts.mailUrl} (set --mail-url): the recipient's notice cannot be read`,
          );
        const mails = (await res.json()) as { to: string[]; subject: string; text: string }[];
        return mails.findLast((m) => m.to.includes(to));
      });
      journal.add('notice', `mail to ${to}: "${found.subject}" (its pickup code is not shown)`);
      const code = /Pickup code: (\S+)/.exec(found.text)?.[1];
      if (!code) throw new ScenarioError(`the mail to ${to} has no pickup code`);
      return code;
    },

    /** Puts back what the scenario changed, and stops the receiver. */
    async close(): Promise<void> {
      for (const step of undo.reverse())
        await step().catch((err: unknown) => journal.step(`could not put back: ${(err as Error).message}`));
      await receiver.close();
    },
  };
}

export type World = Awaited<ReturnType<typeof openWorld>>;
