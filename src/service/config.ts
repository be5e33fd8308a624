import type { RenderLimits } from './render-cage/render-cage.js';

/** What `createService` needs to know; `asset-sync serve` builds it from flags and the environment. */
export interface ServiceConfig {
  /** Directory holding `service.db` and `blobs/`. Created when missing. */
  dataDir: string;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** The address clients reach the service at; every URL the service hands out is built from it. Defaults to http://host:port. */
  publicUrl?: string | undefined;
  /**
   * The reverse proxies (addresses or CIDR ranges) whose `X-Forwarded-For` names the client. Throttles
   * and download events key on the client's address: behind a proxy without this, every client would
   * share the proxy's. Empty (the default): the header is ignored, so no client can claim another's address.
   */
  trustedProxies: readonly string[];
  /** The `aud` the service issues and accepts. */
  audience: string;
  /** Rotate public clients' refresh tokens on use and treat reuse as theft (default true); confidential clients' never rotate. */
  rotateRefreshTokens: boolean;
  /** Lifetimes, seconds. */
  accessTokenTtl: number;
  refreshTokenTtl: number;
  authCodeTtl: number;
  /** How long a signed part or download URL stays valid, seconds. */
  signedUrlTtl: number;
  /** An upload with no activity for this long is abandoned: its parts are deleted, seconds. */
  uploadAbandonAfter: number;
  /** First-start bootstrap: the admin user. A password is generated (and reported) when none is given. */
  adminEmail: string;
  adminPassword?: string | undefined;
  /** Largest JSON body, bytes. */
  bodyLimit: number;
  /** Where sign-up confirmations and saved-search e-mail updates are sent through; none: no e-mail is sent and sign-up is refused. */
  smtp?: SmtpConfig | undefined;
  /** How often new assets are checked against saved searches with e-mail updates (one e-mail per owner per check), seconds. */
  savedSearchEmailInterval: number;
  /**
   * The render cage's limits (render-cage/render-cage.ts): how many render processes, and the processor
   * time, wall time and memory one render may use before its process is killed. Unset ones keep
   * DEFAULT_RENDER_LIMITS.
   */
  render?: Partial<RenderLimits> | undefined;
}

export interface SmtpConfig {
  host: string;
  port: number;
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string | undefined;
  password?: string | undefined;
  /** The sender address of the e-mails. */
  from: string;
}

export const DEFAULT_AUDIENCE = 'https://assetplatform.io';

export function serviceConfig(overrides: Partial<ServiceConfig> & Pick<ServiceConfig, 'dataDir'>): ServiceConfig {
  return {
    host: '127.0.0.1',
    port: 7480,
    audience: DEFAULT_AUDIENCE,
    rotateRefreshTokens: true,
    trustedProxies: [],
    accessTokenTtl: 3600,
    refreshTokenTtl: 30 * 24 * 3600,
    authCodeTtl: 60,
    signedUrlTtl: 3600,
    uploadAbandonAfter: 7 * 24 * 3600,
    adminEmail: 'admin@localhost',
    bodyLimit: 10 * 1024 * 1024,
    savedSearchEmailInterval: 300,
    ...overrides,
  };
}
