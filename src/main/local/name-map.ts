/**
 * A directory's entries in the in-memory file system, keyed the way a real disk compares names:
 * `exact` (ext4: bytes), `case-insensitive` (APFS and NTFS defaults: `Logo.png` and `logo.png` are one
 * entry, NFC and NFD spellings too, and the name keeps the spelling it was last given), or `nfd`
 * (HFS+: names are stored decomposed, so a listing answers NFD whatever was written). The simulation
 * runs the engine on each, as users' disks do.
 */
export type NameMode = 'exact' | 'case-insensitive' | 'nfd';

export class NameMap<V> {
  private readonly byKey = new Map<string, { name: string; value: V }>();

  constructor(private readonly mode: NameMode = 'exact') {}

  private key(name: string): string {
    switch (this.mode) {
      case 'exact':
        return name;
      case 'case-insensitive':
        return name.normalize('NFC').toLowerCase();
      case 'nfd':
        return name.normalize('NFD');
    }
  }

  private stored(name: string): string {
    return this.mode === 'nfd' ? name.normalize('NFD') : name;
  }

  get size(): number {
    return this.byKey.size;
  }
  get(name: string): V | undefined {
    return this.byKey.get(this.key(name))?.value;
  }
  has(name: string): boolean {
    return this.byKey.has(this.key(name));
  }
  set(name: string, value: V): this {
    this.byKey.set(this.key(name), { name: this.stored(name), value });
    return this;
  }
  delete(name: string): boolean {
    return this.byKey.delete(this.key(name));
  }
  /** [name as stored, value] pairs, in insertion order (callers sort). */
  *[Symbol.iterator](): IterableIterator<[string, V]> {
    for (const { name, value } of this.byKey.values()) yield [name, value];
  }
}
