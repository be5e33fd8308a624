/**
 * Reads a server-sent event stream in tests (the service's `/change-events`): opens it with fetch,
 * then hands out events one by one, comments (keep-alives) skipped. The test closes what it opened.
 */
export interface ServerEvent {
  event: string;
  id: string | undefined;
  /** `data` parsed as JSON. */
  data: any;
}

export interface OpenedStream {
  status: number;
  /** The JSON error body when the status is not 200. */
  body: any;
  /** The next event; rejects when the stream ends first. */
  next(): Promise<ServerEvent>;
  /** Resolves when the server ends the stream (no further event read). */
  ended(): Promise<void>;
  close(): void;
}

export async function openEventStream(url: string, token: string, headers: Record<string, string> = {}): Promise<OpenedStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers }, signal: controller.signal });
  if (response.status !== 200 || response.body === null) {
    const text = await response.text();
    return { status: response.status, body: text === '' ? {} : JSON.parse(text), next: () => Promise.reject(new Error('no stream')), ended: async () => undefined, close: () => controller.abort() };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const read = async (): Promise<boolean> => {
    const chunk = await reader.read();
    if (chunk.done) return false;
    buffer += decoder.decode(chunk.value, { stream: true });
    return true;
  };
  return {
    status: 200,
    body: undefined,
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || line === '') continue;
            const colon = line.indexOf(':');
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (!fields.has('event') && !fields.has('data')) continue;
          return { event: fields.get('event') ?? 'message', id: fields.get('id'), data: JSON.parse(fields.get('data') ?? 'null') };
        }
        if (!(await read())) throw new Error('the stream ended');
      }
    },
    async ended() {
      while (await read()) buffer = '';
    },
    close: () => controller.abort(),
  };
}
