/**
 * The console's sign-in through the organisation's OpenID Connect provider: authorization code with PKCE (S256), as a
 * public client — no secret in the browser, no token in a URL. The provider and client come from
 * /console/config.json (server.mjs); without an issuer there, the console falls back to a pasted operator token.
 * Tokens live in this tab's sessionStorage; the access token is renewed with the refresh token before it expires,
 * and sign-out ends the provider's session too (RP-initiated logout).
 */
const STATE_KEY = 'examConsole.oidcRequest';
const TOKENS_KEY = 'examConsole.oidcTokens';
/** Renew this long before the access token expires (and never more often than every 5 s). */
const RENEW_EARLY_MS = 30_000;

const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const random = (n) => b64url(crypto.getRandomValues(new Uint8Array(n)));

export class SignInError extends Error {}

/** @param {{issuer: string, clientId: string}} config */
export function createOidc(config, { storage = sessionStorage, location = window.location, fetchImpl = fetch, now = Date.now } = {}) {
  let discovery = null;
  let renewTimer = null;
  let onTokens = () => {};
  const redirectUri = `${location.origin}/console/`;

  async function discover() {
    if (discovery) return discovery;
    const res = await fetchImpl(`${config.issuer}/.well-known/openid-configuration`, { cache: 'no-store' });
    if (!res.ok) throw new SignInError(`The identity provider did not answer (HTTP ${res.status}).`);
    const doc = await res.json();
    if (doc.issuer !== config.issuer) throw new SignInError('The identity provider names another issuer than configured.');
    discovery = doc;
    return doc;
  }

  function tokens() {
    try {
      return JSON.parse(storage.getItem(TOKENS_KEY) || 'null');
    } catch {
      return null;
    }
  }

  function keep(response) {
    const previous = tokens();
    const kept = {
      accessToken: response.access_token,
      refreshToken: response.refresh_token || previous?.refreshToken || null,
      idToken: response.id_token || previous?.idToken || null,
      expiresAt: now() + Number(response.expires_in || 60) * 1000,
    };
    storage.setItem(TOKENS_KEY, JSON.stringify(kept));
    schedule();
    onTokens(kept);
    return kept;
  }

  async function tokenRequest(form) {
    const { token_endpoint: endpoint } = await discover();
    const res = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: config.clientId, ...form }).toString(),
      cache: 'no-store',
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new SignInError(body.error_description || body.error || `HTTP ${res.status}`);
    return body;
  }

  function schedule() {
    clearTimeout(renewTimer);
    const current = tokens();
    if (!current?.refreshToken) return;
    const wait = Math.max(5_000, current.expiresAt - now() - RENEW_EARLY_MS);
    renewTimer = setTimeout(() => renew().catch(() => {}), wait);
  }

  /** A new access token from the refresh token; on failure the tokens are dropped (the next call signs in again). */
  async function renew() {
    const current = tokens();
    if (!current?.refreshToken) throw new SignInError('No session to renew.');
    try {
      return keep(await tokenRequest({ grant_type: 'refresh_token', refresh_token: current.refreshToken }));
    } catch (err) {
      storage.removeItem(TOKENS_KEY);
      onTokens(null);
      throw err;
    }
  }

  return {
    /** The access token, or null when not signed in. */
    accessToken() {
      return tokens()?.accessToken || null;
    },

    /** Called with the tokens after each sign-in or renewal, and null when they are gone. */
    onTokens(callback) {
      onTokens = callback;
      schedule();
    },

    /** Off to the provider's sign-in page; back at /console/ with a code. */
    async signIn() {
      const { authorization_endpoint: endpoint } = await discover();
      const verifier = random(48);
      const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
      const request = { state: random(24), nonce: random(24), verifier, hash: location.hash || '#/exams' };
      storage.setItem(STATE_KEY, JSON.stringify(request));
      const url = new URL(endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: config.clientId,
        redirect_uri: redirectUri,
        scope: 'openid profile',
        state: request.state,
        nonce: request.nonce,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      location.assign(url.toString());
    },

    /**
     * Back from the provider: exchanges the code (checked against the state this tab sent) for tokens, removes the
     * code from the address bar and returns the hash to go on with; null when this load is no sign-in's return.
     */
    async completeSignIn() {
      const params = new URLSearchParams(location.search);
      if (!params.has('code') && !params.has('error')) return null;
      const request = JSON.parse(storage.getItem(STATE_KEY) || 'null');
      storage.removeItem(STATE_KEY);
      history.replaceState(null, '', `/console/${request?.hash || ''}`);
      if (params.has('error')) throw new SignInError(params.get('error_description') || params.get('error'));
      if (!request || params.get('state') !== request.state) throw new SignInError('This sign-in was not started here; sign in again.');
      keep(await tokenRequest({
        grant_type: 'authorization_code',
        code: params.get('code'),
        redirect_uri: redirectUri,
        code_verifier: request.verifier,
      }));
      return request.hash;
    },

    renew,

    /** Forgets the tokens and ends the provider's session, coming back to the console. */
    async signOut() {
      const current = tokens();
      clearTimeout(renewTimer);
      storage.removeItem(TOKENS_KEY);
      const { end_session_endpoint: endpoint } = await discover().catch(() => ({}));
      if (!endpoint || !current) return false;
      const url = new URL(endpoint);
      url.search = new URLSearchParams({
        client_id: config.clientId,
        post_logout_redirect_uri: redirectUri,
        ...(current.idToken ? { id_token_hint: current.idToken } : {}),
      }).toString();
      location.assign(url.toString());
      return true;
    },
  };
}
