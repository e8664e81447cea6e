/**
 * The tools the specification's MCP catalogs name (Endpoints B), with the scope and risk it gives each: what
 * `npm run mcp:coverage` measures the two servers against. Data, copied from the specification.
 */
export interface SpecTool {
  name: string;
  /** Null: public, no token needed. */
  scope: string | null;
  risk: 'low' | 'medium' | 'high';
}

const t = (name: string, scope: string | null, risk: SpecTool['risk'] = 'low'): SpecTool => ({ name, scope, risk });

/** The user server's 93 tools. High risk is the specification's (C): nothing happens without confirm: true. */
export const USER_SERVER_TOOLS: readonly SpecTool[] = [
  t('track_package', null), t('otep_tracking', null), t('get_capabilities', null), t('get_orders', 'orders:read'),
  t('get_order_detail', 'orders:read'), t('find_order', 'orders:read'), t('get_operation_events', 'orders:read'),
  t('order_snapshot', 'orders:read'), t('list_exceptions', 'orders:read'), t('quote_delivery', 'orders:read'),
  t('print_local_label', 'orders:read'), t('get_async_batch_result', 'orders:read'),
  t('otep_client_tracking', 'orders:read'), t('otep_client_locker_storage', 'orders:read'),
  t('create_order', 'orders:write', 'medium'), t('update_delivery_instruction', 'orders:write', 'medium'),
  t('update_order_note', 'orders:write', 'medium'), t('update_time_window_by_refs', 'orders:write', 'medium'),
  t('cancel_order', 'orders:write', 'high'), t('bulk_create_orders', 'orders:write', 'high'),
  t('reroute_to_address', 'orders:write', 'high'), t('hold_order', 'orders:write', 'high'),
  t('release_order', 'orders:write', 'high'), t('bulk_create_orders_async', 'orders:write', 'high'),
  t('propose_write', 'approvals:read'), t('list_pending_approvals', 'approvals:read'),
  t('approve_pending_write', 'approvals:write', 'high'), t('reject_pending_write', 'approvals:write', 'medium'),
  t('get_routes', 'routes:read'), t('get_route_detail', 'routes:read'), t('get_build_route_options', 'routes:read'),
  t('get_driver_routes_today', 'routes:read + drivers:read'), t('get_drivers', 'drivers:read'),
  t('build_route', 'routes:write', 'high'), t('get_shipping_methods', 'labels:read'),
  t('get_shipping_rate', 'labels:read'), t('compare_all_carriers', 'labels:read'),
  t('create_shipping_label', 'labels:write', 'medium'), t('quote_and_ship', 'labels:write', 'medium'),
  t('get_shipping_detail', 'labels:write', 'high'), t('download_shipping_label', 'labels:write', 'high'),
  t('cancel_shipping_label', 'labels:write', 'high'), t('submit_shipping_information', 'labels:write', 'high'),
  t('end_of_day', 'labels:write', 'high'), t('search_address', 'address:read'), t('daily_digest', 'analytics:read'),
  t('get_orders_summary', 'analytics:read'), t('get_account_credits', 'analytics:read'),
  t('get_warehouses', 'wms:read'), t('get_inventory', 'wms:read'), t('list_datasets', 'datasets:read'),
  t('get_dataset', 'datasets:read'), t('list_dataset_groups', 'datasets:read'),
  t('search_dataset_records', 'datasets:read'), t('list_alliances', 'alliance:read'),
  t('get_alliance', 'alliance:read'), t('list_alliance_members', 'alliance:read'),
  t('list_accessible_clients', 'alliance:read'), t('uniorder_rate', 'uniorder:read'),
  t('uniorder_get', 'uniorder:read'), t('uniorder_label', 'uniorder:read'), t('uniorder_tracking', 'uniorder:read'),
  t('uniorder_rate_batch', 'uniorder:read'), t('uniorder_rate_batch_async', 'uniorder:read'),
  t('uniorder_job', 'uniorder:read'), t('uniorder_create', 'uniorder:write', 'medium'),
  t('uniorder_cancel', 'uniorder:write', 'high'), t('uniorder_purchase_label', 'uniorder:write', 'high'),
  t('uniorder_create_batch', 'uniorder:write', 'high'), t('uniorder_create_batch_async', 'uniorder:write', 'high'),
  t('list_shipping_services', 'customer_shipping:read'), t('get_shipping_service_config', 'customer_shipping:read'),
  t('estimate_shipping_order', 'customer_shipping:read'), t('get_shipping_order', 'customer_shipping:read'),
  t('list_shipping_orders', 'customer_shipping:read'),
  t('create_shipping_order', 'customer_shipping:write', 'medium'),
  t('pay_shipping_order', 'customer_shipping:write', 'high'),
  t('cancel_shipping_order', 'customer_shipping:write', 'high'), t('get_storage_order_config', 'storage:read'),
  t('quote_storage_order', 'storage:read'), t('get_storage_order', 'storage:read'),
  t('list_storage_orders', 'storage:read'), t('list_stored_packages', 'storage:read'),
  t('list_shipout_services', 'storage:read'), t('estimate_shipout', 'storage:read'),
  t('get_shipout', 'storage:read'), t('list_shipouts', 'storage:read'),
  t('create_storage_order', 'storage:write', 'medium'), t('create_shipout', 'storage:write', 'medium'),
  t('pay_storage_order', 'storage:write', 'high'), t('cancel_storage_order', 'storage:write', 'high'),
  t('pay_shipout', 'storage:write', 'high'), t('cancel_shipout', 'storage:write', 'high'),
];

/** The developer server's 25 tools, and whether each works without a token. */
export const DEVELOPER_SERVER_TOOLS: readonly { name: string; public: boolean }[] = [
  { name: 'track_package', public: true }, { name: 'get_operation_events', public: false },
  { name: 'get_shipping_methods', public: false }, { name: 'get_shipping_rate', public: false },
  { name: 'create_shipping_label', public: false }, { name: 'get_shipping_label', public: false },
  { name: 'create_order', public: false }, { name: 'build_route', public: false },
  { name: 'get_build_route_options', public: false }, { name: 'get_api_endpoints', public: true },
  { name: 'get_graphql_operations', public: true }, { name: 'run_graphql_query', public: false },
  { name: 'get_otep_tracking', public: true }, { name: 'validate_otep_payload', public: true },
  { name: 'check_skill_update', public: true }, { name: 'get_integration_guide', public: true },
  { name: 'get_otep_guide', public: true }, { name: 'get_webhook_guide', public: true },
  { name: 'verify_webhook_signature', public: true }, { name: 'test_webhook_delivery', public: false },
  { name: 'get_webhook_settings', public: false }, { name: 'update_webhook_settings', public: false },
  { name: 'get_order_audit_timeline', public: false }, { name: 'get_webhook_delivery_logs', public: false },
  { name: 'replay_webhook_delivery', public: false },
];
