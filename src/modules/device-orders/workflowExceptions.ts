/**
 * The workflow side of device order exceptions (docs/device-order-exceptions.md): staff's opens and resolves, the
 * ones the process raises and settles itself, the watch of the door after the parcel has left, and the wait for
 * every open exception before the process ends. Runs in the workflow sandbox.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyLocalActivities,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  DEVICE_ORDER_EXCEPTIONS,
  type DeviceOrderActivities,
  type ExceptionSnapshot,
  type ExceptionType,
  type OpenExceptionArgs,
  type ResolutionAction,
  type ResolveExceptionArgs,
} from './contract.ts';
import type { Lane } from './workflowLane.ts';

const local = proxyLocalActivities<DeviceOrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** An activity's own refusal reaches the update's caller as itself, not wrapped in an ActivityFailure. */
export function unwrapRefusal(err: unknown): never {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
  throw err;
}

/** The order's open exception types as this run knows them, and a counter of what changed them. */
export class OrderExceptions {
  private readonly openTypes = new Set<ExceptionType>();
  private changes = 0;
  /** The open types the DeviceOrderExceptions search attribute shows. */
  private shown = '';
  private readonly id: number;
  private readonly lane: Lane;
  constructor(id: number, lane: Lane) {
    this.id = id;
    this.lane = lane;
  }

  has(type: ExceptionType): boolean {
    return this.openTypes.has(type);
  }

  private note(type: ExceptionType, isOpen: boolean): void {
    if (isOpen) this.openTypes.add(type);
    else this.openTypes.delete(type);
    this.changes++;
    this.show();
  }

  /** Operators find orders by open exception type in the Temporal UI; written only when it changed. */
  private show(): void {
    const types = [...this.openTypes].sort();
    if (types.join() === this.shown) return;
    this.shown = types.join();
    upsertSearchAttributes([{ key: DEVICE_ORDER_EXCEPTIONS, value: types }]);
  }

  open(args: OpenExceptionArgs): Promise<ExceptionSnapshot> {
    return this.lane.run(async () => {
      const opened = await local.openDeviceOrderException({ id: this.id, ...args }).catch(unwrapRefusal);
      this.note(opened.exception.type, true);
      return opened;
    });
  }

  resolve(args: ResolveExceptionArgs): Promise<ExceptionSnapshot> {
    return this.lane.run(async () => {
      const closed = await local.resolveDeviceOrderException({ id: this.id, ...args }).catch(unwrapRefusal);
      this.note(closed.exception.type, false);
      return closed;
    });
  }

  /** Opens one of the process's own exceptions; one of the type opened by staff counts as it. */
  raise(type: ExceptionType): Promise<void> {
    return this.lane.run(async () => {
      await local.raiseDeviceOrderException({ id: this.id, type });
      this.note(type, true);
    });
  }

  /** Resolves the open exception of a type, if this run knows of one. */
  settle(type: ExceptionType, resolutionAction: ResolutionAction): Promise<void> {
    return this.lane.run(async () => {
      if (!this.openTypes.has(type)) return;
      await local.settleDeviceOrderException({ id: this.id, type, resolutionAction });
      this.note(type, false);
    });
  }

  /** Learns the open exceptions from the read model, when a run is resumed. */
  load(): Promise<void> {
    return this.lane.run(async () => {
      for (const type of await local.openDeviceOrderExceptionTypes({ id: this.id })) this.openTypes.add(type);
      this.show();
    });
  }

  /**
   * Returns once the read model has no open exception and no update is running. A pickup lock opens its exception
   * outside the process, so the read model, not this run's memory, decides.
   */
  async untilAllClosed(): Promise<void> {
    for (;;) {
      const seen = this.changes;
      const types = await this.lane.run(() => local.openDeviceOrderExceptionTypes({ id: this.id }));
      await condition(allHandlersFinished);
      if (this.changes !== seen) continue;
      // Nothing changed meanwhile: the read model's list is the truth.
      this.openTypes.clear();
      for (const type of types) this.openTypes.add(type);
      this.show();
      if (types.length === 0) return;
      await condition(() => this.changes !== seen);
    }
  }
}

/** The newest report of the compartment's door the process has heard. */
export class DoorState {
  state: 'opened' | 'closed' | null = null;
}

/**
 * After the parcel has left: waits up to `watchMs` for its door to be open; a door still open `limitMs` later
 * raises door_left_open, which the door's closing resolves (or staff do).
 */
export async function watchDoor(
  door: DoorState,
  exceptions: OrderExceptions,
  watchMs: number,
  limitMs: number,
): Promise<void> {
  if (watchMs <= 0) return;
  if (door.state !== 'opened' && !(await condition(() => door.state === 'opened', watchMs))) return;
  if (await condition(() => door.state === 'closed', limitMs)) return;
  await exceptions.raise('door_left_open');
  await condition(() => door.state === 'closed' || !exceptions.has('door_left_open'));
  await exceptions.settle('door_left_open', 'door_closed');
}
