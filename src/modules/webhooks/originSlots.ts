import { randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.ts';
import type { Logger } from '../../platform/logger.ts';
import { giveBackOriginSlots, leaseOriginSlots, makeOriginSlots, renewOriginSlots } from './repo/originSlots.ts';

/** How long a leased slot stays a worker's without renewal: a worker that died gives its slots back after this. */
export const SLOT_LEASE_SEC = 60;
/** A worker keeps slots it no longer uses this long, so a steady stream does not lease and give back on every POST. */
const LINGER_MS = 1_000;
const POLL_MS = 100;
/**
 * Slots leased at once when a worker runs short (an eighth of the limit, at most 4): a burst needs few round trips,
 * and one worker does not take them all at once.
 */
const leaseChunk = (limit: number) => Math.max(1, Math.min(4, Math.floor(limit / 8)));

interface Waiter {
  resolve: (got: boolean) => void;
  timer: NodeJS.Timeout;
}

interface Held {
  slots: number[];
  inUse: number;
  renewedAt: number;
  linger?: NodeJS.Timeout;
  /** Attempts of this worker waiting for a slot of the origin, first come first served. */
  waiters: Waiter[];
  /** Whether a loop is leasing for the waiters (one per origin, however many wait). */
  polling: boolean;
}

/**
 * Bounds the retry POSTs under way to one receiving origin across every worker process: `limit` slots per origin
 * are rows in PostgreSQL (`webhook_origin_slot`), leased by a worker for a minute at most and renewed while in use.
 * A receiver back from an outage then meets a steady stream instead of every pending retry at once, and a hanging
 * one holds at most `limit` connections of the whole fleet. Each worker hands its leased slots to its own attempts
 * and leases more only when it runs short, so a worker with slots in hand adds no round trip to a POST. Attempts
 * that find every slot busy wait in line: a released slot goes straight to the first of them, and one loop per
 * origin leases what other workers give back, instead of every waiting attempt asking the database.
 */
export class OriginSlots {
  private readonly held = new Map<string, Held>();
  private closed = false;
  /** Origins whose slot rows this process has made sure of. */
  private readonly made = new Set<string>();
  private readonly holder = randomUUID();
  private readonly orm: Orm;
  private readonly limit: number;
  private readonly log: Logger;
  private readonly leaseSec: number;

  constructor(orm: Orm, limit: number, log: Logger, leaseSec = SLOT_LEASE_SEC) {
    this.orm = orm;
    this.limit = limit;
    this.log = log;
    this.leaseSec = leaseSec;
  }

  /** Resolves true holding a slot of the origin, or false when none came free within `waitMs`. */
  async acquire(origin: string, waitMs: number): Promise<boolean> {
    const h = this.hand(origin);
    if (h.waiters.length === 0) {
      if (h.inUse < h.slots.length && Date.now() - h.renewedAt > (this.leaseSec * 1000) / 3)
        await this.renew(origin, h);
      if (h.inUse >= h.slots.length) await this.leaseMore(origin);
      const now = this.hand(origin);
      if (now.inUse < now.slots.length) {
        now.inUse++;
        return true;
      }
    }
    if (waitMs <= 0 || this.closed) {
      this.lingerOrGiveBack(origin, this.hand(origin));
      return false;
    }
    return new Promise<boolean>((resolve) => {
      const line = this.hand(origin);
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          const at = line.waiters.indexOf(waiter);
          if (at >= 0) line.waiters.splice(at, 1);
          this.lingerOrGiveBack(origin, line);
          resolve(false);
        }, waitMs),
      };
      line.waiters.push(waiter);
      void this.poll(origin, line);
    });
  }

  /** Leases a chunk of the origin's free slots into this worker's hand. */
  private async leaseMore(origin: string): Promise<void> {
    if (!this.made.has(origin)) {
      await makeOriginSlots(this.orm.em.fork(), origin, this.limit);
      this.made.add(origin);
    }
    const got = await leaseOriginSlots(
      this.orm.em.fork(),
      origin,
      this.limit,
      leaseChunk(this.limit),
      this.holder,
      this.leaseSec,
    );
    // The hand may have been given back while the lease ran: the new slots go to the current one.
    const h = this.hand(origin);
    if (got.length) {
      h.slots.push(...got);
      h.renewedAt = Date.now();
    }
  }

  /** While attempts wait, leases what other workers give back and hands it to them in order. */
  private async poll(origin: string, h: Held): Promise<void> {
    if (h.polling) return;
    h.polling = true;
    try {
      while (h.waiters.length > 0 && !this.closed && this.held.get(origin) === h) {
        await this.leaseMore(origin).catch((err: unknown) => this.log.warn({ err, origin }, 'origin slots not leased'));
        while (h.waiters.length > 0 && h.inUse < h.slots.length) {
          h.inUse++;
          this.wake(h, true);
        }
        if (h.waiters.length > 0) await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } finally {
      h.polling = false;
    }
  }

  private wake(h: Held, got: boolean): void {
    const waiter = h.waiters.shift();
    if (!waiter) return;
    clearTimeout(waiter.timer);
    waiter.resolve(got);
  }

  /** This worker's slots of the origin, kept from being given back while an acquire looks at them. */
  private hand(origin: string): Held {
    const h = this.held.get(origin) ?? { slots: [], inUse: 0, renewedAt: Date.now(), waiters: [], polling: false };
    this.held.set(origin, h);
    clearTimeout(h.linger);
    return h;
  }

  /**
   * Passes the slot to the first attempt waiting for one of the origin, or returns it to this worker's hand; slots
   * unused for a moment go back to every worker.
   */
  release(origin: string): void {
    const h = this.held.get(origin);
    if (!h) return;
    // A slot lost to an ended lease (see renew) is not passed on.
    if (h.waiters.length > 0 && h.inUse <= h.slots.length) {
      if (Date.now() - h.renewedAt > (this.leaseSec * 1000) / 3) void this.renew(origin, h);
      return this.wake(h, true);
    }
    h.inUse = Math.max(0, h.inUse - 1);
    this.lingerOrGiveBack(origin, h);
  }

  /** Slots leased by this worker for the origin, in use or not. */
  heldBy(origin: string): number {
    return this.held.get(origin)?.slots.length ?? 0;
  }

  /**
   * Gives every unused slot back at once (worker shutdown); from then on none lingers, so nothing reaches the
   * database after it closes. Slots still in use are left to their lease.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const h of this.held.values()) {
      clearTimeout(h.linger);
      while (h.waiters.length > 0) this.wake(h, false);
    }
    await Promise.all([...this.held.entries()].map(([origin, h]) => this.giveBack(origin, h)));
  }

  private lingerOrGiveBack(origin: string, h: Held): void {
    clearTimeout(h.linger);
    if (h.inUse > 0 || h.waiters.length > 0 || this.closed) return;
    if (h.slots.length === 0) return void this.held.delete(origin);
    h.linger = setTimeout(() => void this.giveBack(origin, h), LINGER_MS);
    h.linger.unref();
  }

  private async giveBack(origin: string, h: Held): Promise<void> {
    if (h.inUse > 0 || h.waiters.length > 0 || this.held.get(origin) !== h) return;
    this.held.delete(origin);
    await giveBackOriginSlots(this.orm.em.fork(), origin, h.slots, this.holder).catch((err: unknown) =>
      this.log.warn({ err, origin }, 'origin slots not given back; their lease ends on its own'),
    );
  }

  private async renew(origin: string, h: Held): Promise<void> {
    h.renewedAt = Date.now();
    const kept = await renewOriginSlots(this.orm.em.fork(), origin, h.slots, this.holder, this.leaseSec).catch(
      (err: unknown) => {
        this.log.warn({ err, origin }, 'origin slots not renewed; renewed on a later use');
        return h.slots;
      },
    );
    // A slot whose lease ended meanwhile may be another worker's now: stop using it.
    if (kept.length < h.slots.length) h.slots = kept;
  }
}
