export { Business } from './identity/entities/Business.ts';
export { User } from './identity/entities/User.ts';
export { AuthToken } from './identity/entities/AuthToken.ts';
export { Order } from './orders/entities.ts';
export { BrokerOrderAssignment } from './assignments/entities.ts';
export { Device } from './device-orders/entities/Device.ts';
export { DeviceOrder } from './device-orders/entities/DeviceOrder.ts';
export { OutboxEvent } from '../platform/db/OutboxEvent.ts';
