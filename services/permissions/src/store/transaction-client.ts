import type { Prisma } from '../generated/prisma/client';

/** The client handed to an interactive transaction. */
export type TransactionClient = Prisma.TransactionClient;
