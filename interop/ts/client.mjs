// Peer MCP client written with the TypeScript SDK, used to test `mcp-elicit serve` (and the peer servers).
//
// Usage: node client.mjs --scenario SCENARIO --tool NAME [options] (--url URL | -- CMD [ARGS...])
//   --url URL            Streamable HTTP endpoint (e.g. http://127.0.0.1:PORT/mcp); or, after `--`, a
//                        command to spawn and talk to over stdio.
//   --scenario form          call TOOL, answer its form elicitation(s) with --action; asserts that the request
//                            carries every kind in --expect-kinds (default: all) and a usable `pattern`.
//              url           call TOOL, accept its URL elicitation, (optionally visit the URL), and wait for
//                            notifications/elicitation/complete with the same elicitationId.
//              url-required  call TOOL, expect -32042 parsed as the SDK's UrlElicitationRequiredError,
//                            (optionally visit), wait for its completion notification, retry, expect success.
//              capabilities  just call TOOL and print its result.
//              listen        call nothing: print {"ready":true}, then record whatever arrives until the file
//                            --until-file exists (no --tool needed).
//   --until-file PATH    see listen
//   --args JSON          tool arguments (default {})
//   --action A           accept (default) | decline | cancel, for form elicitations
//   --answers JSON       values to answer with (merged over the schema defaults)
//   --expect-kinds LIST  comma list of: string,pattern,format,integer,number,boolean,enum,legacy-enum,
//                        titled-enum,multi,titled-multi (default: all but legacy-enum)
//   --modes LIST         elicitation modes to declare (default form,url)
//   --visit none|get|post  play the user on loopback http URLs (never others): get opens the page, post also
//                        submits it (a POST to the same URL); default none
//   --no-wait-complete   in the url scenario, do not require a completion notification
//   --timeout SECS       hang guard for the whole run (default 30)
// Prints one JSON summary line on stdout; exit 0 when every assertion held, 1 otherwise, 2 on a hang.
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
  ErrorCode,
  McpError,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';

const ALL_KINDS = ['string', 'pattern', 'format', 'integer', 'number', 'boolean', 'enum', 'titled-enum', 'multi', 'titled-multi'];

function parseArgs(argv) {
  const o = {
    scenario: null, tool: null, url: null, command: null, args: {}, action: 'accept', answers: {},
    expectKinds: ALL_KINDS, modes: ['form', 'url'], visit: 'none', waitComplete: true, timeout: 30, untilFile: null,
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
    else if (a === '--answers') o.answers = JSON.parse(next());
    else if (a === '--expect-kinds') o.expectKinds = next().split(',').filter(Boolean);
    else if (a === '--modes') o.modes = next().split(',').filter(Boolean);
    else if (a === '--visit') o.visit = next();
    else if (a === '--no-wait-complete') o.waitComplete = false;
    else if (a === '--timeout') o.timeout = Number(next());
    else if (a === '--until-file') o.untilFile = next();
    else throw new Error(`unknown argument ${a}`);
  }
  if (!['form', 'url', 'url-required', 'capabilities', 'listen'].includes(o.scenario)) throw new Error('--scenario form|url|url-required|capabilities|listen');
  if (o.scenario === 'listen' ? !o.untilFile : !o.tool) throw new Error(o.scenario === 'listen' ? '--until-file is required' : '--tool is required');
  if ((o.url === null) === (o.command === null || o.command.length === 0)) throw new Error('give --url URL or -- CMD ARGS');
  if (!['accept', 'decline', 'cancel'].includes(o.action)) throw new Error('--action accept|decline|cancel');
  return o;
}

const summary = { peer: 'ts-client', scenario: null, transport: null, ok: false, failures: [], elicitations: [], completions: [], result: null, error: null, retryResult: null };
const fail = (msg) => summary.failures.push(msg);
const done = (code) => {
  summary.ok = summary.failures.length === 0 && code === 0;
  process.stdout.write(JSON.stringify(summary) + '\n');
  process.exit(summary.ok ? 0 : code || 1);
};

