/**
 * Syncthing as a peer in the bench: two instances on this machine, each on a throwaway home, that
 * know each other by loopback address only. One folder is shared send-only → receive-only, and the
 * run is timed from sharing it (the files already in place, so the sender scans and hashes them, as
 * our engine does on a fresh state) until the receiver holds every one.
 *
 * Each instance: `syncthing generate` makes its key and config; the config is then set for a closed
 * machine (listening on tcp://127.0.0.1:PORT only; global and local discovery, relays, NAT traversal,
 * usage and crash reporting, upgrades off) and for equal footing with the other programs in the bench
 * (`setLowPriority` off: Syncthing lowers its own CPU priority by default, which on a busy machine
 * would measure the neighbours, not Syncthing). Everything else is Syncthing's default, including
 * the folder's (file-system watcher on, fsync on, random pull order). REST on 127.0.0.1 with an API
 * key; `--no-restart`. Syncthing does its work in a child of the process started (its monitor), so
 * each side's CPU is read over the process and its descendants.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { expectDelivered, type PeerRun } from './peer-run.js';
import { freePort, programVersion, startProgram, treeCpuMs, type Program } from './processes.js';

/** Syncthing's version ("v1.19.2"), or undefined when it is not installed. */
export async function syncthingVersion(): Promise<string | undefined> {
  const line = await programVersion('syncthing', ['--version']);
  return line === undefined ? undefined : (/v\d+\.\d+\.\d+/.exec(line)?.[0] ?? line);
}

interface Instance {
  home: string;
  deviceId: string;
  guiUrl: string;
  apiKey: string;
  listenPort: number;
  program?: Program;
}

/** The closed-machine options (see the header); each must be found in the generated config. */
const OPTIONS: Record<string, string> = {
  globalAnnounceEnabled: 'false',
  localAnnounceEnabled: 'false',
  relaysEnabled: 'false',
  natEnabled: 'false',
  urAccepted: '-1',
  autoUpgradeIntervalH: '0',
  crashReportingEnabled: 'false',
  startBrowser: 'false',
  setLowPriority: 'false',
};

function replaceOnce(xml: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(xml)) throw new Error(`the generated Syncthing config has no ${pattern.source}`);
  return xml.replace(pattern, replacement);
}

async function generate(home: string): Promise<Instance> {
  const result = spawnSync('syncthing', ['generate', '--home', home, '--no-default-folder', '--skip-port-probing'], { encoding: 'utf8' });
  const deviceId = /Device ID: (\S+)/.exec(`${result.stdout}${result.stderr}`)?.[1];
  if (result.status !== 0 || deviceId === undefined) throw new Error(`syncthing generate failed: ${result.stderr.trim()}`);
  return { home, deviceId, guiUrl: `http://127.0.0.1:${await freePort()}`, apiKey: randomBytes(16).toString('hex'), listenPort: await freePort() };
}

/** Writes `self`'s config: closed-machine options, its loopback listener and `peer` as a known device at its loopback address. */
function configure(self: Instance, peer: Instance): void {
  const file = join(self.home, 'config.xml');
  let xml = readFileSync(file, 'utf8');
  xml = replaceOnce(xml, /<listenAddress>[^<]*<\/listenAddress>/, `<listenAddress>tcp://127.0.0.1:${self.listenPort}</listenAddress>`);
  for (const [name, value] of Object.entries(OPTIONS)) xml = replaceOnce(xml, new RegExp(`<${name}>[^<]*</${name}>`), `<${name}>${value}</${name}>`);
  // The peer device: a copy of the generated own-device element with the peer's ID and address.
  const own = /<device id="[^"]*" name="[^"]*"[\s\S]*?<\/device>/.exec(xml)?.[0];
  if (own === undefined) throw new Error('the generated Syncthing config has no device');
  const peerDevice = own
    .replace(/id="[^"]*" name="[^"]*"/, `id="${peer.deviceId}" name="peer"`)
    .replace(/<address>[^<]*<\/address>/, `<address>tcp://127.0.0.1:${peer.listenPort}</address>`);
  writeFileSync(file, xml.replace(own, `${own}\n    ${peerDevice}`));
}

