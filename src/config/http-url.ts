import { z } from 'zod';

/** An http:// or https:// URL. The value is never echoed: a webhook's path may be its secret. */
export const httpUrl = z.string().refine(
  (value) => {
    try {
      const { protocol } = new URL(value);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  },
  { message: 'expected an http:// or https:// URL' },
);
