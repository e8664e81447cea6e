export { Business } from './Business.ts';
export { User } from './User.ts';
export { AuthToken } from './AuthToken.ts';
export { Order } from './Order.ts';
export { BrokerOrderAssignment } from './BrokerOrderAssignment.ts';
export { Device } from './Device.ts';
export { DeviceOrder } from './DeviceOrder.ts';
export { OutboxEvent } from './OutboxEvent.ts';
