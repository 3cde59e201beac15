import { describe, expect, it } from 'vitest';
import { CACHE_SECONDS, cacheHeaders } from '@/lib/http/cache';
import { OPERATIONS, openApiDocument } from '@/lib/docs/openapi';

// One cache table: the headers the routes send and the ones the OpenAPI document describes come from it.

describe('cache table', () => {
  it('a cacheable answer carries the browser and the shared-cache header with the same N', () => {
    expect(cacheHeaders('spot')).toEqual({ 'Cache-Control': 'public, max-age=30', 'CDN-Cache-Control': 'max-age=30, stale-while-revalidate=30' });
    expect(cacheHeaders('reserves')['CDN-Cache-Control']).toBe('max-age=3600, stale-while-revalidate=3600');
  });

  it('the OpenAPI document states both headers of every operation from the table', () => {
    const doc = openApiDocument('http://x') as any;
    for (const op of OPERATIONS) {
      const headers = doc.paths[op.path].get.responses['200'].headers;
      const n = CACHE_SECONDS[op.cache];
      expect(headers['Cache-Control'].schema.example, op.path).toBe(`public, max-age=${n}`);
      expect(headers['CDN-Cache-Control'].schema.example, op.path).toBe(`max-age=${n}, stale-while-revalidate=${n}`);
    }
    const chart = doc.paths['/api/v1/chart'].get.responses['200'].headers;
    expect(chart['Cache-Control'].description).toContain(`max-age=${CACHE_SECONDS.chartIntraday}`);
  });
});
