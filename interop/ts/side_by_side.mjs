// docs/side-by-side.md: the quickstart's two tools with the TypeScript SDK v1 (1.32.2).
// Usage: node side_by_side.mjs --port PORT   (Streamable HTTP on http://127.0.0.1:PORT/mcp)
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const base = `http://127.0.0.1:${port}`;
const linked = new Set();
const pending = new Map(); // elicitation id -> the server (connection) it was sent on
const sessions = new Map();
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const booking = {
  type: 'object',
  required: ['party_size', 'date', 'seating'],
  properties: {
    party_size: { type: 'integer', minimum: 1, maximum: 12, description: 'How many people' },
    date: { type: 'string', format: 'date', description: 'Which day' },
    seating: { type: 'string', enum: ['Indoor', 'Terrace'] },
  },
};

function makeServer() {
  const mcp = new McpServer({ name: 'side-by-side', version: '1.0.0' });
  mcp.registerTool('book_table', { description: 'Books a table' }, async (extra) => {
    const form = { mode: 'form', message: 'Book a table', requestedSchema: booking };
    const r = await mcp.server.elicitInput(form, { relatedRequestId: extra.requestId });
    if (r.action !== 'accept') return text('Nothing booked');
    return text(`Table for ${r.content.party_size} on ${r.content.date}, ${r.content.seating}`);
  });
  mcp.registerTool('link_calendar', { description: 'Links your calendar' }, async () => {
    if (linked.has('local')) return text('Your calendar is linked');
    const elicitationId = randomUUID();
    pending.set(elicitationId, mcp.server);
    const url = `${base}/callback?elicitationId=${elicitationId}`;
    throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Link your calendar', url, elicitationId }]);
  });
  return mcp;
}

async function callback(req, res, url) {
  if (req.method === 'GET') return res.end('<form method=post><button>Link my calendar</button></form>');
  const id = url.searchParams.get('elicitationId');
  const server = pending.get(id);
  if (!server) return res.end('Nothing to link');
  pending.delete(id);
  linked.add('local');
  await server.createElicitationCompletionNotifier(id)();
  res.end('Calendar linked: go back to your MCP client');
}

http.createServer(async (req, res) => {
  const url = new URL(req.url, base);
  if (url.pathname === '/callback') return callback(req, res, url);
  const id = req.headers['mcp-session-id'];
  let transport = sessions.get(id);
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    await makeServer().connect(transport);
  }
  await transport.handleRequest(req, res);
}).listen(port, '127.0.0.1');
