import { describe, expect, it } from 'vitest';
import { walkFieldOptions } from './walk-field-options.js';
import { instantClock, scriptedTokens, sendJson, startFakeServer } from '../../../test/support/api-client-fakes.js';
import { createApiClient } from './create-api-client.js';

describe('field options from a server that wraps parents and leaves things out', () => {
  it('searches below every option a server does not call a leaf', async () => {
    const option = (id: string, extra: Record<string, unknown>) => ({ result: { id, fieldId: 'f', value: id, position: 0, ...extra }, permittedActions: [] });
    // Top level: `silent` says nothing, `leaf` is one, `odd` says leaf but counts a child. Below them: nothing.
    const server = await startFakeServer((request, response) => {
      const body = JSON.parse(request.body.toString() || '{}');
      const top = body.criterion?.type === 'AND';
      sendJson(response, 200, { results: top ? [option('silent', {}), option('leaf', { leaf: true, numberOfChildren: 0 }), option('odd', { leaf: true, numberOfChildren: 1 })] : [], totalResults: top ? 3 : 0 });
    });
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), env: {} });
    try {
      expect((await walkFieldOptions(api, 'f')).map((node) => node.option.id)).toEqual(['silent', 'leaf', 'odd']);
      const parents = server.requests.map((request) => JSON.parse(request.body.toString()).criterion).filter((criterion) => criterion.type === 'FIELD_EQUALS').map((criterion) => criterion.value);
      expect(parents.sort()).toEqual(['odd', 'silent']);
    } finally {
      api.close();
      await server.close();
    }
  });

  it('accepts parent as {result: …}, missing leaf/numberOfChildren, and unknown properties', async () => {
    const server = await startFakeServer((request, response) => {
      if (request.url === '/field-options/c') {
        sendJson(response, 200, {
          result: {
            id: 'c',
            fieldId: 'f',
            value: 'Child',
            position: 1,
            extra: 'ignored',
            parent: { result: { id: 'p', fieldId: 'f', value: 'Parent', position: 0, parent: null, numberOfChildren: 1 } },
          },
        });
      } else if (request.url === '/fields') {
        sendJson(response, 200, { result: [{ id: 'f', name: 'Folders', hasFixedOptions: true, colour: 'blue' }] });
      } else sendJson(response, 404, {});
    });
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), env: {} });
    try {
      const option = await api.getFieldOption('c');
      expect(option).toEqual({
        id: 'c',
        fieldId: 'f',
        value: 'Child',
        position: 1,
        // The server said nothing: not known to be a leaf, so a walk still searches below it.
        leaf: false,
        numberOfChildren: 0,
        parent: { id: 'p', fieldId: 'f', value: 'Parent', position: 0, leaf: false, numberOfChildren: 1, parent: null },
      });
      expect(await api.listFields()).toEqual([{ id: 'f', name: 'Folders', hasFixedOptions: true, hierarchical: false, multiValue: false, indestructable: false }]);
    } finally {
      api.close();
      await server.close();
    }
  });
});
