export { deviceOrderWorkflow } from './deviceOrder.ts';
