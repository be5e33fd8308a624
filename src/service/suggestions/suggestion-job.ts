/**
 * The metadata suggestion batch job (SERVICE-SPEC §4.1): per selected asset, values worth adding that
 * the asset does not have yet — never applied, only answered, for a person to accept with a metadata
 * edit. Sources, for the account's Keywords field: keywords embedded in the file (XMP, IPTC, EXIF:
 * embedded-keywords.ts), words of the file name (filename-tokens.ts) and, for images, the dominant
 * colour's name (sharp `stats()`, colour-name.ts, read in the render cage like previews: it decodes the
 * whole image); for option fields (Folders excepted): every option
 * whose value equals one of those words. A suggestion rejected for the asset
 * (`POST /rejected-asset-metadata-suggestion-batches`) is never made for it again.
 * Reading the file is async, so it happens before each chunk's transaction (like download renditions).
 */
import type { AssetsRepo } from '../assets/assets-repo.js';
import type { BlobSource, BlobStore } from '../blobs/blob-store.js';
import type { ImageFacts } from '../render-cage/render-jobs.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../errors/service-error.js';
import type { Caller } from '../http/request-auth.js';
import type { JobHandler } from '../jobs/job-runner.js';
import { selectedItems, type SelectedInput } from '../batch/asset-selector.js';
import { colourName } from './colour-name.js';
import { embeddedKeywords } from './embedded-keywords.js';
import { filenameTokens } from './filename-tokens.js';

export type SuggestionSource = 'EMBEDDED_METADATA' | 'FILE_NAME' | 'DOMINANT_COLOUR' | 'FIELD_OPTION';

export interface Suggestion {
  fieldId: string;
  /** What a metadata edit would set: the text, or the option id for option fields. */
  value: string;
  /** The text a person reads (the option's value for option fields). */
  label: string;
  source: SuggestionSource;
}

/** At most this many suggestions per asset, in source order. */
export const MAX_SUGGESTIONS = 50;

interface FileFacts {
  embedded: string[];
  colour: string | undefined;
}

interface OptionRow {
  id: string;
  field_id: string;
  value: string;
}

/** An image's embedded metadata blocks and dominant colour, read in `owner`'s turn; `label` names the job. */
export type ReadImageFacts = (owner: string, label: string, source: BlobSource) => Promise<ImageFacts>;

const bufferOf = (block: Uint8Array | undefined): Buffer | undefined => (block === undefined ? undefined : Buffer.from(block.buffer, block.byteOffset, block.byteLength));

export function suggestionJob(ctx: ServiceContext, deps: { assets: AssetsRepo; blobs: BlobStore; imageFacts: ReadImageFacts }): JobHandler<SelectedInput<null>, string> {
  const { assets, blobs, imageFacts } = deps;
  const facts = new Map<string, FileFacts>();
  const rejected = ctx.db.prepare<[string], { field_id: string; value: string }>('SELECT field_id, value FROM rejected_suggestions WHERE asset_id = ?');
  const options = ctx.db.prepare<[string, string], OptionRow>(
    `SELECT o.id, o.field_id, o.value FROM field_options o JOIN fields f ON f.id = o.field_id
      WHERE f.account_id = ? AND f.has_fixed_options = 1 AND ifnull(f.role, '') <> 'FOLDERS'
        AND lower(o.value) IN (SELECT lower(value) FROM json_each(?)) ORDER BY f.name, o.position, o.id`,
  );

  const currentFile = (caller: Caller, assetId: string) => {
    const asset = assets.get(caller, assetId);
    if (asset === undefined) throw notFound('asset', assetId);
    return { asset, file: asset.current_file_id === null ? undefined : assets.file(caller, asset.current_file_id) };
  };

  /** Embedded keywords and dominant colour of an image; nothing for other files or unreadable ones. */
  const readFacts = async (caller: Caller, assetId: string): Promise<void> => {
    let file;
    try {
      ({ file } = currentFile(caller, assetId));
    } catch {
      return; // runItem reports it
    }
    if (file?.file_type !== 'IMAGE') return;
    try {
      const { xmp, iptc, exif, dominant } = await imageFacts(file.account_id, `facts ${file.sha256}`, blobs.source(file.sha256));
      facts.set(assetId, { embedded: embeddedKeywords({ xmp: bufferOf(xmp), iptc: bufferOf(iptc), exif: bufferOf(exif) }), colour: colourName(dominant.r, dominant.g, dominant.b) });
    } catch (error) {
      ctx.log.warn({ err: error, assetId }, 'could not read the image for metadata suggestions');
    }
  };

  return {
    type: 'AssetMetadataSuggestionBatchJob',
    chunkSize: 50,
    items: selectedItems,
    async beforeChunk(items, caller) {
      facts.clear();
      for (const assetId of items) await readFacts(caller, assetId);
    },
    runItem(assetId, caller) {
      const { asset, file } = currentFile(caller, assetId);
      const found = facts.get(assetId) ?? { embedded: [], colour: undefined };
      const values = assets.values(asset.id);
      const refused = new Set(rejected.all(asset.id).map((row) => `${row.field_id}\n${row.value.toLowerCase()}`));
      const suggestions: Suggestion[] = [];
      const offer = (fieldId: string, value: string, label: string, source: SuggestionSource): void => {
        const key = `${fieldId}\n${value.toLowerCase()}`;
        const has = (values[fieldId] ?? []).some((existing) => existing.toLowerCase() === value.toLowerCase());
        if (has || refused.has(key) || suggestions.some((other) => `${other.fieldId}\n${other.value.toLowerCase()}` === key)) return;
        suggestions.push({ fieldId, value, label, source });
      };
      const tokens = file === undefined ? [] : filenameTokens(file.filename);
      const keywords = ctx.fields.byRole(caller.accountId, 'KEYWORDS');
      if (keywords !== undefined) {
        for (const word of found.embedded) offer(keywords.id, word, word, 'EMBEDDED_METADATA');
        for (const word of tokens) offer(keywords.id, word, word, 'FILE_NAME');
        if (found.colour !== undefined) offer(keywords.id, found.colour, found.colour, 'DOMINANT_COLOUR');
      }
      const words = [...found.embedded, ...tokens, ...(found.colour === undefined ? [] : [found.colour])];
      for (const option of options.all(caller.accountId, JSON.stringify(words))) offer(option.field_id, option.id, option.value, 'FIELD_OPTION');
      return { assetId: asset.id, suggestions: suggestions.slice(0, MAX_SUGGESTIONS) };
    },
  };
}
