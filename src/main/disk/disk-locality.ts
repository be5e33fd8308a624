/**
 * Whether a directory is on a disk of this machine, where a small file-system call answers in
 * microseconds, or may be on a network share (or a FUSE mount, or anything unknown), where a call can
 * take seconds, or hang while the server is away. inline-calls.ts runs calls on the event loop only in
 * the first kind: a call that hangs there hangs the whole app, not one thread-pool thread.
 *
 * Linux answers exactly: the statfs magic of the directory's file system, against the local ones
 * (linux/magic.h). macOS's statfs type numbers are not stable, and Windows gives none, so there the
 * path decides: macOS mounts external and network volumes under /Volumes (and automounts under
 * /Network and /net); on Windows only the system drive counts, as mapped network drives look like any
 * other letter. Anything else is not local.
 */

/** statfs f_type of the local file systems we run inline on (linux/magic.h). */
const LINUX_LOCAL_TYPES: ReadonlySet<number> = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x858458f6, // ramfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0xca451a4e, // bcachefs
  0x794c7630, // overlayfs (containers)
  0x3153464a, // jfs
  0x52654973, // reiserfs
  0x2011bab0, // exfat
  0x4d44, // vfat, msdos
  0x7366746e, // ntfs3
  0x482b, // hfsplus
  0xf15f, // ecryptfs
]);

export interface DiskQuery {
  platform: NodeJS.Platform;
  /** Absolute path of the directory. */
  dir: string;
  /** Linux only: statfs(dir).type; undefined when it could not be read. */
  statfsType?: number | undefined;
  /** Windows only: the system drive, e.g. `C:`. */
  systemDrive?: string | undefined;
}

/** Whether a platform decides by statfs (the caller reads it first) rather than by path. */
export function needsStatfs(platform: NodeJS.Platform): boolean {
  return platform === 'linux';
}

export function isLocalDisk(query: DiskQuery): boolean {
  const { platform, dir } = query;
  switch (platform) {
    case 'linux':
      return query.statfsType !== undefined && LINUX_LOCAL_TYPES.has(query.statfsType);
    case 'darwin':
      return dir.startsWith('/') && !/^\/(Volumes|Network|net)(\/|$)/.test(dir);
    case 'win32': {
      const drive = (query.systemDrive ?? 'C:').toLowerCase();
      return dir.length >= 2 && dir.slice(0, 2).toLowerCase() === drive && (dir.length === 2 || dir[2] === '\\' || dir[2] === '/');
    }
    default:
      return false;
  }
}
