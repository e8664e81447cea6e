import { runRole } from './role.ts';

await runRole('worker', { api: false, worker: true });
