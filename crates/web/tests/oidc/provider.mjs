// A real OpenID provider (npm oidc-provider 9.x) for the mcp-elicit-web tests, on
// 127.0.0.1 only. It is both the MCP authorization server (JWT access tokens for the MCP
// resource, browser sign-in) and the "third-party" provider (JWT access tokens for
// THIRD_PARTY_RESOURCE, with refresh tokens).
//
// Environment: WEB_BASE (the web server's base URL, for redirect URIs), AUDIENCE (the MCP
// resource). Prints one JSON line on stdout once listening:
//   {"issuer", "kid", "signing_key_pem", "other_key_pem"}
// (test-only: the private signing key lets tests mint expired or mis-addressed tokens
// signed by the issuer; other_key_pem is a key the issuer does not publish).
import http from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

const WEB_BASE = process.env.WEB_BASE;
const AUDIENCE = process.env.AUDIENCE;
const THIRD_PARTY_RESOURCE = 'https://api.third-party.test/';
if (!WEB_BASE || !AUDIENCE) {
  console.error('WEB_BASE and AUDIENCE are required');
  process.exit(2);
}

const kid = 'test-key-1';
const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...signing.privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'mcp-web',
        client_secret: 'mcp-web-secret',
        redirect_uris: [`${WEB_BASE}/login/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: 'third-party-app',
        client_secret: 'third-party-secret',
        redirect_uris: [`${WEB_BASE}/oauth/callback`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'openid offline_access api:read',
      },
      // The mcp-elicit command line (issue 13): a native public client on a loopback
      // redirect (any port, RFC 8252 §7.3), and a machine client for client_credentials
      // with the secret in the body (what rmcp's client credentials flow sends).
      {
        client_id: 'mcp-cli',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'openid offline_access mcp',
      },
      {
        client_id: 'mcp-cli-cc',
        client_secret: 'mcp-cli-cc-secret',
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'mcp',
      },
      {
        client_id: 'mcp-test-cc',
        client_secret: 'mcp-test-cc-secret',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'mcp',
      },
    ],
    jwks: { keys: [jwk] },
    scopes: ['openid', 'offline_access', 'api:read', 'mcp'],
    pkce: { required: () => true },
    findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx, client, oneOf) => oneOf ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource) => {
          if (resource === AUDIENCE) {
            return { scope: 'mcp', audience: AUDIENCE, accessTokenFormat: 'jwt', accessTokenTTL: 300, jwt: { sign: { alg: 'RS256' } } };
          }
          if (resource === THIRD_PARTY_RESOURCE) {
            // Shorter than the web layer's 30 s refresh margin: every use refreshes.
            return { scope: 'api:read', audience: THIRD_PARTY_RESOURCE, accessTokenFormat: 'jwt', accessTokenTTL: 20, jwt: { sign: { alg: 'RS256' } } };
          }
          throw new errors.InvalidTarget();
        },
      },
    },
    issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { Session: 600, Interaction: 600, Grant: 600, AuthorizationCode: 60, RefreshToken: 600, IdToken: 300 },
  });
  provider.proxy = false;
  server.on('request', provider.callback());
  process.stdout.write(JSON.stringify({
    issuer,
    kid,
    signing_key_pem: signing.privateKey.export({ format: 'pem', type: 'pkcs8' }),
    other_key_pem: other.privateKey.export({ format: 'pem', type: 'pkcs8' }),
  }) + '\n');
});
// Stop when the test process goes away (stdin closes).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
