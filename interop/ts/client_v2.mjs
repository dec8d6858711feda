// Peer MCP client on the 2026-07-28 revision, written with the TypeScript SDK v2 (`@modelcontextprotocol/client`
// 2.4), used to test `mcp-elicit serve` with multi round-trip requests (SEP-2322).
//
// The client negotiates with `versionNegotiation: {mode: 'auto'}` (server/discover; the SDK's default is the 2025
// handshake) and keeps the rest of its defaults: `callTool()` fulfils `input_required` results through the handler
// registered for `elicitation/create` (ctx.mcpReq.id is the inputRequests key) and retries with `inputResponses`
// and the byte-exact `requestState`.
//
// Usage: node client_v2.mjs --scenario SCENARIO --tool NAME [options] (--url URL | -- CMD [ARGS...])
//   --scenario form         call TOOL through the SDK's driver; the handler answers every form with --answers over
//                           the schema defaults (or declines / cancels with --action)
//              url          the same for URL mode: with --visit post the handler plays the user's browser (GET,
//                           then POST the page) before it answers accept
//              url-waiting  drive the rounds by hand (allowInputRequired): accept without visiting, expect another
//                           input_required (still waiting), finish the page, retry, expect the result
//              tamper       drive the rounds by hand: answer the first round with a modified requestState (several
//                           ways), expect -32602 each time, then the genuine state, expect the result
//   --args JSON  --action accept|decline|cancel  --key-actions JSON  --answers JSON  --visit none|get|post
//   --modes LIST            elicitation modes to declare (default form,url)  --timeout SECS (default 30)
//   --sampling-roots        also declare sampling and roots (handlers answer a fixed text and one root)
// Prints one JSON summary line; exit 0 when every assertion held, 1 otherwise, 2 on a hang. The summary records
// every handler call (key, round, the params as the handler got them, the same request as it arrived on the wire
// and whether the two are equal), and the raw wire legs (what each tools/call carried and what came back, as JSON
// received by the transport).
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const INVALID_PARAMS = -32602;

function parseArgs(argv) {
  const o = {
    scenario: null, tool: null, url: null, command: null, args: {}, action: 'accept', keyActions: {}, answers: {},
    modes: ['form', 'url'], visit: 'none', timeout: 30,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--') {
      o.command = argv.slice(i + 1);
      break;
    } else if (a === '--scenario') o.scenario = next();
    else if (a === '--tool') o.tool = next();
    else if (a === '--url') o.url = next();
    else if (a === '--args') o.args = JSON.parse(next());
    else if (a === '--action') o.action = next();
    else if (a === '--key-actions') o.keyActions = JSON.parse(next());
    else if (a === '--answers') o.answers = JSON.parse(next());
    else if (a === '--modes') o.modes = next().split(',').filter(Boolean);
    else if (a === '--visit') o.visit = next();
    else if (a === '--timeout') o.timeout = Number(next());
    else if (a === '--sampling-roots') o.samplingRoots = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!['form', 'url', 'url-waiting', 'tamper'].includes(o.scenario)) throw new Error('--scenario form|url|url-waiting|tamper');
  if (!o.tool) throw new Error('--tool is required');
  if ((o.url === null) === (o.command === null || o.command.length === 0)) throw new Error('give --url URL or -- CMD ARGS');
  return o;
}

const summary = {
  peer: 'ts-client-v2', scenario: null, transport: null, protocolVersion: null, ok: false, failures: [],
  elicitations: [], legs: [], visited: [], result: null, error: null, tampered: [],
};
const fail = (msg) => summary.failures.push(msg);
const done = (code) => {
  summary.ok = summary.failures.length === 0 && code === 0;
  process.stdout.write(JSON.stringify(summary) + '\n');
  process.exit(summary.ok ? 0 : code || 1);
};

// Canonical JSON (sorted keys) to compare two values exactly.
const canon = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));

const isLoopback = (url) => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
};

// The hidden fields of the page's form, as a browser submits them (the reference server's demo page
// carries a CSRF token, and a post without it is refused with 403).
function hiddenFields(html) {
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields.append(m[1], m[2]);
  return fields.toString();
}