// Which field kinds a requestedSchema property is.
function kindsOf(prop) {
  const kinds = [];
  if (prop.type === 'string') {
    if (Array.isArray(prop.oneOf)) kinds.push('titled-enum');
    else if (Array.isArray(prop.enum)) kinds.push(Array.isArray(prop.enumNames) ? 'legacy-enum' : 'enum');
    else {
      kinds.push('string');
      if (typeof prop.pattern === 'string') kinds.push('pattern');
      if (typeof prop.format === 'string') kinds.push('format');
    }
  } else if (prop.type === 'array') {
    if (Array.isArray(prop.items?.anyOf)) kinds.push('titled-multi');
    else if (Array.isArray(prop.items?.enum)) kinds.push('multi');
  } else if (['integer', 'number', 'boolean'].includes(prop.type)) kinds.push(prop.type);
  return kinds;
}

// Checks a form request and builds the answer: --answers over the schema defaults.
function answerForm(params, o) {
  const schema = params.requestedSchema;
  if (!schema || schema.type !== 'object' || typeof schema.properties !== 'object') {
    fail('form request without an object requestedSchema');
    return { action: 'cancel' };
  }
  const seen = new Set();
  for (const [name, prop] of Object.entries(schema.properties)) {
    for (const k of kindsOf(prop)) seen.add(k);
    if (typeof prop.pattern === 'string') {
      let re;
      try {
        re = new RegExp(prop.pattern, 'u');
      } catch (e) {
        fail(`property ${name}: pattern ${JSON.stringify(prop.pattern)} is not a valid regex: ${e.message}`);
      }
      const sample = o.answers[name] ?? prop.default;
      if (re && typeof sample === 'string' && !re.test(sample)) fail(`property ${name}: value ${JSON.stringify(sample)} does not match pattern ${prop.pattern}`);
    }
  }
  for (const k of o.expectKinds) if (!seen.has(k)) fail(`form request has no field of kind ${k} (has: ${[...seen].join(',')})`);
  if (o.action !== 'accept') return { action: o.action };
  const content = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (name in o.answers) content[name] = o.answers[name];
    else if ('default' in prop) content[name] = prop.default;
  }
  for (const name of schema.required ?? []) if (!(name in content)) fail(`no answer for required property ${name}`);
  return { action: 'accept', content };
}

