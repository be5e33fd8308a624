/**
 * The administration schema: external app links, subscriptions and their intents, per-account
 * settings (security, login methods, auto-tagging, text in image, storefront SKUs, onboarding), quota
 * overrides, account terms and their acceptances, invite requests, and staff members (installation-wide
 * users who may sign in to any account).
 */
export default /* sql */ `
CREATE TABLE external_app_users (
  account_id           TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id              TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  external_app_user_id TEXT NOT NULL,
  date_created         TEXT NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE TABLE external_app_sso_tokens (
  token_hash   TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id      TEXT NOT NULL,
  expires_at   INTEGER NOT NULL
);
CREATE TABLE external_app_accounts (
  external_app_account_id TEXT PRIMARY KEY,          -- one external account links to one account
  account_id              TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  date_created            TEXT NOT NULL
);

CREATE TABLE subscriptions (
  account_id   TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  plan         TEXT NOT NULL CHECK (plan IN ('TIERED', 'VALUE_BASED')),
  tier         TEXT NOT NULL,
  date_started TEXT NOT NULL
);
CREATE TABLE subscription_intents (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  plan           TEXT NOT NULL,
  tier           TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('PENDING', 'CONFIRMED', 'CANCELLED')),
  date_created   TEXT NOT NULL,
  date_updated   TEXT NOT NULL
);

CREATE TABLE account_settings (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  value      TEXT NOT NULL,                 -- JSON
  PRIMARY KEY (account_id, name)
);

CREATE TABLE quota_overrides (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  entity     TEXT NOT NULL,
  quota      INTEGER NOT NULL,
  PRIMARY KEY (account_id, entity)
);

CREATE TABLE account_terms (
  account_id          TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  text                TEXT NOT NULL,
  acceptance_required INTEGER NOT NULL,
  version             INTEGER NOT NULL,
  date_updated        TEXT NOT NULL
);
CREATE TABLE terms_acceptances (
  account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id       TEXT NOT NULL,
  version       INTEGER NOT NULL,
  date_accepted TEXT NOT NULL,
  PRIMARY KEY (account_id, user_id)
);

CREATE TABLE account_invite_requests (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email        TEXT NOT NULL COLLATE NOCASE,
  name         TEXT,
  message      TEXT,
  date_created TEXT NOT NULL,
  UNIQUE (account_id, email)
);

CREATE TABLE staff_members (
  user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  date_added TEXT NOT NULL
);
`;