// Plays the user: opens the page (GET) and, with post, submits it (POST to the same URL). Loopback http only.
async function visit(url, how) {
  if (how === 'none') return;
  if (!isLoopback(url)) {
    summary.visited.push({ url, skipped: 'not a loopback http URL' });
    return;
  }
  let fields = '';
  for (const method of how === 'post' ? ['GET', 'POST'] : ['GET']) {
    try {
      const form = { body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
      const res = await fetch(url, { method, redirect: 'manual', ...(method === 'POST' && form) });
      const html = await res.text();
      if (method === 'GET') fields = hiddenFields(html);
      summary.visited.push({ url, method, status: res.status });
      if (res.status >= 400) fail(`${method} ${url} answered ${res.status}`);
    } catch (e) {
      fail(`${method} ${url} failed: ${e.message}`);
    }
  }
}

function answerForm(key, schema, action, answers) {
  if (!schema || schema.type !== 'object' || typeof schema.properties !== 'object') {
    fail(`${key}: form request without an object requestedSchema`);
    return { action: 'cancel' };
  }
  if (action !== 'accept') return { action };
  const content = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (name in answers) content[name] = answers[name];
    else if (prop && 'default' in prop) content[name] = prop.default;
  }
  for (const name of schema.required ?? []) if (!(name in content)) fail(`${key}: no answer for required property ${name}`);
  return { action: 'accept', content };
}

const o = parseArgs(process.argv.slice(2));
summary.scenario = o.scenario;
summary.transport = o.url ? 'http' : 'stdio';
const guard = setTimeout(() => {
  fail(`timed out after ${o.timeout}s`);
  done(2);
}, o.timeout * 1000);

let round = 0;
// The latest input_required result seen on the wire, by request key (to compare with what the handler got).
let wireRequests = {};

const capabilities = {
  elicitation: Object.fromEntries(o.modes.map((m) => [m, {}])),
  ...(o.samplingRoots && { sampling: {}, roots: {} }),
};
const client = new Client({ name: 'mcp-elicit-interop-ts-v2', version: '0.0.0' }, {
  capabilities,
  versionNegotiation: { mode: 'auto' },
});

// Answers one elicitation request (the handler below, and the hand-driven rounds).
async function onElicit(key, params) {
  const onWire = wireRequests[key];
  // The request exactly as it arrived (the transport's JSON), and whether the SDK handed the handler the same:
  // the SDK parses embedded requests with its own schema, which drops keywords it does not model (`pattern`).
  summary.elicitations.push({
    key, round, params, requestedSchema: params.requestedSchema, wireParams: onWire?.params ?? null,
    handlerSawWire: onWire !== undefined && canon(onWire.params) === canon(params),
  });
  if (!onWire) fail(`${key}: the handler got a request that was not on the wire`);
  const action = o.keyActions[key] ?? o.action;
  if ((params.mode ?? 'form') === 'form') return answerForm(key, params.requestedSchema, action, o.answers);
  if ('elicitationId' in params) fail(`${key}: URL request carries elicitationId, removed in 2026-07-28`);
  try {
    new URL(params.url);
  } catch {
    fail(`${key}: URL request with an invalid url ${JSON.stringify(params.url)}`);
  }
  if (action === 'accept' && o.scenario === 'url') await visit(params.url, o.visit);
  return { action };
}

client.setRequestHandler('elicitation/create', async (request, ctx) => onElicit(String(ctx.mcpReq.id), request.params ?? {}));
if (o.samplingRoots) {
  client.setRequestHandler('sampling/createMessage', async (_request, ctx) => {
    (summary.sampled ??= []).push(String(ctx.mcpReq.id));
    return { role: 'assistant', content: { type: 'text', text: 'Hello there!' }, model: 'interop-peer' };
  });
  client.setRequestHandler('roots/list', async (_request, ctx) => {
    (summary.rootsListed ??= []).push(String(ctx.mcpReq.id));
    return { roots: [{ uri: 'file:///tmp/interop-peer', name: 'interop' }] };
  });
}

// Records every tools/call leg and its raw answer, as the transport sends and receives them.
function recordWire(transport) {
  const pending = new Map();
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (message.method === 'tools/call') {
      const p = message.params ?? {};
      const leg = {
        id: message.id,
        answered: Object.keys(p.inputResponses ?? {}).sort(),
        answers: p.inputResponses ?? {},
        echoedState: typeof p.requestState === 'string',
        meta: p._meta ?? null,
      };
      summary.legs.push(leg);
      pending.set(message.id, leg);
    }
    return send(message, options);
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const leg = pending.get(message.id);
    if (leg) {
      pending.delete(message.id);
      if (message.error) {
        leg.got = 'error';
        leg.error = message.error;
      } else if (message.result?.resultType === 'input_required') {
        leg.got = 'input_required';
        leg.keys = Object.keys(message.result.inputRequests ?? {}).sort();
        leg.hasState = typeof message.result.requestState === 'string';
        wireRequests = message.result.inputRequests ?? {};
        round = summary.legs.length;
      } else {
        leg.got = 'complete';
        leg.resultType = message.result?.resultType ?? null;
      }
    }
    onmessage?.(message, extra);
  };
}

