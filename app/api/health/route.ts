import { healthResponse } from '@/lib/http/health';
import { restRoute } from '@/lib/http/route';

const route = restRoute({ get: healthResponse });

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
