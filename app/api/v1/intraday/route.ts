import { intradayRoute } from '@/lib/http/series';

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = intradayRoute('json');
