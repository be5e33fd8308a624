/**
 * Which request body each route takes, as data: a route declares its zod body schema in
 * `config: { body }` and parses it with `parseBody`, which refuses (as a bug) a schema the route did not
 * declare, so the declaration cannot drift from what the handler reads. `collectRoutes` lists every
 * route with its declared body, so that tests can walk all of them (e.g. send each optional property as
 * `null`) without a hand-kept list.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorCode } from '../errors/catalogue.js';
import { parseInput } from './parse-input.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The zod schema of the route's JSON (or form) body; read with `parseBody`. */
    body?: z.ZodType;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  /** The declared body schema, when the route takes a JSON (or form) body. */
  body: z.ZodType | undefined;
  /** The route streams its body itself (upload parts). */
  rawBody: boolean;
}

/** A route's declared body schema does not match what its handler parses: a bug, not bad input. */
export class UndeclaredBodyError extends Error {
  readonly code = 'UNDECLARED_BODY';
}

/** Call before the routes are registered: the returned list fills as they are. */
export function collectRoutes(app: FastifyInstance): readonly RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, body: route.config?.body, rawBody: route.config?.rawBody === true });
    }
  });
  return routes;
}

/** The request body parsed with the route's declared schema (400 naming the property otherwise). */
export function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S, code?: ErrorCode): z.infer<S> {
  if (request.routeOptions.config.body !== schema) {
    throw new UndeclaredBodyError(`${request.method} ${request.routeOptions.url ?? request.url} parses a body schema it does not declare in config.body`);
  }
  return parseInput(schema, request.body, code);
}
