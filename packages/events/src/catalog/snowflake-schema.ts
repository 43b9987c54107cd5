import { z } from 'zod';

/** A snowflake as events carry it: a decimal string (D:reference.mdx §Snowflakes). */
export const snowflake = z.string().regex(/^\d{1,20}$/, 'not a snowflake');
