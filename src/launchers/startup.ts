import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * A child process (PostgreSQL, the Temporal dev server, the Temporal CLI build) could not start. The message is
 * one line saying what failed and what to do; `npm start` and `npm test` print just that line and exit 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Fails with a StartupError when something already listens on 127.0.0.1:`port`. */
export async function assertPortFree(port: number, what: string, setting: string): Promise<void> {
  const free = await new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
  if (!free)
    throw new StartupError(
      `${what} cannot start: port ${port} is already in use. Stop what listens there or choose another port (${setting}).`,
    );
}

/** The last lines a child printed, to name its failure in one line. */
export class RecentOutput {
  private lines: string[] = [];

  add(chunk: unknown): string {
    const text = String(chunk).trim();
    for (const line of text.split('\n')) if (line.trim()) this.lines.push(line.trim());
    this.lines.splice(0, Math.max(0, this.lines.length - 40));
    return text;
  }

  /** The last line that reads like an error (else the last line), without its timestamp, squeezed to one line. */
  problem(): string | undefined {
    const line =
      this.lines.findLast((l) => /fatal|error|failed|could not|cannot|denied|in use/i.test(l)) ?? this.lines.at(-1);
    return line
      ?.replace(/^\[STDERR\]\s*/, '')
      .replace(/^\d{4}-\d\d-\d\d[ T][\d:.]+(?: [A-Z]{2,5})?(?: \[\d+\])?:?\s*/, '')
      .replace(/\s+/g, ' ')
      .slice(0, 300);
  }
}

/** A TCP port that was free a moment ago on the loopback interface: any, or `port` (rejects when it is taken). */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Ends a server this process started: SIGTERM, then SIGKILL after `graceMs`; resolves once `exited` has. */
export async function endServerProcess(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timeout = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timeout);
}
