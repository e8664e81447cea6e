/**
 * The browser the page tests drive: CHROMIUM_PATH, else Debian's chromium at /usr/bin/chromium, installed with
 * apt-get when missing (scripts/debian.ts). Playwright's own browser downloads come from a site this project cannot
 * rely on; Debian's package comes from the distribution's mirrors.
 */
import fs from 'node:fs';
import { findOrInstallDebian } from './debian.ts';

/** The Chromium executable's path; throws, saying how to provide one, when it is missing and cannot be installed. */
export async function findOrInstallChromium(): Promise<string> {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`CHROMIUM_PATH names ${given}, which does not exist`);
    return given;
  }
  try {
    return await findOrInstallDebian('chromium', 'chromium', 'the page tests');
  } catch (err) {
    throw new Error(
      `${(err as Error).message}: install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable.`,
    );
  }
}
