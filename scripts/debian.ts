/**
 * Programs the tests need from Debian's packages, found in /usr/bin or installed with apt-get when missing (as the
 * test command builds the Temporal CLI when it is missing). Debian's packages come from the distribution's mirrors,
 * which this project can rely on. Installs run one at a time, since dpkg holds a lock, and the package lists are
 * updated once per run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (b: Buffer) => {
      output = (output + b.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (err) => resolve({ code: null, output: err.message }));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

let updated: ReturnType<typeof run> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/**
 * The path of Debian's `binary` (/usr/bin/<binary>), installing `debianPackage` with apt-get when it is missing;
 * `purpose` says in the progress line why. Throws with apt-get's last line of output when the install fails.
 */
export function findOrInstallDebian(binary: string, debianPackage: string, purpose: string): Promise<string> {
  const found = queue.then(async () => {
    const file = `/usr/bin/${binary}`;
    // Checked inside the queue: an install before this one may have brought the binary (one package, two programs).
    if (fs.existsSync(file)) return file;
    console.log(`Installing Debian's ${debianPackage} for ${purpose} (once) ...`);
    updated ??= run('apt-get', ['update', '-qq']);
    const update = await updated;
    const install =
      update.code === 0
        ? await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', debianPackage])
        : update;
    if (install.code !== 0 || !fs.existsSync(file)) {
      throw new Error(
        `Could not install Debian's ${debianPackage} with apt-get (${install.output.trim().split('\n').pop() ?? 'no output'})`,
      );
    }
    return file;
  });
  queue = found.catch(() => undefined);
  return found;
}
