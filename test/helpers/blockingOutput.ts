/**
 * Preloaded into every test file's process (scripts/test.ts). The runner passes --test-force-exit, so a file's
 * process exits as soon as its tests end; its reports travel to the parent runner over a pipe, which Node writes
 * asynchronously, so reports still queued at the exit were lost and the run counted fewer tests than it ran.
 * Blocking writes leave nothing queued.
 */
const handle = (process.stdout as unknown as { _handle?: { setBlocking?: (on: boolean) => void } })._handle;
handle?.setBlocking?.(true);
