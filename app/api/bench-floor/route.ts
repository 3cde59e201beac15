// The benchmark's framework floor (bench/run.ts): a route handler that does no work at all and
// answers a constant body the size of a full spot answer, so the benchmark can tell what the
// framework itself costs. Not part of the service: 404 unless BENCH_FLOOR=1.

const BODY = JSON.stringify({ floor: true, pad: 'x'.repeat(4200) });

export function GET(): Response {
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' };
  if (process.env.BENCH_FLOOR !== '1') return Response.json({ error: 'Not found' }, { status: 404, headers });
  return new Response(BODY, { headers });
}
