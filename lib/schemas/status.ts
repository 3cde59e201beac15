import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';

// GET /api/v1/status, the /status page and the MCP tool get_data_status (decisions §26): how each upstream and
// the service's own record have behaved, from the outcomes every instance records in the store.

const Share = z
  .object({
    ratio: z.number().min(0).max(1).nullable().meta({ description: 'successes ÷ attempts, 4 decimals; null without attempts' }),
    successes: z.number().int().nonnegative(),
    attempts: z.number().int().nonnegative(),
  })
  .register(components, { id: 'Availability' });

export const UPSTREAM_STATES = ['ok', 'degraded', 'down', 'unused'] as const;

export const UpstreamStatus = z
  .object({
    id: z.string().meta({ description: 'Stable identifier' }),
    name: z.string().meta({ description: 'The upstream, as attributions name it' }),
    role: z.string().meta({ description: 'What the service takes from it' }),
    state: z.enum(UPSTREAM_STATES).meta({
      description:
        'unused: no attempt in the 7 days kept; down: the latest attempt failed and none succeeded in the last 15 minutes; ' +
        "degraded: otherwise, the latest attempt failed or under 95% of the last 60 minutes' attempts succeeded; ok: the rest",
    }),
    last_success: Timestamp.nullable().meta({ description: 'When the latest successful attempt ended (kept 8 days)' }),
    last_failure: z
      .object({
        at: Timestamp,
        kind: z.enum(['timeout', 'http', 'invalid', 'network']).meta({
          description:
            'timeout: no answer in time; http: a non-2xx status; invalid: not JSON, wrong shape or an implausible value; network: refused or cut off',
        }),
        status: z.number().int().nullable().meta({ description: 'The HTTP status, when an answer came' }),
      })
      .nullable(),
    availability: z.object({ h24: Share, d7: Share }).meta({ description: 'Successful attempts ÷ attempts over the last 24 hours and 7 days' }),
    latency_ms: z
      .object({
        p50: z.number().nullable(),
        p95: z.number().nullable(),
        samples: z.number().int().nonnegative(),
      })
      .meta({
        description:
          'Successful answers over the last 24 hours (whole hours), from a histogram: each figure is the upper bound of the bin holding it ' +
          '(50, 100, 200, 300, 500, 750 ms, 1, 1.5, 2, 3, 5, 10 s; slower reads 10000); null without samples',
      }),
  })
  .register(components, { id: 'UpstreamStatus' });
export type UpstreamStatus = z.infer<typeof UpstreamStatus>;

export const Agreement = z
  .object({
    metal: z.string(),
    pairs: z.number().int().nonnegative().meta({ description: 'New pairs of fresh prices from both live sources in the last 24 hours' }),
    median_bp: z
      .number()
      .nullable()
      .meta({ description: 'Median of |primary ÷ second source mid − 1|, basis points (2 decimals); null without pairs' }),
    max_bp: z.number().nullable().meta({ description: 'Largest such gap, basis points' }),
    cross_check_failures: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: 'Pairs past the cross-check threshold (served one was chosen, decisions §10)' }),
    threshold_bp: z.number().meta({ description: 'The cross-check threshold, basis points (150 = 1.5%)' }),
  })
  .register(components, { id: 'Agreement' });

export const RecordStatus = z
  .object({
    metal: z.string(),
    symbol: z.string().meta({ description: '`symbol` of history?series=spot' }),
    sessions: z
      .array(
        z.object({
          date: z.iso.date().meta({ description: 'Session date (New York, the day it closes)' }),
          n: z.number().int().nullable().meta({ description: 'Prices folded into its bar; null when imported or when there is no bar' }),
          final: z.boolean().meta({ description: 'False for the session in progress' }),
          origin: z.enum(['recorded', 'imported']).nullable().meta({ description: 'Null: no bar' }),
        }),
      )
      .meta({ description: 'The last 30 market sessions, oldest first' }),
    missing_sessions: z.array(z.iso.date()).meta({
      description: 'Closed sessions among those 30, since the first bar kept, with no bar: the market was open and nothing was recorded',
    }),
    sampler: z.object({
      last_run: Timestamp.nullable().meta({ description: "When the sampler's latest run started (any instance or trigger)" }),
      outcome: z.string().nullable().meta({ description: 'What it did for this metal: recorded, market closed, no fresh price…' }),
    }),
  })
  .register(components, { id: 'RecordStatus' });

export const StoreStatus = z
  .object({
    kind: z
      .enum(['embedded', 'kv', 'redis'])
      .meta({ description: 'embedded: SQLite in DATA_DIR; kv: Upstash Redis / Vercel KV over REST; redis: a Redis over TCP (REDIS_URL)' }),
    answers: z.boolean().meta({ description: 'Whether it answered just now (false: the record shown is the last reading, stale)' }),
    degraded_since: Timestamp.nullable(),
  })
  .register(components, { id: 'StoreStatus' });

export const AlertCounts = z
  .object({
    enabled: z.boolean().meta({ description: 'false when the deployment turned alerts off (ALERTS=off)' }),
    armed: z.number().int().meta({ description: 'Alerts a crossing would fire now' }),
    pending: z.number().int().meta({ description: 'Alerts whose target has not answered the verification yet' }),
    failing: z.number().int().meta({ description: 'Alerts whose last delivery failed' }),
    fired: z.number().int().meta({ description: 'Events fired since the store began' }),
    delivered: z.number().int().meta({ description: 'Events delivered (2xx) since the store began' }),
    failed: z.number().int().meta({ description: 'Events that could not be delivered since the store began' }),
  })
  .meta({ description: 'The price alerts (POST /api/v1/alerts), every instance counted' })
  .register(components, { id: 'AlertCounts' });

export const Status = z
  .object({
    upstreams: z.array(UpstreamStatus),
    agreement: z.array(Agreement).meta({ description: 'The two live spot sources over the last 24 hours, per metal' }),
    record: z.array(RecordStatus).meta({ description: 'The daily spot bars and the sampler, per metal' }),
    store: StoreStatus,
    alerts: AlertCounts,
    version: z.string().meta({ description: 'The running build (semver)' }),
    data_state: DataState.meta({
      description:
        'The record itself: fresh when read from the store now; stale when the store does not answer and this instance read it before (its last reading); unavailable when it never did',
    }),
    updated_at: Timestamp,
  })
  .meta({ description: "How each upstream and the service's own record have behaved" })
  .register(components, { id: 'Status' });
export type Status = z.infer<typeof Status>;
