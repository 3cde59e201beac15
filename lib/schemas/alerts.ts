import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';
import { METAL_IDS } from '../reference/metals';
import { UNITS } from '../reference/units';

// POST /api/v1/alerts and its manage URL (decisions §28): the only description of what an alert request
// accepts and what the service answers (the handler's types, the OpenAPI document and the docs come from here).

const Level = z.number().positive().max(1e12).meta({ description: 'A price level in the alert’s currency and unit: positive, finite' });

export const WebhookTargetInput = z
  .object({
    url: z.string().max(2048).meta({
      description: 'Where deliveries are POSTed: https on a public address (no user name or password, no private, loopback or link-local address)',
    }),
  })
  .strict();

export const PushTargetInput = z
  .object({
    endpoint: z
      .string()
      .max(2048)
      .meta({ description: 'The PushSubscription’s endpoint: https on a known push service (Google, Mozilla, Apple, Microsoft)' }),
    keys: z
      .object({
        p256dh: z.string().max(200).meta({ description: 'The subscription’s P-256 public key, base64url' }),
        auth: z.string().max(100).meta({ description: 'The subscription’s authentication secret, base64url' }),
      })
      .strict(),
    expirationTime: z.number().nullable().optional().meta({ description: 'As `subscription.toJSON()` gives it; ignored' }),
  })
  .strict()
  .meta({ description: 'A browser’s PushSubscription (`subscription.toJSON()`; `expirationTime` is ignored)' });

export const AlertRequest = z
  .object({
    metal: z.enum(METAL_IDS).default('gold').meta({ description: 'The metal watched (default gold)' }),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .default('USD')
      .meta({ description: 'ISO 4217 code of the levels and the price delivered, any currency of spot (default USD)' }),
    unit: z.enum(UNITS).default('oz').meta({ description: 'Weight unit of the levels and the price delivered (default oz)' }),
    above: Level.optional().meta({ description: 'Fire when the price crosses up to this level (previous < level ≤ current)' }),
    below: Level.optional().meta({ description: 'Fire when the price crosses down to this level (current ≤ level < previous)' }),
    move_pct: z
      .number()
      .positive()
      .max(100)
      .optional()
      .meta({ description: 'Fire when the day change against the previous close (spot’s `change_pct`) reaches +P or −P percent' }),
    repeat: z.boolean().default(false).meta({
      description:
        'false (default): fire once; true: re-arm after the price goes back past the level by `rearm_pct`, at most one delivery in 10 minutes',
    }),
    rearm_pct: z.number().positive().max(50).default(0.5).meta({
      description:
        'How far (percent of the level; percentage points for move_pct, which must be above it) the price must go back before a repeating alert re-arms (default 0.5)',
    }),
    webhook: WebhookTargetInput.optional().meta({ description: 'Deliver by Standard Webhooks POSTs to this URL' }),
    push: PushTargetInput.optional().meta({ description: 'Deliver as a Web Push notification to this browser subscription' }),
  })
  .strict()
  .refine((a) => [a.above, a.below, a.move_pct].filter((v) => v !== undefined).length === 1, {
    message: 'exactly one condition: above, below or move_pct',
  })
  .refine((a) => (a.webhook === undefined) !== (a.push === undefined), { message: 'exactly one target: webhook {url} or push {endpoint, keys}' })
  // A repeating move_pct re-arms once |change| falls to move_pct − rearm_pct: at or below zero, it never would.
  .refine((a) => !(a.repeat && a.move_pct !== undefined && a.move_pct <= a.rearm_pct), {
    path: ['rearm_pct'],
    message:
      'a repeating move_pct alert must have move_pct above rearm_pct: it re-arms once the change is back within move_pct − rearm_pct points of the previous close, which cannot happen otherwise',
  })
  .meta({ description: 'A price alert: the metal in a currency and unit, one condition, one target' })
  .register(components, { id: 'AlertRequest' });
export type AlertRequest = z.output<typeof AlertRequest>;

export const AlertStatus = z.enum(['pending', 'active', 'fired', 'failing', 'disabled', 'expired']).meta({
  description:
    'pending: waiting for the target to answer the verification (24 h); active: armed; fired: a one-shot alert delivered its event; failing: the last delivery failed and is retried; disabled: 410 Gone or 3 events in a row undelivered; expired: past `expires_at`',
});

export const AlertCreated = z
  .object({
    id: z.string(),
    status: AlertStatus,
    manage_url: z.string().meta({ description: 'GET shows the alert, DELETE removes it. Keep it: its token is shown once' }),
    expires_at: Timestamp,
    secret: z
      .string()
      .optional()
      .meta({ description: 'Webhooks only: the signing secret (whsec_…) to verify each delivery with a Standard Webhooks library. Shown once' }),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ description: 'The alert created; its target receives an `alert.verification` event to answer' })
  .register(components, { id: 'AlertCreated' });
export type AlertCreated = z.infer<typeof AlertCreated>;

export const Condition = z
  .object({ type: z.enum(['above', 'below', 'move_pct']), value: z.number() })
  .meta({ description: 'The condition: a level, or P for move_pct' });

export const AlertDelivery = z.object({
  at: Timestamp,
  type: z.enum(['alert.verification', 'alert.triggered']),
  webhook_id: z.string(),
  attempt: z.number().int().positive(),
  http_status: z.number().int().nullable().meta({ description: 'The target’s HTTP status; null when none came (timeout, network, refused address)' }),
  outcome: z.enum(['delivered', 'retrying', 'failed']),
  error: z.string().optional(),
});

export const AlertView = z
  .object({
    id: z.string(),
    status: AlertStatus,
    metal: z.enum(METAL_IDS),
    currency: z.string(),
    unit: z.enum(UNITS),
    condition: Condition,
    repeat: z.boolean(),
    rearm_pct: z.number(),
    target: z.union([
      z.object({ type: z.literal('webhook'), url: z.string() }),
      z.object({ type: z.literal('push'), endpoint: z.string() }).meta({ description: 'The push endpoint (its keys are not shown)' }),
    ]),
    created_at: Timestamp,
    expires_at: Timestamp,
    last_fired_at: Timestamp.nullable(),
    fired_count: z.number().int(),
    delivered_count: z.number().int(),
    disabled_reason: z.string().nullable(),
    deliveries: z.array(AlertDelivery).meta({ description: 'The latest delivery attempts, newest first' }),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ description: 'One alert as its manage URL shows it' })
  .register(components, { id: 'AlertView' });
export type AlertView = z.infer<typeof AlertView>;

export const PushKey = z
  .object({
    public_key: z.string().meta({ description: 'The VAPID public key (base64url): the `applicationServerKey` of `pushManager.subscribe`' }),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ description: 'The deployment’s VAPID public key, for browsers subscribing to price alerts' })
  .register(components, { id: 'PushKey' });
export type PushKey = z.infer<typeof PushKey>;
