// Benchmark peer: the `test_elicitation` tool written with the TypeScript SDK
// (@modelcontextprotocol/sdk 1.32), over Streamable HTTP with stateful sessions.
//
// Usage: node server.mjs --port PORT     (listens on http://127.0.0.1:PORT/mcp)
//
// test_elicitation {message}: a form elicitation for `username` and `email` sent on the
// call's own stream (related to the tools/call request, as `extra.sendRequest` does),
// the answer checked against the schema by the SDK (AJV), then the text result
// "User response: action=<action>, content=<JSON>" — the same tool and result as
// `mcp-elicit serve --conformance` and bench/py/server.py.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const args = process.argv.slice(2);
const portIndex = args.indexOf('--port');
const port = portIndex >= 0 ? Number(args[portIndex + 1]) : NaN;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: node server.mjs --port PORT');
  process.exit(2);
}

const SCHEMA = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

const TOOLS = [
  {
    name: 'test_elicitation',
    description: 'Requests user input (username and email) from the client through elicitation/create.',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    },
  },
];

function makeServer() {
  const server = new Server({ name: 'bench-ts-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    if (req.params.name !== 'test_elicitation') {
      return { content: [{ type: 'text', text: `unknown tool ${req.params.name}` }], isError: true };
    }
    const message = req.params.arguments?.message;
    if (typeof message !== 'string') {
      return { content: [{ type: 'text', text: '`message` (a string) is required' }], isError: true };
    }
    // Related to this call: it travels on the call's own SSE stream (what extra.sendRequest
    // does), and elicitInput validates an accepted answer with AJV.
    const result = await server.elicitInput(
      { mode: 'form', message, requestedSchema: SCHEMA },
      { relatedRequestId: extra.requestId },
    );
    const line =
      result.action === 'accept'
        ? `User response: action=accept, content=${JSON.stringify(result.content ?? {})}`
        : `User response: action=${result.action}`;
    return { content: [{ type: 'text', text: line }] };
  });
  return server;
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
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await makeServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  } catch (e) {
    if (!res.headersSent) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: String(e) }, id: null }));
    }
  }
});

httpServer.listen(port, '127.0.0.1', () => {
  console.log(JSON.stringify({ listening: `http://127.0.0.1:${httpServer.address().port}/mcp` }));
});

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
