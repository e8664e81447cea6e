/**
 * Hook points: moments one module owns and others react to (an order created, a locker door reported). The owner
 * declares the point by merging its signature into `ModuleHooks` and runs what is registered with `hooksOf`; a
 * module that reacts names its hook in its descriptor (`hooks`), and src/modules/index.ts registers every
 * descriptor's. The owner knows nothing of who listens, and nobody registers by a side effect of an import.
 */

/** Merged into by each module that owns a hook point: `declare module '.../platform/hooks.ts'`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleHooks {}

export type HookName = keyof ModuleHooks;
export type HookSet = { [K in HookName]?: ModuleHooks[K] };

const registered = new Map<string, unknown[]>();

export function registerHooks(sets: readonly HookSet[]): void {
  for (const set of sets)
    for (const [name, hook] of Object.entries(set)) registered.set(name, [...(registered.get(name) ?? []), hook]);
}

/** The hooks registered for a point, in the order of the modules list. */
export function hooksOf<K extends HookName>(name: K): readonly ModuleHooks[K][] {
  return (registered.get(name) ?? []) as ModuleHooks[K][];
}
