/**
 * One HTTP request from a chosen loopback address (127.0.0.0/8 is all this machine), as another client's
 * would come: the service sees it as `request.ip`. Its own connection each time, so nothing queues it
 * behind other requests in a client pool.
 */
import { request as httpRequest } from 'node:http';
import type { ApiAnswer } from './test-service.js';

export interface AnswerFrom {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface RequestFromOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export function requestFrom(address: string, url: string, options: RequestFromOptions = {}): Promise<AnswerFrom> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', localAddress: address, agent: false, headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A form-encoded POST from `address`. */
export function postFormFrom(address: string, url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<AnswerFrom> {
  return requestFrom(address, url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
}

/** A JSON POST from `address`. */
export function postJsonFrom(address: string, url: string, body: unknown): Promise<AnswerFrom> {
  return requestFrom(address, url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** The answer as the API tests read one (expectApiError), its body parsed as JSON. */
export function asApiAnswer(answer: AnswerFrom): ApiAnswer {
  const header = (name: string): string | null => {
    const value = answer.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  const setCookie = answer.headers['set-cookie'];
  return { status: answer.status, headers: { get: header, getSetCookie: () => (setCookie === undefined ? [] : [setCookie].flat()) }, body: JSON.parse(answer.text), text: answer.text };
}