async function rest(instance: Instance, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${instance.guiUrl}${path}`, {
    method,
    headers: { 'X-API-Key': instance.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Syncthing ${method} ${path}: HTTP ${response.status} ${text.trim()}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** Polls `check` every 100 ms until it is true; throws with `what` after `timeoutMs`. */
async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Syncthing: ${what} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function start(instance: Instance): Promise<void> {
  instance.program = await startProgram(
    'syncthing',
    ['serve', '--home', instance.home, '--no-browser', '--no-restart', '--no-upgrade', `--gui-address=${instance.guiUrl}`, `--gui-apikey=${instance.apiKey}`],
    join(instance.home, 'log.txt'),
    { ...process.env, STNORESTART: '1', STNOUPGRADE: '1', STNODEFAULTFOLDER: '1' },
  );
  await until('no REST answer', 30_000, async () => ((await rest(instance, 'GET', '/rest/system/ping')) as { ping?: string }).ping === 'pong');
}

async function connected(self: Instance, peer: Instance): Promise<boolean> {
  const answer = (await rest(self, 'GET', '/rest/system/connections')) as { connections: Record<string, { connected: boolean }> };
  return answer.connections[peer.deviceId]?.connected === true;
}

async function shareFolder(self: Instance, peer: Instance, id: string, path: string, type: 'sendonly' | 'receiveonly'): Promise<void> {
  const defaults = (await rest(self, 'GET', '/rest/config/defaults/folder')) as { devices: { deviceID: string }[] };
  const folder = { ...defaults, id, label: id, path, type, devices: [...defaults.devices, { deviceID: peer.deviceId, introducedBy: '', encryptionPassword: '' }] };
  await rest(self, 'PUT', `/rest/config/folders/${id}`, folder);
}

interface FolderStatus {
  globalFiles: number;
  localFiles: number;
  needFiles: number;
  state: string;
}

/**
 * Starts a pair on throwaway homes under `dir`, shares `source` (sender) → `target` (receiver, an
 * empty folder), and times it until the receiver has `files` files; stops both and removes the homes.
 * `target` is kept (the bench removes what every side received at its end).
 */
export async function syncthingInitialSync(dir: string, source: string, target: string, files: number, bytes: number): Promise<PeerRun> {
  const sender = await generate(join(dir, 'sender-home'));
  const receiver = await generate(join(dir, 'receiver-home'));
  try {
    configure(sender, receiver);
    configure(receiver, sender);
    await Promise.all([start(sender), start(receiver)]);
    await until('the two instances did not connect', 60_000, async () => (await connected(sender, receiver)) && (await connected(receiver, sender)));
    const senderPid = sender.program?.process.pid;
    const receiverPid = receiver.program?.process.pid;
    const folder = `bench-${Date.now()}`;
    // Each time the receiver's folder goes idle (or a second passes), its status is read. Asking for
    // these events once before the clock starts makes Syncthing keep them from here on.
    const seen = (await rest(receiver, 'GET', '/rest/events?since=0&timeout=0&events=StateChanged')) as { id: number }[];
    let since = seen.at(-1)?.id ?? 0;
    const cpuBefore = [(await treeCpuMs(senderPid)) ?? 0, (await treeCpuMs(receiverPid)) ?? 0];
    const started = performance.now();
    // The receiver first, so the sender's first index finds the folder accepted.
    await shareFolder(receiver, sender, folder, target, 'receiveonly');
    await shareFolder(sender, receiver, folder, source, 'sendonly');
    const deadline = Date.now() + Math.max(120_000, files * 50);
    for (;;) {
      const events = (await rest(receiver, 'GET', `/rest/events?since=${since}&timeout=1&events=StateChanged`)) as { id: number; data: { folder: string; to: string } }[];
      since = events.at(-1)?.id ?? since;
      if (events.some((event) => event.data.folder === folder && event.data.to === 'idle') || events.length === 0) {
        const status = (await rest(receiver, 'GET', `/rest/db/status?folder=${folder}`)) as FolderStatus;
        if (status.globalFiles === files && status.localFiles === files && status.needFiles === 0) break;
        if (Date.now() > deadline) throw new Error(`Syncthing did not finish: ${JSON.stringify(status)}`);
      }
    }
    const ms = performance.now() - started;
    const run = { ms, clientCpuMs: ((await treeCpuMs(senderPid)) ?? 0) - (cpuBefore[0] ?? 0), serverCpuMs: ((await treeCpuMs(receiverPid)) ?? 0) - (cpuBefore[1] ?? 0) };
    expectDelivered('Syncthing', target, files, bytes);
    return run;
  } finally {
    await Promise.all([sender.program?.stop(), receiver.program?.stop()]);
    rmSync(sender.home, { recursive: true, force: true });
    rmSync(receiver.home, { recursive: true, force: true });
    // The folder marker Syncthing writes into the shared folder; the next side must not find it.
    rmSync(join(source, '.stfolder'), { recursive: true, force: true });
  }
}
