/**
 * Bounds the retry POSTs under way to one receiving origin, across every batch this process runs. A receiver
 * coming back from an outage then meets a steady stream instead of every pending retry at once, and a hanging
 * receiver holds at most `limit` connections. A batch that finds no slot in time defers that delivery, so it
 * never holds a worker's activity slot for long on behalf of one slow receiver.
 */
export class HostGate {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Resolves true holding a slot, or false when none came free within `waitMs`. */
  acquire(origin: string, waitMs: number): Promise<boolean> {
    const n = this.active.get(origin) ?? 0;
    if (n < this.limit) {
      this.active.set(origin, n + 1);
      return Promise.resolve(true);
    }
    const queue = this.waiting.get(origin) ?? [];
    this.waiting.set(origin, queue);
    return new Promise((resolve) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(grant), 1);
        resolve(false);
      }, waitMs);
      queue.push(grant);
    });
  }

  /** Hands the slot to the next waiter of the origin, or frees it. */
  release(origin: string): void {
    const queue = this.waiting.get(origin);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(origin);
    if (next) return next();
    const n = (this.active.get(origin) ?? 1) - 1;
    if (n > 0) this.active.set(origin, n);
    else this.active.delete(origin);
  }
}
