/**
 * The names nobody wants synced: OS metadata, lock files, partial downloads, editor swap files, the
 * engine's own directory. One table gives both the gitignore patterns (shown to people, and tested to
 * agree with the `ignore` package) and a fast case-insensitive name matcher for the walk's hot path,
 * where the `ignore` package costs ~3 µs a path. All rules apply to a name at any depth.
 */

/** The engine's own directory inside each root (marker, temp downloads). */
export const ENGINE_DIR_NAME = '.asset-sync';
/** The user's rules, gitignore syntax, at the top of the root. Not synced itself. */
export const IGNORE_FILE_NAME = '.assetsyncignore';

interface DefaultRule {
  /** The gitignore spelling. */
  pattern: string;
  /** Lowercase: exact name, or prefix and/or suffix. */
  exact?: string;
  prefix?: string;
  suffix?: string;
}

const rules: DefaultRule[] = [
  // The engine itself. Also forced in ignore-rules.ts, so no user rule can un-ignore them.
  { pattern: ENGINE_DIR_NAME, exact: ENGINE_DIR_NAME },
  { pattern: IGNORE_FILE_NAME, exact: IGNORE_FILE_NAME },
  // macOS metadata, AppleDouble files on non-HFS volumes, custom folder icons (`Icon` + CR).
  { pattern: '.DS_Store', exact: '.ds_store' },
  { pattern: '._*', prefix: '._' },
  { pattern: 'Icon[\r]', exact: 'icon\r' },
  { pattern: '.Spotlight-V100', exact: '.spotlight-v100' },
  { pattern: '.fseventsd', exact: '.fseventsd' },
  { pattern: '.Trashes', exact: '.trashes' },
  { pattern: '.TemporaryItems', exact: '.temporaryitems' },
  { pattern: '.DocumentRevisions-V100', exact: '.documentrevisions-v100' },
  { pattern: '.VolumeIcon.icns', exact: '.volumeicon.icns' },
  { pattern: '.apdisk', exact: '.apdisk' },
  // Windows metadata and recycle bins.
  { pattern: 'Thumbs.db', exact: 'thumbs.db' },
  { pattern: 'ehthumbs.db', exact: 'ehthumbs.db' },
  { pattern: 'desktop.ini', exact: 'desktop.ini' },
  { pattern: '$RECYCLE.BIN', exact: '$recycle.bin' },
  { pattern: 'System Volume Information', exact: 'system volume information' },
  // Linux desktops: trash dirs on removable drives, FUSE/gvfs leftovers, KDE folder settings.
  { pattern: '.Trash-*', prefix: '.trash-' },
  { pattern: '.fuse_hidden*', prefix: '.fuse_hidden' },
  { pattern: '.goutputstream-*', prefix: '.goutputstream-' },
  { pattern: '.directory', exact: '.directory' },
  // Lock files: Microsoft Office, LibreOffice, InDesign.
  { pattern: '~$*', prefix: '~$' },
  { pattern: '.~lock.*#', prefix: '.~lock.', suffix: '#' },
  { pattern: '*.idlk', suffix: '.idlk' },
  // Temp, swap and backup files.
  { pattern: '*.tmp', suffix: '.tmp' },
  { pattern: '*.swp', suffix: '.swp' },
  { pattern: '*.swo', suffix: '.swo' },
  { pattern: '*.swx', suffix: '.swx' },
  { pattern: '*~', suffix: '~' },
  // Downloads in progress: Chrome, Firefox, Edge/IE, Safari.
  { pattern: '*.crdownload', suffix: '.crdownload' },
  { pattern: '*.part', suffix: '.part' },
  { pattern: '*.partial', suffix: '.partial' },
  { pattern: '*.download', suffix: '.download' },
];

/** The default rules in gitignore syntax, in order. */
export const DEFAULT_IGNORE_PATTERNS: readonly string[] = rules.map((rule) => rule.pattern);

const exactNames = new Set(rules.flatMap((rule) => (rule.exact === undefined ? [] : [rule.exact])));
const affixRules = rules.filter((rule) => rule.exact === undefined);

/** Whether a default rule matches this single name (case-insensitive, like the `ignore` package). */
export function matchesDefaultIgnore(name: string): boolean {
  const lower = name.toLowerCase();
  if (exactNames.has(lower)) return true;
  for (const rule of affixRules) {
    const { prefix = '', suffix = '' } = rule;
    if (lower.length >= prefix.length + suffix.length && lower.startsWith(prefix) && lower.endsWith(suffix)) return true;
  }
  return false;
}
