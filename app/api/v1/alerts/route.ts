import { alertCollectionRoute } from '@/lib/http/alerts';

// POST /api/v1/alerts: creates a price alert (decisions §28).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = alertCollectionRoute();
