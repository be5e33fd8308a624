/**
 * The local side's public surface (DESIGN.md §1 `local/`): what the engine wires. Everything else in
 * this folder is an implementation detail of these.
 */
export type { Clock, CancelTimer } from './clock.js';
export { systemClock } from './clock.js';
export { ManualClock } from './manual-clock.js';
export type { DirEntry, EntryKind, FileStat, FileSystem, ReadHandle, StatEntry, WriteHandle } from './file-system.js';
export { sameSignature } from './file-system.js';
export { NodeFileSystem } from './node-file-system.js';
export { MemoryFileSystem, type MemoryFileSystemOptions } from './memory-file-system.js';
export type { NameMode } from './name-map.js';
export type { FileSignature, Gone, LocalDirectory, LocalFile, LocalObservation, NotSynced, NotSyncedReason, PendingFile, PreviousFile, PreviousLookup } from './observations.js';
export { LocalScanner, type LocalScannerOptions, type ObservationSink, type ScanOptions, type ScanSummary, type SettleCheck } from './local-scanner.js';
export { DEFAULT_IGNORE_PATTERNS, ENGINE_DIR_NAME, IGNORE_FILE_NAME } from './default-ignores.js';
export { IgnoreRules, loadIgnoreRules } from './ignore-rules.js';
export { DEFAULT_STABLE_MS, StabilityGate, type Stability } from './stability-gate.js';
export type { HintBatchOptions } from './hint-batcher.js';
export { touchesIgnoreFile, type Watcher, type WatcherOptions } from './watcher.js';
export { ChokidarWatcher } from './chokidar-watcher.js';
export { MemoryWatcher } from './memory-watcher.js';
export { NativeWatcher, type NativeWatcherOptions } from './native-watcher.js';
export { checkRoot, engineDir, markerPath, readRootMarker, writeRootMarker, type RootCheck, type RootMarker } from './root-marker.js';
export { checkRelPath, locateInsideRoot, resolveInsideRoot } from './resolve-inside-root.js';
export { partFileName } from './part-file-name.js';
export { PathLocator, type Located } from './locate-path.js';
export { foldsCase } from './case-probe.js';
export { safeLocalName } from './safe-local-name.js';
export { writeFileAtomic } from './write-file-atomic.js';
export { LocalError, errnoCode, type LocalErrorCode } from './local-error.js';
export { nfc, toRelPath } from './rel-path.js';
export { createFreedesktopTrash, trashDirOf, type Trash, type FreedesktopTrashOptions } from './freedesktop-trash.js';
export { nodeLocalDisk, memoryLocalDisk, type LocalDisk } from './local-disk.js';
export { checkFile, hashFile, HASH_READ_BYTES } from './hash-file.js';
