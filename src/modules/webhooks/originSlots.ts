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

interface Held {
  slots: number[];
  inUse: number;
  renewedAt: number;
  linger?: NodeJS.Timeout;
}

/**
 * Bounds the retry POSTs under way to one receiving origin across every worker process: `limit` slots per origin
 * are rows in PostgreSQL (`webhook_origin_slot`), leased by a worker for a minute at most and renewed while in use.
 * A receiver back from an outage then meets a steady stream instead of every pending retry at once, and a hanging
 * one holds at most `limit` connections of the whole fleet. Each worker hands its leased slots to its own attempts
 * and leases more only when it runs short, so a worker with slots in hand adds no round trip to a POST.
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
    const deadline = Date.now() + waitMs;
    for (;;) {
      let h = this.hand(origin);
      if (h.inUse < h.slots.length) {
        if (Date.now() - h.renewedAt > (this.leaseSec * 1000) / 3) await this.renew(origin, h);
        if (h.inUse < h.slots.length) {
          h.inUse++;
          return true;
        }
        continue;
      }
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
      h = this.hand(origin);
      if (got.length) {
        h.slots.push(...got);
        h.renewedAt = Date.now();
      }
      // Slots this worker leased meanwhile serve too.
      if (h.inUse < h.slots.length) continue;
      if (Date.now() >= deadline) {
        this.lingerOrGiveBack(origin, h);
        return false;
      }
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, deadline - Date.now())));
    }
  }

  /** This worker's slots of the origin, kept from being given back while an acquire looks at them. */
  private hand(origin: string): Held {
    const h = this.held.get(origin) ?? { slots: [], inUse: 0, renewedAt: Date.now() };
    this.held.set(origin, h);
    clearTimeout(h.linger);
    return h;
  }

  /** Returns the slot to this worker's hand; slots unused for a moment go back to every worker. */
  release(origin: string): void {
    const h = this.held.get(origin);
    if (!h) return;
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
    for (const h of this.held.values()) clearTimeout(h.linger);
    await Promise.all([...this.held.entries()].map(([origin, h]) => this.giveBack(origin, h)));
  }

  private lingerOrGiveBack(origin: string, h: Held): void {
    clearTimeout(h.linger);
    if (h.inUse > 0 || this.closed) return;
    if (h.slots.length === 0) return void this.held.delete(origin);
    h.linger = setTimeout(() => void this.giveBack(origin, h), LINGER_MS);
    h.linger.unref();
  }

  private async giveBack(origin: string, h: Held): Promise<void> {
    if (h.inUse > 0 || this.held.get(origin) !== h) return;
    this.held.delete(origin);
    await giveBackOriginSlots(this.orm.em.fork(), origin, h.slots, this.holder).catch((err: unknown) =>
      this.log.warn({ err, origin }, 'origin slots not given back; their lease ends on its own'),
    );
  }

  private async renew(origin: string, h: Held): Promise<void> {
    h.renewedAt = Date.now();
    const kept = await renewOriginSlots(this.orm.em.fork(), origin, h.slots, this.holder, this.leaseSec);
    // A slot whose lease ended meanwhile may be another worker's now: stop using it.
    if (kept.length < h.slots.length) h.slots = kept;
  }
}
