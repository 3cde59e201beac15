import { chartRoute } from '@/lib/http/series';

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = chartRoute('json');
