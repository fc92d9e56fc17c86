// The sandbox identity issuer's pages (root paths, outside production only, for a provider without
// client ids): a sign-in page where a person types an e-mail and a name and receives an ID token
// signed by the local issuer, and its key set. The token is then sent to POST /auth/oauth2/{provider}
// like a real one, and verified by the same code.
import { createRoute, z } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { appConfig, type SocialProviderName } from '../../config';
import { createRouter } from '../../env';
import { endpointNotFound } from '../../errors';
import { htmlPage } from '../../lib/html-page';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { apiUrl } from '../../lib/urls';
import { sandboxJwks, signSandboxIdToken } from '../../providers/social-login/sandbox-issuer';
import { EmailField } from '../users/profile-fields';
import { nameText } from '../../validation';

const LABEL: Record<SocialProviderName, string> = { google: 'Google', apple: 'Apple' };
/** The body field each login endpoint reads the token from. */
const TOKEN_FIELD: Record<SocialProviderName, string> = { google: 'idToken', apple: 'identityToken' };

const ProviderParams = z.object({
  provider: z.enum(['google', 'apple']).openapi({ param: { name: 'provider', in: 'path' } }),
});
const SignInForm = z.object({
  email: EmailField,
  firstName: nameText(100, 0).optional(),
  lastName: nameText(100, 0).optional(),
});
const JwksSchema = z.object({ keys: z.array(z.object({}).passthrough()) }).openapi('SandboxJwks');
const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

/** The provider's sandbox issuer, or 404 when the provider is real here. */
function sandboxIssuer(env: Env, provider: SocialProviderName) {
  const issuer = appConfig(env).social[provider];
  if (issuer.mode !== 'SANDBOX') throw endpointNotFound('auth.providerSandboxNotActive', { label: LABEL[provider] });
  return issuer;
}

const STYLE = `
  body { max-width: 34rem; color: #1f2328; }
  .badge { display: inline-block; font-size: .8rem; padding: .15rem .5rem; border-radius: 1rem; background: #fff4d6; color: #7a5200; }
  label { display: block; margin: .9rem 0 .3rem; font-weight: 600; }
  input, textarea { width: 100%; box-sizing: border-box; font-size: 1rem; padding: .55rem; border: 1px solid #c9ced6; border-radius: .4rem; }
  textarea { font-family: ui-monospace, monospace; font-size: .8rem; height: 9rem; word-break: break-all; }
  button { margin-top: 1.2rem; border-radius: .4rem; border: 0; background: #1f6feb; color: #fff; }
  pre { background: #f6f8fa; padding: .8rem; border-radius: .4rem; white-space: pre-wrap; word-break: break-all; font-size: .8rem; }`;

const page = (title: string, body: unknown) =>
  htmlPage(title, html`<p class="badge">Sandbox: local runs only, no real account involved</p>${body}`, STYLE);

export const socialSandboxRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/sandbox/social/jwks.json',
      operationId: 'getSandboxSocialJwks',
      tags: ['Sandbox'],
      summary: 'Public keys of the sandbox identity issuer (local runs only)',
      description: 'The JSON Web Key Set of the local identity issuer that stands in for Google and Apple when no client id is configured; POST /auth/oauth2/{provider} verifies the sandbox ID tokens with these keys, as it verifies real ones with the providers\'. 404 ENDPOINT_NOT_FOUND when neither provider is in sandbox mode (always in production).',
      security: [],
      responses: { 200: jsonContent(JwksSchema, 'JSON Web Key Set'), ...errorResponses(404) },
    }),
    async (c) => {
      const { social } = appConfig(c.env);
      if (social.google.mode !== 'SANDBOX' && social.apple.mode !== 'SANDBOX') throw endpointNotFound('auth.sandboxNotActive');
      return c.json(await sandboxJwks(c.env), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/sandbox/social/{provider}/sign-in',
      operationId: 'showSandboxSocialSignIn',
      tags: ['Sandbox'],
      summary: 'Sandbox sign-in page standing in for Google or Apple (local runs only)',
      description: 'An HTML form standing in for the Google or Apple sign-in screen: whoever types an e-mail and a name gets an ID token for it. No real account is involved. 404 ENDPOINT_NOT_FOUND when that provider is configured for real (always in production).',
      security: [],
      request: { params: ProviderParams },
      responses: { 200: htmlResponse('Sign-in form'), ...errorResponses(404) },
    }),
    (c) => {
      const { provider } = c.req.valid('param');
      sandboxIssuer(c.env, provider);
      const label = LABEL[provider];
      return c.html(
        page(
          `Sign in with ${label}`,
          html`<p>This page stands in for ${label}: it signs an ID token for whoever you type, which the app then sends to the API.</p>
            <form method="post" action="/sandbox/social/${provider}/sign-in">
              <label for="email">E-mail</label>
              <input id="email" name="email" type="email" required autocomplete="email" placeholder="jane@example.com" />
              <label for="firstName">First name</label>
              <input id="firstName" name="firstName" autocomplete="given-name" />
              <label for="lastName">Last name</label>
              <input id="lastName" name="lastName" autocomplete="family-name" />
              <button type="submit">Continue</button>
            </form>`,
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/sandbox/social/{provider}/sign-in',
      operationId: 'signInWithSandboxSocial',
      tags: ['Sandbox'],
      summary: 'Sandbox sign-in: an ID token signed by the local issuer for the e-mail typed',
      description: 'Signs an ID token, valid one hour, for the e-mail (marked verified) and names posted, and shows it with the body to send to POST /auth/oauth2/{provider}, which then signs in, links or creates the account exactly as with a real token. 404 ENDPOINT_NOT_FOUND when that provider is configured for real; an invalid e-mail is 400 VALIDATION_ERROR.',
      security: [],
      request: {
        params: ProviderParams,
        body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: SignInForm } } },
      },
      responses: { 200: htmlResponse('The ID token and how to send it'), ...errorResponses(404) },
    }),
    async (c) => {
      const { provider } = c.req.valid('param');
      const person = c.req.valid('form');
      const { token } = await signSandboxIdToken(c.env, provider, sandboxIssuer(c.env, provider), person);
      // Apple puts the names beside the token, on the first sign-in only; Google inside it.
      const body =
        provider === 'apple'
          ? { identityToken: token, ...(person.firstName ? { firstName: person.firstName } : {}), ...(person.lastName ? { lastName: person.lastName } : {}) }
          : { idToken: token };
      const endpoint = apiUrl(c.env, `/auth/oauth2/${provider}`);
      return c.html(
        page(
          `Signed in with ${LABEL[provider]}`,
          html`<p>ID token for <strong id="signed-in-email">${person.email.trim().toLowerCase()}</strong>, valid for one hour.</p>
            <label for="id-token">${TOKEN_FIELD[provider]}</label>
            <textarea id="id-token" readonly>${token}</textarea>
            <p>Send it as a client would:</p>
            <pre id="request">POST ${endpoint}
Content-Type: application/json

${JSON.stringify(body, null, 2)}</pre>
            <p><a href="/sandbox/social/${provider}/sign-in">Sign in as someone else</a></p>`,
        ),
        200,
      );
    },
  );
