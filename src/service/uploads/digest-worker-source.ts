/**
 * The digest worker's code. It keeps running digests (an MD5, and a SHA-256 when asked) and feeds them
 * by reading byte ranges back from the upload file — from the page cache, the bytes were just written —
 * so it hashes what the file holds, and the event loop never hashes at all.
 *
 * One read can feed several digests: a part's ETag digest and the whole-file digest when the part is
 * the next one the file digest needs. A digest may also borrow another's MD5 (`md5From`): part 1's MD5
 * is the whole file's MD5 up to part 1's end, so it is computed once. It must then be fed together with
 * the digest it borrows from and finished while both stand at the same offset; otherwise it fails and
 * the caller hashes the part on its own.
 *
 * Plain JavaScript evaluated from a string, so the same code runs from tsc output, under vitest (which
 * cannot load .ts workers) and inside a bundled Electron app.
 *
 * Messages (each answered with `{ seq, offset }`, offset -1 when the digest is gone, or `{ seq, error }`):
 *   { op: 'open', key, at, md5?, sha256, md5From? }   a digest of the bytes from offset `at` (an MD5
 *                                               unless md5 is false, a SHA-256 if sha256)
 *   { op: 'feed', path, from, to, keys }        bytes [from, to) of the file into every digest in `keys`
 *   { op: 'finish', key }                       answers `md5` (and `sha256`) hex, and forgets the digest
 *   { op: 'drop', key }                         forgets the digest
 * A failed feed forgets every digest it named.
 */
export const digestWorkerSource = String.raw`
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
// Read in slices that stay in the core's cache from the read to the last hash.
const buffer = Buffer.allocUnsafe(256 * 1024);
const digests = new Map();

function digestAt(key, offset) {
  const digest = digests.get(key);
  if (digest === undefined) throw new Error('no digest ' + key);
  if (digest.offset !== offset) throw new Error('digest ' + key + ' is at ' + digest.offset + ', not ' + offset);
  return digest;
}

function feed({ path, from, to, keys }) {
  const fed = keys.map((key) => digestAt(key, from));
  for (const digest of fed) {
    if (digest.md5From !== undefined && !keys.includes(digest.md5From)) throw new Error('fed without ' + digest.md5From);
  }
  const hashes = [];
  for (const digest of fed) {
    if (digest.md5 !== undefined) hashes.push(digest.md5);
    if (digest.sha256 !== undefined) hashes.push(digest.sha256);
  }
  if (to > from) {
    const fd = openSync(path, 'r');
    try {
      for (let position = from; position < to; ) {
        const read = readSync(fd, buffer, 0, Math.min(buffer.length, to - position), position);
        if (read === 0) throw new Error('file ended at ' + position);
        const slice = buffer.subarray(0, read);
        for (const hash of hashes) hash.update(slice);
        position += read;
      }
    } finally {
      closeSync(fd);
    }
  }
  for (const digest of fed) digest.offset = to;
  return to;
}

function finish(key) {
  const digest = digests.get(key);
  if (digest === undefined) return { offset: -1 };
  digests.delete(key);
  let md5;
  if (digest.md5From === undefined) md5 = digest.md5 && digest.md5.digest('hex');
  else {
    const lender = digests.get(digest.md5From);
    if (lender === undefined || lender.offset !== digest.offset) throw new Error('cannot borrow the MD5 of ' + digest.md5From);
    md5 = lender.md5.copy().digest('hex');
  }
  return { offset: digest.offset, md5, sha256: digest.sha256 && digest.sha256.digest('hex') };
}

parentPort.on('message', (message) => {
  const { op, seq } = message;
  try {
    if (op === 'open') {
      const { key, at, md5, sha256, md5From } = message;
      if (md5From !== undefined) digestAt(md5From, at);
      digests.set(key, { offset: at, md5From, md5: md5From === undefined && md5 !== false ? createHash('md5') : undefined, sha256: sha256 ? createHash('sha256') : undefined });
      parentPort.postMessage({ seq, offset: at });
    } else if (op === 'feed') {
      parentPort.postMessage({ seq, offset: feed(message) });
    } else if (op === 'finish') {
      parentPort.postMessage({ seq, ...finish(message.key) });
    } else {
      digests.delete(message.key);
      parentPort.postMessage({ seq, offset: -1 });
    }
  } catch (error) {
    for (const key of message.keys || [message.key]) digests.delete(key);
    parentPort.postMessage({ seq, offset: -1, error: String((error && error.message) || error) });
  }
});
`;
