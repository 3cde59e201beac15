import type { PageConfig } from 'next';
import { browserCache, CACHE_SECONDS, sharedCache } from '@/lib/http/cache';
import { OPERATIONS, openApiDocument, STREAM_OPERATION, type Operation } from '@/lib/docs/openapi';
import { Code } from '@/site/code';
import { PageHead } from '@/site/layout';
import { originProps, type OriginProps } from '@/site/page-props';
import { streamCurl, streamEventSource } from '@/site/stream-snippets';

// Generated from the OpenAPI document, so the reference cannot drift from the API.

interface Param {
  name: string;
  in?: string;
  required: boolean;
  description?: string;
  schema: { type?: string; enum?: string[]; const?: string; default?: unknown; minimum?: number; maximum?: number };
  example?: unknown;
}

function typeOf(p: Param): string {
  const s = p.schema;
  if (s.enum) return s.enum.join(' | ');
  if (s.const !== undefined) return String(s.const);
  const range = s.minimum !== undefined && s.maximum !== undefined ? ` ${s.minimum}–${s.maximum}` : '';
  return `${s.type ?? 'string'}${range}`;
}

function exampleQuery(params: Param[]): string {
  const q = new URLSearchParams();
  for (const p of params) if (p.example !== undefined) q.set(p.name, String(p.example));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A 200's caching header value from the one cache table, with chart's intraday alternative. */
function caching(op: Operation, value: (n: number) => string): string {
  const alt = op.cacheIntraday ? ` (intraday intervals: ${value(CACHE_SECONDS[op.cacheIntraday])})` : '';
  return value(CACHE_SECONDS[op.cache]) + alt;
}

/** An example body, shortened where a list would fill the page. */
function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 4 ? [...value.slice(0, 3).map(shorten), `… ${value.length - 3} more`] : value.map(shorten);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length > 12 && entries.every(([, v]) => typeof v === 'number'))
      return Object.fromEntries([...entries.slice(0, 4), ['…', `${entries.length - 4} more`]]);
    return Object.fromEntries(entries.map(([k, v]) => [k, shorten(v)]));
  }
  return value;
}

