import { pushKeyRoute } from '@/lib/http/alerts';

// GET /api/v1/alerts/push-key: the VAPID public key browsers subscribe to price alerts with (decisions §28).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = pushKeyRoute();
