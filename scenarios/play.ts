/** One scenario played in a world of its own: its timeline, and what went wrong when something did. */
import { ScenarioError } from './api.ts';
import type { Scenario } from './index.ts';
import { Journal } from './journal.ts';
import type { Webhook } from './receiver.ts';
import { openWorld, type WorldOptions } from './world.ts';

export interface Played {
  journal: Journal;
  error?: Error;
  /** Every webhook the receiver got, followed or not. */
  webhooks?: readonly Webhook[];
}

export async function play(scenario: Scenario, opts: WorldOptions & { sandbox?: boolean }): Promise<Played> {
  if (opts.sandbox && !scenario.sandbox)
    return { journal: new Journal(), error: new ScenarioError(`${scenario.name} has no sandbox mode`) };
  const w = await openWorld(opts);
  try {
    await scenario.play(w, { sandbox: opts.sandbox ?? false });
    const refused = w.receiver.refused();
    if (refused.length > 0)
      throw new ScenarioError(
        `${refused.length} webhook(s) failed the signature check: ${refused.map((r) => r.event).join(', ')}`,
      );
    return { journal: w.journal, webhooks: w.receiver.received };
  } catch (err) {
    return { journal: w.journal, error: err as Error, webhooks: w.receiver.received };
  } finally {
    await w.close();
  }
}
