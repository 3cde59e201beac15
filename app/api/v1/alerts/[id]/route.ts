import { alertRoute } from '@/lib/http/alerts';

// GET and DELETE /api/v1/alerts/{id}?token=…: an alert's manage URL (decisions §28).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = alertRoute();
