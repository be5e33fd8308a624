/**
 * `GET /health` [ours]: public, no token. 200 with `status: "ok"` when the database and the blob store
 * both answer; 503 with `status: "unavailable"` and the failing store's `code` and `message` otherwise,
 * so a load balancer takes the instance out of rotation and a person sees which store to look at.
 */
import type { FastifyInstance } from 'fastify';
import type { StoreHealthCheck } from './store-health.js';

export function registerHealthRoutes(app: FastifyInstance, health: StoreHealthCheck): void {
  app.get('/health', { config: { public: true } }, async (_request, reply) => {
    const report = await health.report();
    void reply.header('cache-control', 'no-store');
    if (report.status !== 'ok') void reply.code(503);
    return report;
  });
}
