/**
 * rclone as a peer in the bench: `rclone serve webdav DIR` on a loopback port is the server, and each
 * run is one `rclone copy SRC :webdav:DEST --webdav-url URL` into a new, empty DEST: the whole process,
 * from its start to its exit (its start-up, some tens of ms, included), as a user would run it.
 * Neither reads a user's rclone config (RCLONE_CONFIG names an empty file). The client's CPU is read
 * once it has exited (this process's reaped-children time); the server's from /proc while it runs.
 */
import { writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expectDelivered, type PeerRun } from './peer-run.js';
import { cpuMs, freePort, programVersion, reapedChildrenCpuMs, startProgram, type Program } from './processes.js';

/** rclone's version ("v1.60.1"), or undefined when it is not installed. */
export async function rcloneVersion(): Promise<string | undefined> {
  const line = await programVersion('rclone', ['version']);
  return line === undefined ? undefined : (/v\d+\.\d+\.\d+/.exec(line)?.[0] ?? line);
}

export interface WebdavServer {
  url: string;
  /** The folder it serves. */
  dir: string;
  env: NodeJS.ProcessEnv;
  program: Program;
}

/** Starts `rclone serve webdav dir` on a free loopback port; its log and config go beside `dir`. */
export async function startWebdavServer(dir: string): Promise<WebdavServer> {
  const config = `${dir}.rclone.conf`;
  writeFileSync(config, '');
  const env = { ...process.env, RCLONE_CONFIG: config };
  const url = `http://127.0.0.1:${await freePort()}/`;
  const program = await startProgram('rclone', ['serve', 'webdav', dir, '--addr', url.slice('http://'.length, -1)], `${dir}.log`, env);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(url, { method: 'PROPFIND', headers: { depth: '0' } })
      .then(async (response) => {
        await response.arrayBuffer();
        return response.status === 207;
      })
      .catch(() => false);
    if (ok) return { url, dir, env, program };
    if (Date.now() > deadline || program.process.exitCode !== null) {
      await program.stop();
      throw new Error(`rclone serve webdav did not answer (log: ${dir}.log)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `rclone copy source :webdav:dest --webdav-url URL …flags` to `server` and times it; throws unless `dest` then holds every file. */
export async function rcloneCopy(server: WebdavServer, source: string, dest: string, flags: readonly string[], files: number, bytes: number): Promise<PeerRun> {
  const clientBefore = (await reapedChildrenCpuMs()) ?? 0;
  const serverBefore = (await cpuMs(server.program.process.pid)) ?? 0;
  const started = performance.now();
  const stderr: Buffer[] = [];
  const child = spawn('rclone', ['copy', source, `:webdav:${dest}`, '--webdav-url', server.url, ...flags], { stdio: ['ignore', 'ignore', 'pipe'], env: server.env });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`rclone copy exited with ${code}: ${Buffer.concat(stderr).toString().trim().split('\n').slice(-3).join(' / ')}`);
  const run = { ms, clientCpuMs: ((await reapedChildrenCpuMs()) ?? 0) - clientBefore, serverCpuMs: ((await cpuMs(server.program.process.pid)) ?? 0) - serverBefore };
  expectDelivered('rclone', join(server.dir, dest), files, bytes);
  return run;
}
