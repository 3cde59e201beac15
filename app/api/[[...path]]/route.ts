import { unknownApiRoute } from '@/lib/http/route';
import { goldState } from '@/lib/prices/spot';

// Every path under /api/ that no other route serves: a JSON 404 an API client can read, not the site's HTML page.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = unknownApiRoute(goldState);
