// Peer MCP server written with the TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4), the multi
// round-trip way (`inputRequired.elicit` / `inputRequired.elicitUrl`), used to test `mcp-elicit call` on
// 2026-07-28. The SDK serves 2025-era traffic from the same handlers through its legacy shim.
//
// Usage: node server_v2.mjs (--stdio | --port PORT)
//   --port PORT  Streamable HTTP on http://127.0.0.1:PORT/mcp (createMcpHandler behind node:http).
//
// Tools (every answer is reported back as JSON text, `round` counts the handler's entries):
//   form           one form with every field kind (defaults, pattern, formats, enums, multi-select);
//                  returns {"action", "content", "round"}.
//   two_questions  one round with two input requests ("who", "size"); returns {"who", "size"} (actions and
//                  contents).
//   multi_round    round 1 asks "plan"; round 2 asks "seats" (the plan rides requestState); returns
//                  {"plan", "seats", "rounds"}.
//   url            a URL step (elicitUrl); on accept returns {"action", "completed": true}.
//   url_waiting    a URL step; after the accept the server answers "still waiting" (requestState only)
//                  once, then completes: {"action", "completed", "waited"}.
import http from 'node:http';
import { McpServer, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const FORM_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, default: 'Ada Lovelace' },
    email: { type: 'string', format: 'email', default: 'ada@example.com' },
    code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2}$', default: 'ENG-42' },
    birthday: { type: 'string', format: 'date', default: '1815-12-10' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 36 },
    ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
    subscribe: { type: 'boolean', default: false },
    color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'green' },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'm', title: 'Medium' },
      ],
      default: 'm',
    },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, default: ['x'] },
  },
  required: ['name', 'code'],
};

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
const responses = (ctx) => ctx.mcpReq?.inputResponses ?? {};
const stateOf = (ctx) => {
  const s = ctx.mcpReq?.requestState;
  return typeof s === 'function' ? s() : s;
};

function build() {
  const server = new McpServer({ name: 'interop-ts-v2-server', version: '1.0.0' });
  let formRounds = 0;

  server.registerTool('form', { description: 'One form with every field kind' }, async (ctx) => {
    formRounds += 1;
    const answer = responses(ctx).profile;
    if (!answer) {
      return inputRequired({
        inputRequests: {
          profile: inputRequired.elicit({ message: 'Please complete your profile', requestedSchema: FORM_SCHEMA }),
        },
      });
    }
    return text({ action: answer.action, content: answer.content ?? null, round: formRounds });
  });

  server.registerTool('two_questions', { description: 'Two input requests in one round' }, async (ctx) => {
    const { who, size } = responses(ctx);
    if (!who || !size) {
      return inputRequired({
        inputRequests: {
          who: inputRequired.elicit({
            message: 'Who is the order for?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] },
          }),
          size: inputRequired.elicit({
            message: 'Which size?',
            requestedSchema: {
              type: 'object',
              properties: { size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' }, count: { type: 'integer', minimum: 1, default: 1 } },
            },
          }),
        },
        requestState: 'two-questions',
      });
    }
    return text({ who, size, state: stateOf(ctx) ?? null });
  });

  server.registerTool('multi_round', { description: 'Two rounds, the second depends on the first' }, async (ctx) => {
    const state = stateOf(ctx);
    const r = responses(ctx);
    if (!state) {
      return inputRequired({
        inputRequests: {
          plan: inputRequired.elicit({
            message: 'Step 1: choose a plan',
            requestedSchema: { type: 'object', properties: { plan: { type: 'string', enum: ['basic', 'pro'], default: 'basic' } } },
          }),
        },
        requestState: 'round-1',
      });
    }
    if (state === 'round-1') {
      const plan = r.plan?.content?.plan ?? null;
      return inputRequired({
        inputRequests: {
          seats: inputRequired.elicit({
            message: `Step 2: seats for the ${plan} plan`,
            requestedSchema: { type: 'object', properties: { seats: { type: 'integer', minimum: 1, maximum: 50, default: 2 } } },
          }),
        },
        requestState: `round-2:${plan}`,
      });
    }
    const plan = state.startsWith('round-2:') ? state.slice('round-2:'.length) : null;
    return text({ plan, seats: r.seats?.content?.seats ?? null, action: r.seats?.action ?? null, rounds: 3 });
  });

  server.registerTool('url', { description: 'A URL step' }, async (ctx) => {
    const answer = responses(ctx).connect;
    if (!answer) {
      return inputRequired({
        inputRequests: {
          connect: inputRequired.elicitUrl({ message: 'Connect your account', url: 'https://example.com/connect?step=1' }),
        },
        requestState: 'url-1',
      });
    }
    return text({ action: answer.action, completed: answer.action === 'accept', state: stateOf(ctx) ?? null });
  });

  server.registerTool('url_waiting', { description: 'A URL step that is still waiting once' }, async (ctx) => {
    const state = stateOf(ctx);
    const answer = responses(ctx).connect;
    if (!state) {
      return inputRequired({
        inputRequests: {
          connect: inputRequired.elicitUrl({ message: 'Connect your account', url: 'https://example.com/connect?step=2' }),
        },
        requestState: 'url-wait-1',
      });
    }
    if (state === 'url-wait-1') {
      if (answer?.action !== 'accept') return text({ action: answer?.action ?? null, completed: false, waited: false });
      // The user consented; the page is not finished yet.
      return inputRequired({ requestState: 'url-wait-2' });
    }
    return text({ action: 'accept', completed: true, waited: state === 'url-wait-2' });
  });

  return server;
}

function parseArgs(argv) {
  const opts = { stdio: false, port: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--stdio') opts.stdio = true;
    else if (argv[i] === '--port') opts.port = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!opts.stdio && opts.port === null) throw new Error('use --stdio or --port PORT');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.stdio) {
  serveStdio(build);
} else {
  const handler = createMcpHandler(build);
  const httpServer = http.createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
        else if (v !== undefined) headers.set(k, v);
      }
      const request = new Request(`http://127.0.0.1:${opts.port}${req.url}`, {
        method: req.method,
        headers,
        body: ['GET', 'HEAD'].includes(req.method) ? undefined : body,
      });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (response.body) {
        for await (const chunk of response.body) res.write(chunk);
      }
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    }
  });
  httpServer.listen(opts.port, '127.0.0.1', () => {
    console.log(JSON.stringify({ listening: `http://127.0.0.1:${opts.port}/mcp` }));
  });
}