async function leg(inputResponses, requestState) {
  const params = {
    name: o.tool,
    arguments: o.args,
    ...(inputResponses && { inputResponses }),
    ...(requestState !== undefined && { requestState }),
  };
  return client.callTool(params, { allowInputRequired: true });
}

// Answers every request of an input_required result through the same handler the driver uses.
async function answerRound(ir) {
  const out = {};
  for (const [key, req] of Object.entries(ir.inputRequests ?? {})) {
    if (req.method !== 'elicitation/create') {
      fail(`${key}: not an elicitation request`);
      continue;
    }
    out[key] = await onElicit(key, req.params ?? {});
  }
  return out;
}

const errorOf = (e) => (e instanceof ProtocolError || typeof e?.code === 'number'
  ? { code: e.code, message: e.message, data: e.data ?? null } : { message: String(e?.message ?? e) });

async function urlWaiting() {
  const first = await leg();
  if (first.resultType !== 'input_required') {
    fail('the first call did not answer input_required');
    summary.result = first;
    return;
  }
  const urls = Object.values(first.inputRequests ?? {}).filter((r) => r.params?.mode === 'url').map((r) => r.params.url);
  if (urls.length === 0) {
    fail('no URL request in the first round');
    return;
  }
  const waiting = await leg(await answerRound(first), first.requestState);
  if (waiting.resultType !== 'input_required') {
    fail('the retry before the page was finished did not answer input_required (still waiting)');
    summary.result = waiting;
    return;
  }
  summary.waiting = waiting;
  for (const url of urls) await visit(url, 'post');
  const again = Object.keys(waiting.inputRequests ?? {}).length > 0 ? await answerRound(waiting) : undefined;
  const final = await leg(again, waiting.requestState);
  if (final.resultType === 'input_required') fail('the retry after the page was finished still answered input_required');
  summary.result = final;
}

async function tamper() {
  const first = await leg();
  if (first.resultType !== 'input_required' || typeof first.requestState !== 'string') {
    fail('the first call did not answer input_required with a requestState');
    summary.result = first;
    return;
  }
  const answers = await answerRound(first);
  const state = first.requestState;
  const mid = Math.floor(state.length / 2);
  const variants = {
    flipped: state.slice(0, mid) + (state[mid] === 'A' ? 'B' : 'A') + state.slice(mid + 1),
    truncated: state.slice(0, Math.max(1, state.length - 4)),
    extended: `${state}AAAA`,
    empty: '',
    garbage: 'not-a-state',
  };
  for (const [variant, bad] of Object.entries(variants)) {
    const entry = { variant };
    try {
      entry.result = await leg(answers, bad);
      fail(`tampered state (${variant}) was accepted`);
    } catch (e) {
      entry.error = errorOf(e);
      if (entry.error.code !== INVALID_PARAMS) fail(`tampered state (${variant}): error ${entry.error.code}, expected ${INVALID_PARAMS}`);
    }
    summary.tampered.push(entry);
  }
  const final = await leg(answers, state);
  if (final.resultType === 'input_required') fail('the genuine state after the tampered ones answered input_required');
  summary.result = final;
}

async function main() {
  const transport = o.url
    ? new StreamableHTTPClientTransport(new URL(o.url))
    : new StdioClientTransport({ command: o.command[0], args: o.command.slice(1), stderr: 'ignore' });
  await client.connect(transport);
  recordWire(transport);
  summary.protocolVersion = client.getNegotiatedProtocolVersion() ?? null;
  if (summary.protocolVersion !== '2026-07-28') fail(`negotiated ${summary.protocolVersion}, expected 2026-07-28`);
  try {
    if (o.scenario === 'form' || o.scenario === 'url') {
      summary.result = await client.callTool({ name: o.tool, arguments: o.args });
    } else if (o.scenario === 'url-waiting') await urlWaiting();
    else await tamper();
  } catch (e) {
    summary.error = errorOf(e);
  }
  await client.close().catch(() => {});
}

main().then(() => {
  clearTimeout(guard);
  done(0);
}, (e) => {
  clearTimeout(guard);
  fail(`${e?.name ?? 'Error'}: ${e?.message ?? e}`);
  done(1);
});
