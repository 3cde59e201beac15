import { metricsResponse } from '@/lib/http/operations';

export const dynamic = 'force-dynamic';
export const GET = metricsResponse;
