// Types of migrate-services.js.
import type { ServiceFolder } from './stack';

/**
 * Applies each service's migrations with `infra/bin/prisma.js migrate deploy`, one after
 * the other, ending each run as soon as Prisma reports success.
 */
export function migrateServices(
  services: Pick<ServiceFolder, 'name' | 'dir'>[],
  databaseUrl: string,
  report?: (message: string) => void,
): Promise<void>;
