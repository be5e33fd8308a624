/** `asset-sync preset …`: manages the download presets of a local service's data directory. */
import { resolve } from 'node:path';
import { addPreset, listPresets, removePreset, type PresetSummary } from './preset-admin.js';
import { CliError } from '../../platform/cli/cli-error.js';
import { integerFlag, parseFlags, requiredFlag } from '../../platform/cli/parse-flags.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const presetHelp = `Usage: asset-sync preset <action> --data DIR [options]

Manages the download presets of the service whose data is in DIR (it may be running).
  list     [--json]
  add      --name N [--group Web|Print|Social] then either
             [--width W] [--height H] [--fit inside|cover|fill] [--format JPG|PNG|WEBP|AVIF|TIFF] [--quality Q]
             (images are transformed; any other file is handed over as it is)
           or --candidates JSON   (the candidateTransformations of a CUSTOM description, API.md §6)
  remove   --name N   (or --id ID)
A fresh service starts with: Web (1000 px JPG), Thumbnail (300 px WEBP), Print (TIFF), Social (1080×1080 crop).`;

const actions = ['add', 'list', 'remove'] as const;

function describe(preset: PresetSummary): string {
  const operations = preset.candidateTransformations[0]?.transformation.operations ?? [];
  const steps = operations.map((operation) => {
    switch (operation.type) {
      case 'RESIZE':
        return `resize ${operation.width ?? 'auto'}×${operation.height ?? 'auto'} ${(operation.fit ?? 'INSIDE').toLowerCase()}`;
      case 'CROP':
        return 'savedCropAreaId' in operation ? `crop ${operation.savedCropAreaId}` : `crop ${operation.width}×${operation.height}+${operation.x}+${operation.y}`;
      case 'CONVERT':
        return `${operation.format}${operation.quality == null ? '' : ` q${operation.quality}`}`;
    }
  });
  return `${preset.id.padEnd(38)} ${preset.name.padEnd(28)} ${(preset.group ?? '-').padEnd(8)} ${steps.join(', ')}`.trimEnd();
}

export async function presetCommand(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags('preset', args, {
    data: { type: 'string' },
    name: { type: 'string' },
    id: { type: 'string' },
    group: { type: 'string' },
    width: { type: 'string' },
    height: { type: 'string' },
    fit: { type: 'string' },
    format: { type: 'string' },
    quality: { type: 'string' },
    candidates: { type: 'string' },
    json: { type: 'boolean' },
  }, { positionals: 1 });
  if (values.help === true) {
    io.out(presetHelp);
    return 0;
  }
  const [action, ...extra] = positionals;
  const known = actions.find((name) => name === action);
  if (known === undefined || extra.length > 0) {
    throw new CliError('USAGE', `${action === undefined ? 'an action is needed' : `unknown action "${[action, ...extra].join(' ')}"`}; use one of ${actions.join(', ')} (see \`asset-sync preset --help\`).`);
  }
  const dataDir = resolve(requiredFlag('preset', 'data', values.data));
  const size = (name: 'width' | 'height'): number | undefined => (values[name] === undefined ? undefined : integerFlag(name, values[name], 0, 1, 20_000));

  switch (known) {
    case 'list': {
      const presets = await listPresets(dataDir);
      if (values.json === true) io.out(JSON.stringify(presets, null, 2));
      else for (const preset of presets) io.out(describe(preset));
      return 0;
    }
    case 'add': {
      const preset = await addPreset(dataDir, {
        name: requiredFlag('preset add', 'name', values.name),
        group: values.group,
        width: size('width'),
        height: size('height'),
        fit: values.fit,
        format: values.format,
        quality: values.quality === undefined ? undefined : integerFlag('quality', values.quality, 0, 1, 100),
        candidates: values.candidates,
      });
      io.out(`added preset "${preset.name}" (${preset.id})`);
      return 0;
    }
    case 'remove': {
      const which = values.id ?? requiredFlag('preset remove', 'name', values.name);
      const preset = await removePreset(dataDir, which);
      io.out(`removed preset "${preset.name}"`);
      return 0;
    }
  }
}
