/**
 * The SQLSTATE the storage triggers raise when a write would take an application past its
 * quota (migration 20270125000000_application_storage).
 */
const STORAGE_QUOTA_SQLSTATE = 'AC413';

/** The connection settings that give the triggers the quota (0: none). */
export function storageQuotaSettings(quotaBytes: number): Record<string, string> {
  return { 'acs.storage_quota_bytes': String(quotaBytes) };
}

/** Whether a database error is the triggers' refusal of a write past the quota. */
export function isStorageQuotaRefusal(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === STORAGE_QUOTA_SQLSTATE
  );
}
