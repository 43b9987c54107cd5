// What other code may name without a gRPC call: Discord's permission flags. (A second
// consumer such as api-gateway should get them from a shared package rather than import
// a deployable; see README.)
export {
  ALL_PERMISSIONS,
  PERMISSION_FLAGS,
  PERMISSION_NAMES,
  hasPermissions,
  namePermissions,
  type PermissionName,
} from './domain/permission-flags';
export { DEFAULT_EVERYONE_PERMISSIONS } from './domain/limits';
