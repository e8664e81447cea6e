/**
 * One local activity of a device order's process at a time. Two running at once resolve in separate activations when
 * they finish apart, and in one activation when replayed; their continuations (a search-attribute upsert, an update's
 * answer) then run in another order, and the history no longer replays. Runs in the workflow sandbox.
 */
export class Lane {
  private tail: Promise<unknown> = Promise.resolve();
  /** False for a run started before the lane (its history ran local activities side by side and must replay so). */
  private readonly serial: boolean;
  constructor(serial: boolean) {
    this.serial = serial;
  }

  /** Runs `change` (a local activity and what follows from its answer) once every change before it has ended. */
  run<T>(change: () => Promise<T>): Promise<T> {
    if (!this.serial) return change();
    const result = this.tail.then(change);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
