/**
 * The worker's activities: every module's activity factory (its `activities.ts`, named in its descriptor), called
 * with the worker's dependencies and merged into the one map a Temporal worker registers by name. The code stays in
 * its module; this file only assembles.
 */
import { MODULES } from '../src/modules/index.ts';
import type { Activities, WorkerDeps } from '../src/platform/module.ts';

export function createActivities(deps: WorkerDeps): Activities {
  const all: Activities = {};
  for (const m of MODULES) {
    for (const [name, fn] of Object.entries(m.activities?.(deps) ?? {})) {
      // Activities are registered by name alone: two modules must never claim the same one.
      if (name in all) throw new Error(`activity ${name} is declared twice (module ${m.name})`);
      all[name] = fn;
    }
  }
  return all;
}
