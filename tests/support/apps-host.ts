import { AppBridge, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/client';

// A host of MCP Apps in the browser, with the ext-apps package's own host side (AppBridge): it frames
// each view in a sandboxed iframe (scripts, no same origin), hands it the host context, then the
// tool's input and result, and answers its `tools/call` through `window.callTool` (the test's MCP
// client). tests/support/apps.ts bundles it and serves the page; window.host is what the test reads.

export interface HostedView {
  /** The view document's address. */
  src: string;
  toolInput: Record<string, unknown>;
  toolResult: CallToolResult;
  /** Words shown above the frame, as a conversation shows the agent's answer. */
  caption?: string;
}

export interface HostConfig {
  hostContext: McpUiHostContext;
  views: HostedView[];
  width: number;
}

export interface ViewState {
  initialized: boolean;
  app: { name: string; version: string } | undefined;
  calls: CallToolRequest['params'][];
  heights: number[];
}

declare global {
  interface Window {
    HOST: HostConfig;
    host: ViewState[];
    callTool(params: CallToolRequest['params']): Promise<CallToolResult>;
    changeContext(ctx: McpUiHostContext): void;
  }
}

const cfg = window.HOST;
window.host = [];
const bridges: AppBridge[] = [];

for (const view of cfg.views) {
  const state: ViewState = { initialized: false, app: undefined, calls: [], heights: [] };
  window.host.push(state);
  if (view.caption) document.body.append(Object.assign(document.createElement('p'), { textContent: view.caption }));
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'MCP App';
  frame.style.cssText = `width:${cfg.width}px;height:120px;border:0;display:block;margin-bottom:12px`;
  document.body.append(frame);

  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { serverTools: {} }, { hostContext: cfg.hostContext });
  bridges.push(bridge);
  bridge.oninitialized = () => {
    state.initialized = true;
    state.app = bridge.getAppVersion();
    void bridge.sendToolInput({ arguments: view.toolInput }).then(() => bridge.sendToolResult(view.toolResult));
  };
  bridge.oncalltool = async (params) => {
    state.calls.push(params);
    return window.callTool(params);
  };
  bridge.onsizechange = ({ height }) => {
    if (height === undefined) return;
    state.heights.push(height);
    frame.style.height = `${height}px`;
  };
  // Listening before the view loads: its first message is its ui/initialize.
  void bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!)).then(() => {
    frame.src = view.src;
  });
}

window.changeContext = (ctx) => {
  for (const b of bridges) b.setHostContext({ ...cfg.hostContext, ...ctx });
};
