// The permission flags are shared by every service (`@acs/validation`); re-exported here so
// that the permissions domain reads them from one place.
export {
  ALL_PERMISSIONS,
  hasPermissions,
  namePermissions,
  NO_PERMISSIONS,
  PERMISSION_FLAGS,
  PERMISSION_NAMES,
  type PermissionName,
} from '@acs/validation';
