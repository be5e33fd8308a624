/**
 * Which relPaths are ignored: the defaults (default-ignores.ts) plus a gitignore-syntax
 * `.assetsyncignore` at the top of the root, read with the `ignore` package. User rules come after the
 * defaults, so `!*.part` re-includes what a default excludes, exactly as in one gitignore file. The
 * engine's own `.asset-sync/` and the ignore file itself are ignored whatever the user writes.
 * Ignored paths are simply not reported. Never throws for a path; loading throws when the user's file
 * exists but cannot be read, because scanning without it could upload what the user excluded.
 */
import ignore from 'ignore';
import { join } from 'node:path';
import type { FileSystem } from './file-system.js';
import { ENGINE_DIR_NAME, IGNORE_FILE_NAME, matchesDefaultIgnore } from './default-ignores.js';
import { LocalError, errnoCode } from './local-error.js';
import { baseName, relSegments } from './rel-path.js';

/** `ignore` caches every path it is asked about; start afresh after this many to bound memory. */
const CACHE_RESET_AFTER = 50_000;
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

type Ignore = ReturnType<typeof ignore>;

export class IgnoreRules {
  private matcher: Ignore | undefined;
  private tested = 0;

  /** `userPatterns`: the text of a `.assetsyncignore` (empty for none). */
  constructor(private readonly userPatterns = '') {
    this.matcher = this.buildMatcher();
  }

  /** Whether `relPath` is ignored, itself or through one of its parent directories. */
  ignores(relPath: string, isDirectory: boolean): boolean {
    if (relPath === '') return false;
    const segments = relSegments(relPath);
    if (segments[0] === ENGINE_DIR_NAME || relPath === IGNORE_FILE_NAME) return true;
    let prefix = '';
    for (const [index, segment] of segments.entries()) {
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      const last = index === segments.length - 1;
      if (this.decide(prefix, segment, last ? isDirectory : true)) return true;
    }
    return false;
  }

  /**
   * The walk's hot path: whether the entry `name` at `relPath` is ignored, its parent directory being
   * already known not to be.
   */
  ignoresEntry(relPath: string, isDirectory: boolean): boolean {
    if (relPath === IGNORE_FILE_NAME || relPath === ENGINE_DIR_NAME) return true;
    return this.decide(relPath, baseName(relPath), isDirectory);
  }

  /** Last matching rule wins: a user rule (either way) over a default. */
  private decide(relPath: string, name: string, isDirectory: boolean): boolean {
    if (this.matcher !== undefined) {
      if (++this.tested > CACHE_RESET_AFTER) {
        this.matcher = this.buildMatcher();
        this.tested = 0;
      }
      const result = this.matcher?.test(isDirectory ? `${relPath}/` : relPath);
      if (result?.ignored === true) return true;
      if (result?.unignored === true) return false;
    }
    return matchesDefaultIgnore(name);
  }

  private buildMatcher(): Ignore | undefined {
    const text = this.userPatterns.replace(/^\uFEFF/, '');
    if (text.trim() === '') return undefined;
    return ignore().add(text);
  }
}

/** The rules of a root: defaults plus its `.assetsyncignore`, if there is one. */
export async function loadIgnoreRules(fs: FileSystem, root: string): Promise<IgnoreRules> {
  const path = join(root, IGNORE_FILE_NAME);
  try {
    const stat = await fs.lstat(path);
    if (stat.kind !== 'file') throw new LocalError('IGNORE_FILE_UNREADABLE', `${IGNORE_FILE_NAME} is not a regular file`, path);
    if (stat.size > MAX_IGNORE_FILE_BYTES) throw new LocalError('IGNORE_FILE_UNREADABLE', `${IGNORE_FILE_NAME} is larger than 1 MiB`, path);
    return new IgnoreRules(new TextDecoder().decode(await fs.readFile(path)));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return new IgnoreRules();
    if (error instanceof LocalError) throw error;
    throw new LocalError('IGNORE_FILE_UNREADABLE', `cannot read ${IGNORE_FILE_NAME}: ${errnoCode(error) ?? String(error)}`, path, { cause: error });
  }
}