function isLoopback(url) {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

// The hidden fields of the page's form, as a browser submits them (the reference server's demo page
// carries a CSRF token, and a post without it is refused with 403).
function hiddenFields(html) {
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields.append(m[1], m[2]);
  return fields.toString();
}

// Plays the user in the browser: opens the page (GET) and, with --visit post, submits its form (a POST
// to the same URL, as the reference server's demo page does). Only loopback http URLs are visited.
async function visit(url, o) {
  if (o.visit === 'none') return;
  if (!isLoopback(url)) {
    summary.visited = (summary.visited ?? []).concat([{ url, skipped: 'not a loopback http URL' }]);
    return;
  }
  const methods = o.visit === 'post' ? ['GET', 'POST'] : ['GET'];
  let fields = '';
  for (const method of methods) {
    try {
      const form = { body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
      const res = await fetch(url, { method, redirect: 'manual', ...(method === 'POST' && form) });
      const html = await res.text();
      if (method === 'GET') fields = hiddenFields(html);
      summary.visited = (summary.visited ?? []).concat([{ url, method, status: res.status }]);
      if (res.status >= 400) fail(`${method} ${url} answered ${res.status}`);
    } catch (e) {
      fail(`${method} ${url} failed: ${e.message}`);
    }
  }
}

// Resolves when a completion notification for `id` has arrived (or already had).
const completionWaiters = new Map();
function waitCompletion(id) {
  if (summary.completions.includes(id)) return Promise.resolve();
  return new Promise((resolve) => completionWaiters.set(id, resolve));
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  summary.scenario = o.scenario;
  summary.transport = o.url ? 'http' : 'stdio';
  setTimeout(() => {
    fail(`timed out after ${o.timeout}s`);
    done(2);
  }, o.timeout * 1000).unref();

  const elicitation = {};
  if (o.modes.includes('form')) elicitation.form = {};
  if (o.modes.includes('url')) elicitation.url = {};
  const client = new Client({ name: 'interop-ts-client', version: '1.0.0' }, { capabilities: { elicitation } });

  // The SDK parses elicitation/create with its own schema and drops keywords it does not model (it
  // drops `pattern`), so the assertions look at the request exactly as it came off the wire.
  const rawById = new Map();
  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    const params = rawById.get(extra.requestId) ?? req.params;
    rawById.delete(extra.requestId);
    summary.elicitations.push(params);
    const mode = params.mode ?? 'form';
    if (mode === 'form') {
      if (o.scenario !== 'form') fail(`unexpected form elicitation in scenario ${o.scenario}`);
      if (o.scenario === 'listen') return { action: 'decline' };
      return answerForm(params, o);
    }
    if (o.scenario !== 'url') fail(`unexpected URL elicitation in scenario ${o.scenario}`);
    if (o.scenario === 'listen') return { action: 'decline' };
    if (typeof params.elicitationId !== 'string' || params.elicitationId.length === 0) fail('URL elicitation without elicitationId');
    if (typeof params.message !== 'string') fail('URL elicitation without message');
    try {
      new URL(params.url);
    } catch {
      fail(`URL elicitation with an invalid url ${JSON.stringify(params.url)}`);
    }
    return { action: o.action };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, async (n) => {
    const id = n.params.elicitationId;
    summary.completions.push(id);
    completionWaiters.get(id)?.();
  });

  const transport = o.url
    ? new StreamableHTTPClientTransport(new URL(o.url))
    : new StdioClientTransport({ command: o.command[0], args: o.command.slice(1), stderr: 'inherit' });
  await client.connect(transport);
  const sdkOnMessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message?.method === 'elicitation/create' && message.id !== undefined) rawById.set(message.id, message.params);
    sdkOnMessage?.(message, extra);
  };

  if (o.scenario === 'listen') {
    process.stdout.write(JSON.stringify({ ready: true }) + '\n');
    while (!existsSync(o.untilFile)) await new Promise((r) => setTimeout(r, 50));
    await client.close().catch(() => {});
    done(0);
    return;
  }

  const call = () => client.callTool({ name: o.tool, arguments: o.args }, undefined, { timeout: o.timeout * 1000 });
  try {
    if (o.scenario === 'url-required') {
      let err = null;
      try {
        summary.result = await call();
        fail('expected error -32042, got a result');
      } catch (e) {
        err = e;
        summary.error = { code: e.code ?? null, message: e.message, data: e.data ?? null };
      }
      if (err) {
        if (!(err instanceof UrlElicitationRequiredError)) fail(`error is not a UrlElicitationRequiredError: ${err.message}`);
        if (err.code !== ErrorCode.UrlElicitationRequired) fail(`error code ${err.code}, expected ${ErrorCode.UrlElicitationRequired}`);
        const els = err instanceof UrlElicitationRequiredError ? err.elicitations : [];
        if (els.length === 0) fail('UrlElicitationRequiredError without elicitations');
        for (const el of els) {
          if (el.mode !== 'url' || typeof el.elicitationId !== 'string' || typeof el.url !== 'string') fail(`malformed elicitation in error data: ${JSON.stringify(el)}`);
        }
        for (const el of els) await visit(el.url, o);
        for (const el of els) await waitCompletion(el.elicitationId);
        summary.retryResult = await call();
        if (summary.retryResult.isError) fail('retry after completion still failed');
      }
    } else {
      summary.result = await call();
      if (o.scenario === 'form') {
        const forms = summary.elicitations.filter((p) => (p.mode ?? 'form') === 'form');
        if (forms.length === 0) fail('no form elicitation received');
      }
      if (o.scenario === 'url') {
        const urls = summary.elicitations.filter((p) => p.mode === 'url');
        if (urls.length === 0) fail('no URL elicitation received');
        // The user finishes the page once the call has answered (the server has recorded the consent).
        if (o.action === 'accept') for (const p of urls) await visit(p.url, o);
        if (o.waitComplete && o.action === 'accept') for (const p of urls) await waitCompletion(p.elicitationId);
      }
    }
  } catch (e) {
    if (summary.error === null) summary.error = { code: e instanceof McpError ? e.code : null, message: e.message, data: e.data ?? null };
    fail(`call failed: ${e.message}`);
  }
  await client.close().catch(() => {});
  done(0);
}

main().catch((e) => {
  fail(String(e?.stack ?? e));
  done(1);
});
