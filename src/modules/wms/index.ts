/**
 * Warehouses and stored packages (docs/customer-services.md, "Warehouses and stored packages"): a business's
 * warehouses, the physical parcels its customers store there (expected, stored, reserved, shipped, released),
 * receiving scans and the inventory. Storage and ship-outs change stored packages only through the functions below;
 * each joins the caller's transaction through its `em`.
 */
import { defineModule } from '../../platform/module.ts';
import { WMS_ERRORS } from './errorCodes.ts';
import { WMS_MESSAGES } from './messages.ts';
import { getInventory, receiveStoredPackage } from './operations/packages.ts';
import { createWarehouse, getWarehouses, updateWarehouseOp } from './operations/warehouses.ts';

export {
  insertWarehouse,
  warehouseByCode,
  warehouseOf,
  type WarehouseRow,
  type WarehouseAddress,
} from './repo/warehouses.ts';
export { packagesOf, type PackageInput, type StoredPackageRow, type StoredPackageState } from './repo/packages.ts';
export {
  declarePackages,
  openForReceiving,
  reservePackages,
  releasePackages,
  shipPackages,
  type ReserveInput,
} from './stock.ts';
export { WarehouseView, presentWarehouse } from './views.ts';

export const wms = defineModule({
  name: 'wms',
  tags: {
    WMS: 'Warehouses and the packages customers store in them: warehouses, receiving scans (an expected package of a paid storage order becomes stored) and the inventory by warehouse, customer, state and age.',
  },
  operations: [getWarehouses, createWarehouse, updateWarehouseOp, receiveStoredPackage, getInventory],
  messages: WMS_MESSAGES,
  errorCodes: WMS_ERRORS,
});
