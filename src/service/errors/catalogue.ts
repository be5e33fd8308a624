/**
 * The one catalogue of service errors: code → HTTP status → default message (API.md §1).
 * Routes throw `ServiceError(code)`; the error handler turns it into the Spring-style body.
 * Codes are a public contract: clients switch on them, so never rename one.
 */
export const errorCatalogue = {
  // 400
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  INVALID_BODY: { status: 400, message: 'The request body is not valid.' },
  INVALID_QUERY: { status: 400, message: 'The query parameters are not valid.' },
  INVALID_PATH: { status: 400, message: 'The path is not a valid remote path.' },
  INVALID_PART_LAYOUT: { status: 400, message: 'The declared size and part layout do not add up.' },
  INVALID_PART_SIZE: { status: 400, message: 'The part body does not have the size of its byte range.' },
  BAD_DIGEST: { status: 400, message: 'The part body does not match its Content-MD5.' },
  INVALID_CRITERION: { status: 400, message: 'The search criterion is not valid.' },
  INVALID_SORT: { status: 400, message: 'The search sort is not valid.' },
  INVALID_FIELD_VALUE: { status: 400, message: 'A metadata value does not fit its field.' },
  PAGING_LIMIT_EXCEEDED: { status: 400, message: 'Paging reaches at most 10,000 results; use a scroll search beyond that.' },
  UNSUPPORTED_V1_NAME: { status: 400, message: 'This is a V1 name; use its V2 replacement.' },
  UNSUPPORTED_TRANSFORMATION: { status: 400, message: 'This transformation is not supported.' },
  INVALID_SIGNATURE: { status: 403, message: 'The signed URL is invalid or has been tampered with.' },
  SIGNED_URL_EXPIRED: { status: 403, message: 'The signed URL has expired; ask for a fresh one.' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The requested range is not satisfiable.' },
  // OAuth token endpoint errors keep RFC 6749's shape on top of ours (see oauth-errors.ts).
  OAUTH_INVALID_REQUEST: { status: 400, message: 'The OAuth request is missing a parameter or has an invalid one.' },
  OAUTH_INVALID_CLIENT: { status: 401, message: 'Client authentication failed: unknown client or wrong client secret.' },
  OAUTH_INVALID_GRANT: { status: 400, message: 'The authorisation code or refresh token is invalid, expired, revoked or was issued to another client.' },
  OAUTH_GRANT_REUSED: { status: 400, message: 'The authorisation code or refresh token was already used; every token issued from it has been revoked.' },
  OAUTH_UNAUTHORIZED_CLIENT: { status: 400, message: 'The token was issued to another client.' },
  OAUTH_UNSUPPORTED_GRANT_TYPE: { status: 400, message: 'Only the authorization_code and refresh_token grants are supported.' },
  OAUTH_UNSUPPORTED_RESPONSE_TYPE: { status: 400, message: 'Only response_type=code is supported.' },
  OAUTH_INVALID_SCOPE: { status: 400, message: 'The scope must name an existing account with "subdomain:<subdomain>".' },
  OAUTH_ACCESS_DENIED: { status: 403, message: 'The user declined the authorisation request.' },
  OAUTH_UNKNOWN_CLIENT: { status: 400, message: 'The client_id is missing or names no registered client.' },
  OAUTH_INVALID_REDIRECT_URI: { status: 400, message: 'The redirect_uri is missing or is not registered for this client.' },
  OAUTH_SIGN_IN_EXPIRED: { status: 400, message: 'The sign-in form is invalid or has expired; start again from the application.' },
  OAUTH_WRONG_CREDENTIALS: { status: 401, message: 'The email address or password is wrong.' },
  OAUTH_NOT_A_MEMBER: { status: 403, message: 'This user is not a member of the account the application asked for.' },
  // 401 / 403
  UNAUTHENTICATED: { status: 401, message: 'A valid bearer token is required.' },
  TOKEN_EXPIRED: { status: 401, message: 'The access token has expired.' },
  TOKEN_INVALID: { status: 401, message: 'The access token is not valid for this service.' },
  // A security change of the account or the user since the token was issued (token generations).
  // The service's signing keys were rotated (`asset-sync keys rotate`) after the token was issued.
  TOKEN_KEY_RETIRED: { status: 401, message: "The access token was signed with a key this service has retired (its signing keys were rotated); refresh it or sign in again." },
  TOKEN_REVOKED: { status: 401, message: 'The access token was revoked by a security change of the account or the user; refresh it or sign in again.' },
  FORBIDDEN: { status: 403, message: 'You are not permitted to do this.' },
  // groups (docs/api.md): a folder-limited member may not file an asset, change a folder or aim a link outside their folders.
  FOLDER_OUT_OF_SCOPE: { status: 403, message: 'The folder is outside the folders your groups give you.' },
  // 404
  NOT_FOUND: { status: 404, message: 'No such resource.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such endpoint.' },
  // 405 / 409 / 413 / 415
  METHOD_NOT_ALLOWED: { status: 405, message: 'This endpoint does not accept that method.' },
  INVALID_TRANSITION: { status: 409, message: 'The asset cannot move to that lifecycle state from the one it is in.' },
  CURRENT_FILE_NOT_DELETABLE: { status: 409, message: "The asset's current file cannot be deleted; upload a new version first." },
  FIELD_INDESTRUCTABLE: { status: 409, message: 'This field is built in and cannot be deleted.' },
  FIELD_NAME_TAKEN: { status: 409, message: 'A field with this name already exists.' },
  GROUP_NAME_TAKEN: { status: 409, message: 'A group with this name already exists.' },
  EMAIL_NOT_CONFIGURED: { status: 409, message: 'This service has no SMTP server configured, so it cannot send e-mail updates.' },
  FIELD_OPTION_IN_USE: { status: 409, message: 'The option is still used by an asset or has children.' },
  FIELD_OPTION_CONFLICT: { status: 409, message: 'A sibling option already has this value, or the move would make a cycle.' },
  UPLOAD_ALREADY_COMPLETED: { status: 409, message: 'The upload was already completed with different parts.' },
  UPLOAD_INCOMPLETE: { status: 409, message: 'Not every part of the upload has been received.' },
  UPLOAD_ETAG_MISMATCH: { status: 409, message: 'A part eTag does not match the part the service received.' },
  PART_UPLOAD_IN_PROGRESS: { status: 409, message: 'This part is being uploaded by another request; retry when it ends.' },
  UPLOAD_EXPIRED: { status: 404, message: 'The upload has expired or was abandoned; start a new one.' },
  SCROLL_EXPIRED: { status: 404, message: 'The scroll has expired (10 minutes idle) or does not exist; start a new scroll search.' },
  // 410 [ours]: the change feed cannot resume from this cursor (docs/api.md).
  CHANGE_CURSOR_UNKNOWN: { status: 410, message: 'The change cursor is unknown or too old; reconcile in full, then follow the feed from a fresh cursor.' },
  // Collaboration: shares, portals, guest uploads.
  PASSCODE_REQUIRED: { status: 401, message: 'This portal is protected: send "Authorization: Passcode <passcode>".' },
  PASSCODE_INVALID: { status: 401, message: 'The portal passcode is wrong.' },
  SLUG_TAKEN: { status: 409, message: 'This slug is taken by another share.' },
  GUEST_UPLOAD_LIMIT_REACHED: { status: 409, message: 'This guest upload link has taken as many files as it allows.' },
  GUEST_UPLOAD_TOO_LARGE: { status: 413, message: 'The file is larger than this guest upload link allows.' },
  // Administration, search filters, field views, reference images, suggestions, quotas.
  SEARCH_FILTER_IN_VIEW: { status: 409, message: 'The search filter is already in use in the search filter view.' },
  FIELD_VIEW_NAME_TAKEN: { status: 409, message: 'A field view with this name already exists.' },
  REFERENCE_IMAGE_ALREADY_UPLOADED: { status: 409, message: 'An image was already uploaded under this key; ask for a new one.' },
  EXTERNAL_APP_USER_MISSING: { status: 409, message: 'Link your external app user first (POST /external-app-users).' },
  EXTERNAL_APP_ACCOUNT_TAKEN: { status: 409, message: 'This external app account is linked to another account.' },
  NO_SUBSCRIPTION: { status: 404, message: 'The account has no subscription.' },
  SUBSCRIPTION_INTENT_CLOSED: { status: 409, message: 'The subscription intent was already confirmed or cancelled.' },
  SUBDOMAIN_TAKEN: { status: 409, message: 'This subdomain is in use; choose another.' },
  // Only answered to the holder of a confirmation code (sign-up itself never says whether an address has a user).
  EMAIL_TAKEN: { status: 409, message: 'A user with this email address exists (was this sign-up confirmed already?); sign in instead.' },
  SIGN_UP_NEEDS_EMAIL: { status: 409, message: 'This service has no SMTP server configured, so it cannot confirm the e-mail address of a new account; ask its operator to configure one.' },
  SIGN_UP_CONFIRMATION_INVALID: { status: 400, message: 'The confirmation code is not valid or has expired; sign up again.' },
  QUOTA_EXCEEDED: { status: 403, message: "The account's quota for this kind of resource is used up." },
  TERMS_NOT_ACCEPTED: { status: 403, message: "Accept the account's terms and conditions first." },
  LOGIN_METHOD_NOT_ALLOWED: { status: 403, message: 'This account does not allow signing in this way.' },
  TERMS_VERSION_OUTDATED: { status: 409, message: 'The terms and conditions changed since they were read; read and accept the current version.' },
  // The render cage (docs/security.md): a preview refused, stopped over a limit, or unreadable, for good.
  PREVIEW_FAILED: { status: 422, message: 'The preview of this file could not be made.' },
  NOT_AN_IMAGE: { status: 415, message: 'The uploaded file is not an image the service can read.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than allowed.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON (application/json).' },
  // 429 / 5xx
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the given delay.' },
  // Credential attempts (auth/attempt-limiter.ts) and the hashing gate (accounts/hashing-pool.ts).
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many attempts; try again after the given delay.' },
  HASHING_BUSY: { status: 503, message: 'The service is busy checking other passwords; try again in a moment.' },
  INTERNAL: { status: 500, message: 'An unexpected error occurred in the service.' },
  UNAVAILABLE: { status: 503, message: 'The service is shutting down or overloaded; retry shortly.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
