/**
 * The timeline a scenario prints as it goes: each step it took, each webhook its receiver got (with the outcome of
 * the signature check), each notification the service sent, and each workflow it can be followed in.
 */

export type EntryKind = 'step' | 'webhook' | 'notice' | 'workflow';

export interface Entry {
  at: number;
  kind: EntryKind;
  text: string;
}

export class Journal {
  readonly entries: Entry[] = [];
  readonly workflows: string[] = [];
  private readonly start = Date.now();
  private readonly write: (line: string) => void;

  constructor(write: (line: string) => void = () => {}) {
    this.write = write;
  }

  add(kind: EntryKind, text: string): void {
    const entry = { at: Date.now() - this.start, kind, text };
    this.entries.push(entry);
    this.write(`  ${`+${(entry.at / 1000).toFixed(2)}s`.padStart(9)}  ${kind.padEnd(8)} ${text}`);
  }

  step(text: string): void {
    this.add('step', text);
  }

  /** A workflow id to open in the Temporal UI, listed once. */
  workflow(id: string, what: string): void {
    if (this.workflows.includes(id)) return;
    this.workflows.push(id);
    this.add('workflow', `${id}  (${what})`);
  }

  /** The texts of one kind, in the order they happened. */
  texts(kind: EntryKind): string[] {
    return this.entries.filter((e) => e.kind === kind).map((e) => e.text);
  }
}
