// Peer MCP server written with the TypeScript SDK, used to test `mcp-elicit call` (and the peer clients).
//
// Usage: node server.mjs (--stdio | --port PORT) [--complete-delay-ms MS]
//   --port PORT  Streamable HTTP on http://127.0.0.1:PORT/mcp (PORT 0 picks one); prints
//                {"listening":"http://127.0.0.1:N/mcp"} on stdout once ready.
//
// Tools (identical in interop/py/server.py):
//   all_kinds        form elicitation covering every field kind (defaults, a pattern, formats, enums);
//                    the answer is validated by the SDK (AJV); returns {"action", "content"} as JSON text.
//   url_flow         {"url"?} URL elicitation (to `url` if given, even a hostile one); on accept sends
//                    notifications/elicitation/complete (on the call's stream) before returning
//                    {"action", "elicitationId", "completed"}.
//   url_required     fails with -32042 (UrlElicitationRequiredError) until its elicitation is completed;
//                    completion is announced with notifications/elicitation/complete after
//                    --complete-delay-ms (default 300) on the standalone stream; then succeeds.
//   undeclared_mode  {"mode": "url"|"form"} sends an elicitation of that mode whatever the client declared
//                    and reports what came back: {"sent", "error": {"code","message"}} or {"sent","result"}.
//   client_capabilities  returns the capabilities the client declared at initialize.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  McpError,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';

const ALL_KINDS_SCHEMA = JSON.parse(readFileSync(new URL('../all-kinds-schema.json', import.meta.url), 'utf8'));

function parseArgs(argv) {
  const opts = { stdio: false, port: null, completeDelayMs: 300 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stdio') opts.stdio = true;
    else if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--complete-delay-ms') opts.completeDelayMs = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (opts.stdio === (opts.port !== null)) throw new Error('give exactly one of --stdio or --port PORT');
  return opts;
}

const TOOLS = [
  { name: 'all_kinds', description: 'Asks for a profile with every form field kind', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'url_flow',
    description: 'Sends the user to a URL (default https://example.com/connect/ID, or `url`), then reports completion',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
  },
  { name: 'url_required', description: 'Requires a URL elicitation (-32042) before it succeeds', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'undeclared_mode',
    description: 'Sends an elicitation of the given mode even if the client did not declare it',
    inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: ['url', 'form'] } } },
  },
  { name: 'client_capabilities', description: 'Returns the client capabilities', inputSchema: { type: 'object', properties: {} } },
];

const text = (value, isError = false) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], isError });

// One MCP server per connection (per HTTP session, or the single stdio connection).
function makeServer(opts) {
  const server = new Server({ name: 'interop-ts-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  // url_required state of this connection: the pending elicitation, and whether it completed.
  const required = { id: null, completed: false };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const related = { relatedRequestId: extra.requestId };
    switch (req.params.name) {
      case 'all_kinds': {
        // elicitInput validates an accepted answer against the schema with AJV (throws -32602 if not).
        const result = await server.elicitInput(
          { mode: 'form', message: 'Please complete your profile', requestedSchema: ALL_KINDS_SCHEMA },
          related,
        );
        return text({ action: result.action, content: result.content ?? null });
      }
      case 'url_flow': {
        const elicitationId = randomUUID();
        const result = await server.elicitInput(
          {
            mode: 'url',
            message: 'Connect your example.com account',
            url: req.params.arguments?.url ?? `https://example.com/connect/${elicitationId}`,
            elicitationId,
          },
          related,
        );
        let completed = false;
        if (result.action === 'accept') {
          await server.createElicitationCompletionNotifier(elicitationId, related)();
          completed = true;
        }
        return text({ action: result.action, elicitationId, completed });
      }
      case 'url_required': {
        if (required.completed) return text({ authorized: true, elicitationId: required.id });
        if (required.id === null) {
          required.id = randomUUID();
          const id = required.id;
          // Simulates the out-of-band interaction finishing a little later; unrelated to any request, so
          // on HTTP it goes out on the standalone GET stream.
          setTimeout(() => {
            required.completed = true;
            Promise.resolve()
              .then(() => server.createElicitationCompletionNotifier(id)())
              .catch((e) => console.error('completion notify failed:', e));
          }, opts.completeDelayMs);
        }
        throw new UrlElicitationRequiredError([
          {
            mode: 'url',
            message: 'Authorize access to your example.com files',
            url: `https://example.com/authorize/${required.id}`,
            elicitationId: required.id,
          },
        ]);
      }
      case 'undeclared_mode': {
        const mode = req.params.arguments?.mode ?? 'url';
        const params =
          mode === 'url'
            ? { mode: 'url', message: 'Open this page', url: 'https://example.com/undeclared', elicitationId: randomUUID() }
            : { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
        try {
          // extra.sendRequest skips the SDK's own per-mode capability check.
          const result = await extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema);
          return text({ sent: mode, result });
        } catch (e) {
          if (e instanceof McpError) return text({ sent: mode, error: { code: e.code, message: e.message } });
          return text({ sent: mode, error: { code: null, message: String(e) } });
        }
      }
      case 'client_capabilities':
        return text({ capabilities: server.getClientCapabilities() ?? null });
      default:
        return text({ error: `unknown tool ${req.params.name}` }, true);
    }
  });
  return server;
}

async function serveStdio(opts) {
  const server = makeServer(opts);
  await server.connect(new StdioServerTransport());
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (body.length === 0) return resolve(undefined);
      try {
        resolve(JSON.parse(body));
      } catch (e) {
        reject(e);
      }
    });
    req.on('error', reject);
  });
}

async function serveHttp(opts) {
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (url.pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (req.method !== 'POST' || sessionId !== undefined || body?.method !== 'initialize') {
          res.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'unknown or missing session' }, id: null }));
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => transports.set(id, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) transports.delete(transport.sessionId);
        };
        await makeServer(opts).connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (!res.headersSent) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: String(e) }, id: null }));
      }
    }
  });
  await new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(opts.port, '127.0.0.1', resolve);
  });
  console.log(JSON.stringify({ listening: `http://127.0.0.1:${httpServer.address().port}/mcp` }));
  const stop = () => {
    for (const t of transports.values()) t.close().catch(() => {});
    httpServer.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const opts = parseArgs(process.argv.slice(2));
if (opts.stdio) await serveStdio(opts);
else await serveHttp(opts);
