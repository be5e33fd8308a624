/** The public face of src/main/auth/: what the CLI and the engine call to sign in, out, and get tokens. */
export { login, logout, authorizeUrl, type LoginOptions, DEFAULT_AUDIENCE, DEFAULT_CLIENT_ID, DEFAULT_SUBDOMAIN } from './loopback-login.js';
export { createTokenProvider, notSignedIn, signedInElsewhere, assertTokensFor, type TokenProviderOptions } from './token-provider.js';
export { readTokens, writeTokens, deleteTokens, fileTokenStore, tokenFilePath, tokenFromEnv, TOKEN_ENV, TOKEN_FILE, type StoredTokens, type TokenStore } from './token-store.js';
export { createPkcePair, pkceChallenge, randomState, type PkcePair } from './pkce.js';
