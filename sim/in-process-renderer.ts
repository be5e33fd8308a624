/**
 * The simulation's renderer: the render jobs run in this process, one after another, instead of in the
 * cage's processes. A forked process answers in real time, whenever it is done, which no seed could
 * replay; here a preview fails or succeeds within the turn it was asked in, as it did before the cage.
 * Only for the simulation: the service never renders a user's file in its own process.
 */
import { DocumentRenderer } from '../src/service/previews/document-renderer.js';
import type { Renderer } from '../src/service/render-cage/render-cage.js';
import { runRenderJob, type OutputOf, type RenderJob } from '../src/service/render-cage/render-jobs.js';

export function inProcessRenderer(): Renderer {
  const documents = new DocumentRenderer();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run<J extends RenderJob>(_owner: string, _label: string, job: J): Promise<OutputOf<J>> {
      const result = queue.then(() => runRenderJob(job, documents) as Promise<OutputOf<J>>);
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      await queue;
      await documents.close();
    },
  };
}
