import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:subject><rdf:Bag><rdf:li>Lighthouse</rdf:li><rdf:li>Boats</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>`;

describe('metadata suggestions', () => {
  let service: TestService;
  let assetId: string;
  let keywords: string;
  let redOption: string;
  let harbourOption: string;

  const options = async (fieldId: string, ...values: string[]): Promise<any[]> => {
    const { body } = await service.api('POST', '/field-option-batches', { items: values.map((value, position) => ({ batchItemId: value, fieldId, value, position })) });
    return values.map((value) => body.successes[value].result.id);
  };
  const suggest = async (selector: unknown, token?: string): Promise<any> => {
    const created = await service.api('POST', '/asset-metadata-suggestion-batch-jobs', { selector }, token);
    expect(created.status, created.text).toBe(200);
    return waitForJob(service, '/asset-metadata-suggestion-batch-jobs', created.body.result.id, token);
  };
  const labels = (job: any): string[] => job.successes[assetId].suggestions.map((entry: { label: string; source: string }) => `${entry.source}:${entry.label}`);

  beforeAll(async () => {
    service = await startTestService();
    const fields = (await service.api('GET', '/fields')).body;
    keywords = fields.find((field: { name: string }) => field.name === 'Keywords').id;
    const folders = fields.find((field: { name: string }) => field.name === 'Folders').id;
    const colour = (await service.api('POST', '/fields', { name: 'Colour', hasFixedOptions: true })).body.result.id;
    const place = (await service.api('POST', '/fields', { name: 'Place', hasFixedOptions: true })).body.result.id;
    [redOption] = await options(colour, 'Red', 'Blue');
    [harbourOption] = await options(place, 'Harbour', 'Lighthouse');
    await options(folders, 'harbour');
    const image = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 230, g: 20, b: 20 } } })
      .jpeg()
      .withXmp(XMP)
      .toBuffer();
    ({ assetId } = await uploadNewAsset(service, '/Harbour-boats_2024.jpg', image));
    await service.api('PATCH', `/assets/${assetId}`, { metadata: { values: { [keywords]: ['boats'] } } });
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('suggests embedded keywords, file name words, the colour and matching options, not what the asset has', async () => {
    const job = await suggest({ type: 'BY_IDS', assetIds: [assetId] });
    expect(job.failures).toEqual({});
    // "boats" is on the asset already (embedded as "Boats", and in the name); Folders options are never suggested.
    expect(labels(job)).toEqual(['EMBEDDED_METADATA:Lighthouse', 'FILE_NAME:harbour', 'DOMINANT_COLOUR:red', 'FIELD_OPTION:Red', 'FIELD_OPTION:Harbour', 'FIELD_OPTION:Lighthouse']);
    const red = job.successes[assetId].suggestions.find((entry: { label: string }) => entry.label === 'Red');
    expect(red.value).toBe(redOption);
    expect(job.successes[assetId].suggestions[0]).toEqual({ fieldId: keywords, value: 'Lighthouse', label: 'Lighthouse', source: 'EMBEDDED_METADATA' });
  });

  it('never suggests a rejected value for that asset again', async () => {
    const place = (await service.api('GET', '/fields')).body.find((field: { name: string }) => field.name === 'Place').id;
    const rejected = await service.api('POST', '/rejected-asset-metadata-suggestion-batches', {
      items: [
        { batchItemId: 'kw', assetId, fieldId: keywords, value: 'harbour' },
        { batchItemId: 'opt', assetId, fieldId: place, value: harbourOption },
        { batchItemId: 'again', assetId, fieldId: keywords, value: 'harbour' },
        { batchItemId: 'no-asset', assetId: 'no-such-asset', fieldId: keywords, value: 'x' },
        { batchItemId: 'no-field', assetId, fieldId: 'no-such-field', value: 'x' },
      ],
    });
    expect(rejected.status).toBe(200);
    expect(Object.keys(rejected.body.successes).sort()).toEqual(['again', 'kw', 'opt']);
    expect(rejected.body.failures['no-asset'].code).toBe('NOT_FOUND');
    expect(rejected.body.failures['no-field'].code).toBe('NOT_FOUND');
    const job = await suggest({ type: 'BY_IDS', assetIds: [assetId] });
    expect(labels(job)).toEqual(['EMBEDDED_METADATA:Lighthouse', 'DOMINANT_COLOUR:red', 'FIELD_OPTION:Red', 'FIELD_OPTION:Lighthouse']);
  });

  it('selects by criterion and reports unknown assets as failures', async () => {
    const byCriterion = await suggest({ type: 'BY_CRITERION', criterion: { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' } });
    expect(Object.keys(byCriterion.successes)).toEqual([assetId]);
    const withUnknown = await suggest({ type: 'BY_IDS', assetIds: ['no-such-asset'] });
    expect(withUnknown.failures['no-such-asset'].code).toBe('NOT_FOUND');
  });

  it.each([
    [{ criterion: { type: 'MATCH_ALL' } }, 400, 'UNSUPPORTED_V1_NAME'],
    [{ selector: { type: 'BY_NAME' } }, 400, 'INVALID_BODY'],
    [{}, 400, 'INVALID_BODY'],
  ])('refuses the job body %j with %i %s', async (body, status, code) => {
    const answer = await service.api('POST', '/asset-metadata-suggestion-batch-jobs', body);
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
  });

  it('refuses viewers, and rejection batches without items', async () => {
    const viewer = await addUser(service, 'viewer@example.test', 'viewer');
    const job = await service.api('POST', '/asset-metadata-suggestion-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [assetId] } }, viewer.token);
    expect(job.body.code).toBe('FORBIDDEN');
    const rejection = await service.api('POST', '/rejected-asset-metadata-suggestion-batches', { items: [{ batchItemId: 'v', assetId, fieldId: keywords, value: 'red' }] }, viewer.token);
    expect(rejection.body.code).toBe('FORBIDDEN');
    expect((await service.api('POST', '/rejected-asset-metadata-suggestion-batches', { items: [] })).body.code).toBe('INVALID_BODY');
  });
});
