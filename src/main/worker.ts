import { runRole } from './role.ts';

// `npm run worker -- --queues=tms-webhooks` serves those task queues only, as WORKER_QUEUES does.
const queues = process.argv.find((a) => a.startsWith('--queues='));
if (queues) process.env.WORKER_QUEUES = queues.slice('--queues='.length);

await runRole('worker', { api: false, worker: true });
