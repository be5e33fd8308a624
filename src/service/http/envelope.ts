/** The `{ result, permittedActions }` envelope (API.md §1). */
import type { Envelope, PermittedAction } from '../../shared/api/resources.js';

export function envelope<R>(result: R, permittedActions: PermittedAction[] = []): Envelope<R> {
  return { result, permittedActions };
}
