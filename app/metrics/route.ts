import { metricsResponse } from '@/lib/http/prometheus';

export const dynamic = 'force-dynamic';
export const GET = metricsResponse;
