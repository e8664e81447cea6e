import { runRole } from './role.ts';

await runRole('api', { api: true, worker: false });
