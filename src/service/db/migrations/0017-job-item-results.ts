/**
 * A job's per-item results as rows. A download job with a transformation commits each item
 * as its rendition is made; kept as one JSON text per job, the results would be rewritten whole at
 * every commit (O(n²) bytes over a job: 200 MiB written for 1,000 items). Each commit inserts only
 * its items' rows, and a GET of the job assembles them in item order.
 *
 * - job_item_results: one row per item done, `outcome` SUCCESS (its value) or FAILURE (its error
 *   body), both JSON; `position` is the item's index in the job: the order the job's answer lists them, read
 *   in key order without a sort. Two items of one batchItemId are two rows; the answer lists the key
 *   once, with the later value, where the first was (as assigning a key twice in an object does).
 * - jobs.successes / jobs.failures stay for jobs written before this migration (read first, rows over
 *   them); nothing writes them any more.
 */
export default /* sql */ `
CREATE TABLE job_item_results (
  job_id   TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  outcome  TEXT NOT NULL CHECK (outcome IN ('SUCCESS', 'FAILURE')),
  key      TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (job_id, position)
) WITHOUT ROWID;
`;
