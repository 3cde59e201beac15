import { historyRoute } from '@/lib/http/series';

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = historyRoute('json');