function Params({ params }: { params: Param[] }) {
  if (params.length === 0) return <p className="muted">No parameters.</p>;
  return (
    <>
      <h3>Query parameters</h3>
      <table>
        <thead>
          <tr>
            <th>name</th>
            <th>values</th>
            <th>default</th>
            <th>description</th>
          </tr>
        </thead>
        <tbody>
          {params.map((p) => (
            <tr key={p.name}>
              <td>
                <code>{p.name}</code>
                {p.required ? ' (required)' : ''}
              </td>
              <td>
                <code>{typeOf(p)}</code>
              </td>
              <td>{p.schema.default !== undefined ? <code>{String(p.schema.default)}</code> : '—'}</td>
              <td>{p.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Responses({ responses }: { responses: Record<string, { description: string }> }) {
  return (
    <>
      <h3>Responses</h3>
      <table>
        <thead>
          <tr>
            <th>status</th>
            <th>when</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(responses).map(([status, r]) => (
            <tr key={status}>
              <td>
                <code>{status}</code>
              </td>
              <td>{r.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** GET /api/v1/stream: pushed, not answered, so its own section (curl -N and EventSource instead of fetch, no caching). */
/** An endpoint's heading and summary, the anchor its section is labelled by. */
function EndpointHeading({ op }: { op: { operationId: string; path: string; summary: string; description: string } }) {
  return (
    <>
      <h2 id={op.operationId}>
        <span className="method">GET</span>
        <code>{op.path}</code>
      </h2>
      <p>
        <strong>{op.summary}.</strong> {op.description}
      </p>
    </>
  );
}

function StreamSection({ origin, get }: { origin: string; get: { parameters: Param[]; responses: Record<string, { description: string }> } }) {
  const op = STREAM_OPERATION;
  return (
    <section className="endpoint" aria-labelledby={op.operationId}>
      <EndpointHeading op={op} />
      {/* Last-Event-ID, the one header, is EventSource's own business: the description says what it does. */}
      <Params params={get.parameters.filter((p) => p.in === 'query')} />
      <h3>Example</h3>
      <Code title="curl: each event prints as it comes">{streamCurl(origin)}</Code>
      <Code title="EventSource, in any page (CORS is open)">{streamEventSource(origin)}</Code>
      <Code title="One price event's data (a real event of this service)">{JSON.stringify(shorten(op.ok.example), null, 2)}</Code>
      <Responses responses={get.responses} />
      <p className="muted">
        On 200, <code>Content-Type: text/event-stream</code>, <code>Cache-Control: no-store, no-transform</code> and{' '}
        <code>X-Accel-Buffering: no</code>: no cache, compression or proxy holds an event back. Widgets and the landing page follow it (
        <a href="/docs/widgets">live=0 polls instead</a>).
      </p>
    </section>
  );
}

export const config: PageConfig = { unstable_runtimeJS: false };
export const getServerSideProps = originProps;

export default function ApiReference({ origin }: OriginProps) {
  const doc = openApiDocument(origin) as {
    paths: Record<string, { get: { parameters: Param[]; responses: Record<string, { description: string }> } }>;
  };
  return (
    <>
      <PageHead title="API reference" />
      <h1>API reference</h1>
      <p className="lead">
        Base URL <code>{origin}</code>. GET only, JSON, CORS open, no key. Machine-readable: <a href="/api/openapi.json">OpenAPI 3.1</a>.
      </p>
      <ul className="toc">
        {OPERATIONS.map((op) => (
          <li key={op.path}>
            <a href={`#${op.operationId}`}>{op.path}</a>
          </li>
        ))}
        <li>
          <a href={`#${STREAM_OPERATION.operationId}`}>{STREAM_OPERATION.path}</a> (pushed)
        </li>
      </ul>
      {OPERATIONS.map((op) => {
        const get = doc.paths[op.path].get;
        const url = `${origin}${op.path}${exampleQuery(get.parameters)}`;
        return (
          <section key={op.path} className="endpoint" aria-labelledby={op.operationId}>
            <EndpointHeading op={op} />
            <Params params={get.parameters} />
            <h3>Example</h3>
            <Code title="curl">{`curl '${url}'`}</Code>
            <Code title="fetch">{`const ${op.csvOnly ? 'csv' : op.textOnly ? 'price' : 'body'} = await (await fetch('${url}')).${op.csvOnly || op.textOnly ? 'text' : 'json'}();`}</Code>
            {op.ok.example ? (
              <Code title="Response (a real response of this service, shortened)">
                {typeof op.ok.example === 'string' ? op.ok.example : JSON.stringify(shorten(op.ok.example), null, 2)}
              </Code>
            ) : null}
            <Responses responses={get.responses} />
            <p className="muted">
              On 200, <code>Cache-Control: {caching(op, browserCache)}</code> and <code>CDN-Cache-Control: {caching(op, sharedCache)}</code>, with{' '}
              <code>ETag</code> and <code>Last-Modified</code>: send them back in <code>If-None-Match</code> (or <code>If-Modified-Since</code>) and
              an answer you already hold costs a 304 with no body; errors: <code>no-store</code>, no validator.{' '}
              {op.textOnly ? (
                <>
                  The freshness is in <code>X-Data-State</code> and <code>X-Updated-At</code>; errors are one line of text too (a 405 is JSON).
                  Recipes for spreadsheets, Home Assistant and shells: <a href="/docs/recipes">Recipes</a>.
                </>
              ) : op.csvOnly ? (
                <>
                  The freshness is in <code>X-Data-State</code> and <code>X-Updated-At</code>; error bodies are JSON with <code>data_state</code> and{' '}
                  <code>updated_at</code>.
                </>
              ) : (
                <>
                  Every body carries <code>data_state</code> and <code>updated_at</code>.
                </>
              )}
            </p>
          </section>
        );
      })}
      <StreamSection origin={origin} get={doc.paths[STREAM_OPERATION.path].get} />
    </>
  );
}
