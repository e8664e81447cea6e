/**
 * The browser the page tests drive: CHROMIUM_PATH, else Debian's chromium at /usr/bin/chromium, installed with
 * apt-get when missing (as the test command builds the Temporal CLI when it is missing). Playwright's own browser
 * downloads come from a site this project cannot rely on; Debian's package comes from the distribution's mirrors.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

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

/** The Chromium executable's path; throws, saying how to provide one, when it is missing and cannot be installed. */
export async function findOrInstallChromium(): Promise<string> {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`CHROMIUM_PATH names ${given}, which does not exist`);
    return given;
  }
  if (fs.existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  console.log("Installing Debian's chromium for the page tests (once) ...");
  const update = await run('apt-get', ['update', '-qq']);
  const install =
    update.code === 0 ? await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium']) : update;
  if (install.code !== 0 || !fs.existsSync(DEBIAN_CHROMIUM)) {
    throw new Error(
      `Could not install Debian's chromium with apt-get (${install.output.trim().split('\n').pop() ?? 'no output'}): install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable.`,
    );
  }
  return DEBIAN_CHROMIUM;
}
