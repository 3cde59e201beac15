import { z } from 'zod';
import { components } from './components';

// Shapes shared by every endpoint. These zod schemas are the only description of the responses:
// their types are inferred from them, the OpenAPI document is generated from them, and the MCP
// tools' output schemas are built on them (lib/mcp/tool.ts).

export const Timestamp = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC' });

export const DataState = z
  .object({
    status: z.enum(['fresh', 'stale', 'unavailable']).meta({
      description: 'fresh: from the upstream now or within its cache TTL; stale: the last real value during an outage; unavailable: none held',
    }),
    as_of: Timestamp.nullable().meta({ description: "The upstream's own timestamp of the value, else when it was fetched" }),
    source: z.enum(['upstream', 'cache', 'snapshot']).nullable().meta({
      description: 'upstream: fetched for this request; cache: from the cache or store; snapshot: bundled with the release',
    }),
    age_seconds: z.number().int().nonnegative().nullable().meta({ description: 'Seconds between `as_of` and the response' }),
  })
  .meta({ description: 'Freshness of the primary data of a response, at generation time' })
  .register(components, { id: 'DataState' });
export type DataState = z.infer<typeof DataState>;

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'What went wrong, in words' }),
    supported: z.array(z.string()).optional().meta({ description: 'Supported currency codes (unsupported-currency errors)' }),
    valid: z.array(z.string()).optional().meta({ description: 'Valid values of the parameter (invalid-value errors)' }),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ description: 'Every REST error' })
  .register(components, { id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;
