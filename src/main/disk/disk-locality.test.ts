import { describe, expect, it } from 'vitest';
import { isLocalDisk } from './disk-locality.js';

describe('isLocalDisk', () => {
  it('on Linux, trusts only the statfs types of local file systems', () => {
    const linux = (statfsType: number | undefined): boolean => isLocalDisk({ platform: 'linux', dir: '/home/ana/Brand', statfsType });
    expect(linux(0xef53)).toBe(true); // ext4
    expect(linux(0x01021994)).toBe(true); // tmpfs
    expect(linux(0x9123683e)).toBe(true); // btrfs
    expect(linux(0x6969)).toBe(false); // nfs
    expect(linux(0xff534d42)).toBe(false); // cifs
    expect(linux(0xfe534d42)).toBe(false); // smb2
    expect(linux(0x65735546)).toBe(false); // fuse (sshfs, rclone…)
    expect(linux(0x1234)).toBe(false); // unknown
    expect(linux(undefined)).toBe(false); // statfs failed
  });

  it('on macOS, counts everything but /Volumes, /Network and /net as the internal disk', () => {
    const mac = (dir: string): boolean => isLocalDisk({ platform: 'darwin', dir });
    expect(mac('/Users/ana/Brand')).toBe(true);
    expect(mac('/Users/ana/Volumes')).toBe(true);
    expect(mac('/Volumes/Studio NAS/Brand')).toBe(false);
    expect(mac('/Volumes')).toBe(false);
    expect(mac('/Network/Servers/nas')).toBe(false);
    expect(mac('/net/nas/Brand')).toBe(false);
    expect(mac('/Networking/x')).toBe(true);
  });

  it('on Windows, counts only the system drive', () => {
    const win = (dir: string, systemDrive?: string): boolean => isLocalDisk({ platform: 'win32', dir, systemDrive });
    expect(win('C:\\Users\\ana\\Brand')).toBe(true);
    expect(win('c:/Users/ana')).toBe(true);
    expect(win('D:\\Brand')).toBe(false);
    expect(win('D:\\Brand', 'D:')).toBe(true);
    expect(win('\\\\nas\\share\\Brand')).toBe(false);
    expect(win('C:relative')).toBe(false);
  });

  it('counts nothing as local on other platforms', () => {
    expect(isLocalDisk({ platform: 'freebsd', dir: '/home/ana', statfsType: 0xef53 })).toBe(false);
  });
});
