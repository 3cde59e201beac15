import { historyRoute } from '@/lib/http/series';

// Always CSV: the answer of /api/v1/history?format=csv, on a path of its own so the OpenAPI document types it as text.
export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = historyRoute('csv');
