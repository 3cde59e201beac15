import type { GetServerSidePropsContext, PageConfig } from 'next';
import { MCP_LIMIT } from '@/lib/mcp/rate-limit';
import { toolDocs, type ArgDoc } from '@/lib/mcp/server';
import { Code } from '@/site/code';
import { PageHead } from '@/site/layout';
import { originProps } from '@/site/page-props';

export const config: PageConfig = { unstable_runtimeJS: false };

/** Height of public/docs/mcp-apps.png (its width is 444), taken by tests/browser/mcp-apps.test.ts with UPDATE_SCREENSHOT=1. */
const IMAGE_HEIGHT = 603;

// The MCP server's modules are server code: what the page shows of them comes as props.
export async function getServerSideProps(ctx: GetServerSidePropsContext) {
  const { origin } = (await originProps(ctx)).props;
  return { props: { origin, limit: MCP_LIMIT, tools: toolDocs() } };
}

export default function McpDocs({ origin, limit, tools }: { origin: string; limit: number; tools: ReturnType<typeof toolDocs> }) {
  const url = `${origin}/mcp`;
  return (
    <>
      <PageHead title="MCP for AI agents" />
      <h1>MCP: gold data for AI agents</h1>
      <p className="lead">
        <code>{url}</code> is a stateless streamable-HTTP MCP endpoint (JSON-RPC 2.0 over POST, JSON responses, no session). No key. It speaks the
        2026-07-28 protocol and every version from 2024-10-07 to 2025-11-25. {limit} requests per minute per IP, whichever version a request speaks.
      </p>

      <h2 id="versions">Protocol versions: how a client picks one</h2>
      <p>The same URL serves both eras; what the client sends decides which answers it.</p>
      <ul>
        <li>
          <strong>2026-07-28</strong>, stateless: no <code>initialize</code>. Each request carries the protocol version, client capabilities and
          client info in <code>params._meta</code> and the <code>MCP-Protocol-Version</code>, <code>Mcp-Method</code> and <code>Mcp-Name</code>{' '}
          headers. <code>server/discover</code> lists the versions and capabilities served; <code>tools/list</code> and <code>server/discover</code>{' '}
          may be cached for an hour by anyone (<code>ttlMs</code>, <code>cacheScope: public</code>), as the tools change only with a redeploy; so may{' '}
          <code>resources/list</code> and <code>resources/read</code>, the views below.
        </li>
        <li>
          <strong>2024-10-07 to 2025-11-25</strong>: any request without that <code>_meta</code>. <code>initialize</code> negotiates the version (the
          client&apos;s when it is one of these, else 2025-11-25). The <code>Accept</code> header must list both <code>application/json</code> and{' '}
          <code>text/event-stream</code>, else 406.
        </li>
      </ul>
      <p>
        With the official TypeScript SDK,{' '}
        <code>
          new Client(info, {'{'} versionNegotiation: {'{'} mode: &apos;auto&apos; {'}'} {'}'})
        </code>{' '}
        probes with <code>server/discover</code> and speaks 2026-07-28 here; the default client speaks 2025-11-25. Both get the same tools and
        answers.
      </p>

      <h2 id="clients">Add it to your client</h2>
      <Code title="Claude Code">{`claude mcp add --transport http gold ${url}`}</Code>
      <Code title="Cursor (.cursor/mcp.json)">{JSON.stringify({ mcpServers: { gold: { url } } }, null, 2)}</Code>
      <Code title="VS Code (.vscode/mcp.json)">{JSON.stringify({ servers: { gold: { type: 'http', url } } }, null, 2)}</Code>
      <Code title="Windsurf (mcp_config.json)">{JSON.stringify({ mcpServers: { gold: { serverUrl: url } } }, null, 2)}</Code>
      <Code title="Clients that only speak stdio (for example Claude Desktop's config file), through mcp-remote">
        {JSON.stringify({ mcpServers: { gold: { command: 'npx', args: ['-y', 'mcp-remote', url] } } }, null, 2)}
      </Code>

      <h2 id="tools">Tools</h2>
      <p>
        All read-only. Each returns the same JSON as its REST endpoint in <code>structuredContent</code>, a one-line summary first in{' '}
        <code>content</code>, and declares an output schema.
      </p>
      <table>
        <thead>
          <tr>
            <th>tool</th>
            <th>arguments</th>
            <th>what it returns</th>
            <th>view</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((t) => (
            <tr key={t.name}>
              <td>
                <code>{t.name}</code>
              </td>
              <td>{t.args.length === 0 ? 'none' : t.args.map((a) => <Arg key={a.name} arg={a} />)}</td>
              <td>{t.description}</td>
              <td>{t.view ? <code>{t.view}</code> : 'none'}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 id="apps">What a host shows: the price and the chart in the answer</h2>
      <p>
        A host that renders MCP Apps (the <code>io.modelcontextprotocol/ui</code> extension, specification 2026-01-26: Claude, ChatGPT, VS Code
        Copilot Chat, Goose, Codex) draws the result of four tools inside the conversation, as the widgets draw it: <code>get_gold_price</code> in{' '}
        <code>ui://gold/price</code> (the price in the currency and unit asked, the change since the previous close with its sign and arrow, whether
        the market is closed, how fresh the figure is) and <code>get_gold_history</code>, <code>get_gold_intraday</code> and{' '}
        <code>compare_gold_to_asset</code> in <code>ui://gold/chart</code> (the series as a line with its high and low, the value under the pointer,
        and buttons for another range, which ask the host to call the same tool again; on a history chart <code>MAX</code> asks for the monthly series
        since 1960). Each view follows the host&apos;s light or dark theme and its language (the widgets&apos; eleven), and says
        &quot;unavailable&quot; rather than show a number it was not given.
      </p>
      <p>
        {/* A plain image: the site ships no framework runtime, and the picture is already at its size. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img
          src="/docs/mcp-apps.png"
          width={444}
          height={IMAGE_HEIGHT}
          alt="The price view showing gold in US dollars per troy ounce with its change since the previous close, and below it the chart view with three months of daily closes, their high and low, and range buttons"
          style={{ maxWidth: '100%', height: 'auto' }}
        />
      </p>
      <p>
        The views are resources (<code>resources/list</code>, <code>resources/read</code>, in both protocol eras) of mimeType{' '}
        <code>text/html;profile=mcp-app</code>, each one HTML document with its script and style inline. A tool names its view in{' '}
        <code>_meta.ui.resourceUri</code> (and the older flat <code>_meta[&quot;ui/resourceUri&quot;]</code>). A view loads nothing from any origin
        and fetches nothing: it draws the result the host hands it, so it declares no <code>_meta.ui.csp</code> or <code>domain</code> and runs under
        the host&apos;s default policy (<code>connect-src &apos;none&apos;</code>). A host without the extension sees the same text and{' '}
        <code>structuredContent</code> as ever.
      </p>

      <h2 id="states">Fresh, stale, unavailable</h2>
      <p>
        A fresh result gives the figure and its timestamp. A stale one gives the last real price, labelled <strong>STALE</strong> with its age in
        seconds. When nothing is known, the result says <strong>unavailable</strong> as an ordinary result with no number in it, not as a protocol
        error. A bad argument comes back as a result with <code>isError: true</code> naming the argument and the valid values (&quot;Invalid hours:
        abc. Valid values: a whole number from 1 to 48&quot;, &quot;symbol is required. Valid values: …&quot;). Malformed params of any method and an
        unknown tool are JSON-RPC errors <code>-32602</code> with one short sentence. Every answer says where you stand against the limit of 120
        requests a minute (per IPv4 address or IPv6 /64): <code>RateLimit-Policy: &quot;mcp&quot;;q=120;w=60</code> and{' '}
        <code>RateLimit: &quot;mcp&quot;;r=&lt;left&gt;;t=&lt;seconds&gt;</code>. Over it: HTTP 429 with <code>Retry-After</code> and a JSON-RPC error{' '}
        <code>-32029</code>. Hosted agent platforms call for all their users from a few published address ranges: each such range shares a pool of its
        own, 6,000 messages a minute for Anthropic&apos;s 160.79.104.0/21 (claude.ai and Claude&apos;s connectors), so their users are not limited
        together as one address (<code>MCP_POOLS</code> sets the pools of a deployment).
      </p>
      <p>
        <code>get_gold_price</code> names the source actually served (gold-api.com, or the swissquote.com bid/ask mid when the first is down) and
        carries <code>market</code>; when the market is closed its text says so and when it reopens, since a price that does not move on a Saturday is
        not a fault.
      </p>

      <h2 id="raw">Raw JSON-RPC</h2>
      <Code title="List the tools">{`curl -s ${url} \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'`}</Code>
      <Code title="Call one">{`curl -s ${url} \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_gold_price","arguments":{"currency":"EUR","unit":"gram"}}}'`}</Code>
      <Code title="The same call in the 2026-07-28 protocol (no initialize)">{`curl -s ${url} \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: get_gold_price' \\
  -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_gold_price","arguments":{"currency":"EUR"},
       "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},
                "io.modelcontextprotocol/clientInfo":{"name":"curl","version":"1"}}}}'`}</Code>
    </>
  );
}

/** One argument: its name, whether it is required, its values and default, generated from the tool's input schema. */
function Arg({ arg }: { arg: ArgDoc }) {
  return (
    <p style={{ margin: '0 0 6px' }}>
      <code>{arg.name}</code>
      {arg.required ? ' (required)' : ''}: {arg.description}
      {arg.values ? <> One of: {arg.values.join(', ')}.</> : null}
      {arg.default !== null ? (
        <>
          {' '}
          Default <code>{String(arg.default)}</code>.
        </>
      ) : null}
    </p>
  );
}
