/** Failures of the administration commands that work on a data directory (`token`, `user …`, `preset …`, `group …`), and of starting a service on one. */
export type AdminErrorCode = 'NO_DATA' | 'DATA_DIR_IN_USE' | 'DATA_DIR_EXPOSED' | 'DATA_DIR_NOT_OWNED' | 'NO_KEYS' | 'KEY_FILE_INVALID' | 'NO_SUCH_USER' | 'NOT_A_MEMBER' | 'USER_EXISTS' | 'LAST_ADMIN' | 'INVALID_INPUT' | 'NO_SUCH_PRESET' | 'PRESET_EXISTS' | 'NO_SUCH_GROUP' | 'GROUP_EXISTS' | 'QUOTA_EXCEEDED';

export class AdminError extends Error {
  override readonly name = 'AdminError';
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
  }
}
