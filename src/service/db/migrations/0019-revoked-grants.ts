/**
 * Grants whose access tokens are refused before they expire (RFC 7009 revocation): a refresh-token
 * family (signing out, or a reused refresh token or code), or one access token by its `jti` when it
 * belongs to no family. A row is kept only while an access token it refuses can still be valid, so
 * the table stays as small as the revocations of the last access-token lifetime.
 *
 * - revoked_grants.id: a refresh-token family id, or an access token's jti.
 * - revoked_grants.expires_at: epoch ms after which no access token the row refuses is still valid.
 */
export default /* sql */ `
CREATE TABLE revoked_grants (
  id          TEXT PRIMARY KEY,
  expires_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX revoked_grants_expiry ON revoked_grants(expires_at);
`;
