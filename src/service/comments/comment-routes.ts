/**
 * Comments on assets (SERVICE-SPEC §4.2; bodies ours, docs/api.md "Comments"): list and create under
 * `/assets/{id}/comments`, change and delete under `/comments/{id}`. Whoever may view an asset reads
 * and writes its comments (a viewer too: commenting is how viewers give feedback); only the author or an
 * admin changes or deletes one. The asset is loaded through `assetsRepo.get`, so a comment is out of
 * reach exactly when its asset is (folder limits included).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PermittedAction } from '../../shared/api/resources.js';
import type { AssetsRepo } from '../assets/assets-repo.js';
import type { ServiceContext } from '../context.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import { notFound, ServiceError } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller, type Caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';

export const MAX_COMMENT_LENGTH = 10_000;

interface CommentRow {
  id: string;
  account_id: string;
  asset_id: string;
  author_id: string;
  text: string;
  date_created: string;
  date_last_modified: string;
}

export interface Comment {
  id: string;
  assetId: string;
  authorId: string;
  text: string;
  dateCreated: string;
  dateLastModified: string;
}

const idParams = z.object({ id: z.string().min(1).max(200) });
const textBody = z.object({ text: z.string().trim().min(1).max(MAX_COMMENT_LENGTH) });
const listQuery = z.object({ from: z.coerce.number().int().min(0).max(10_000).optional(), pageSize: z.coerce.number().int().min(1).max(1000).optional() }).strict();

const toComment = (row: CommentRow): Comment => ({
  id: row.id,
  assetId: row.asset_id,
  authorId: row.author_id,
  text: row.text,
  dateCreated: row.date_created,
  dateLastModified: row.date_last_modified,
});

const mayChange = (who: Caller, row: CommentRow): boolean => who.role === 'admin' || row.author_id === who.userId;

function actions(who: Caller, row: CommentRow): PermittedAction[] {
  const granted = mayChange(who, row) ? ['VIEW', 'EDIT', 'DELETE'] : ['VIEW'];
  return granted.map((action) => ({ resourceType: 'COMMENT', resourceId: row.id, action }));
}

export function registerCommentRoutes(app: FastifyInstance, ctx: ServiceContext, assets: AssetsRepo): void {
  const { db } = ctx;
  const byId = db.prepare<[string, string], CommentRow>('SELECT * FROM comments WHERE account_id = ? AND id = ?');
  const ofAsset = db.prepare<[string, number, number], CommentRow>('SELECT * FROM comments WHERE asset_id = ? ORDER BY date_created, id LIMIT ? OFFSET ?');
  const countOf = db.prepare<[string], number>('SELECT count(*) FROM comments WHERE asset_id = ?').pluck();
  const insert = db.prepare('INSERT INTO comments (id, account_id, asset_id, author_id, text, date_created, date_last_modified) VALUES (@id, @account_id, @asset_id, @author_id, @text, @date_created, @date_last_modified)');
  const update = db.prepare('UPDATE comments SET text = ?, date_last_modified = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM comments WHERE id = ?');

  const loadAsset = (who: Caller, params: unknown) => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const asset = assets.get(who, id);
    if (asset === undefined) throw notFound('asset', id);
    return asset;
  };
  const loadComment = (who: Caller, params: unknown): CommentRow => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const row = byId.get(who.accountId, id);
    if (row === undefined || assets.get(who, row.asset_id) === undefined) throw notFound('comment', id);
    return row;
  };
  const requireChange = (who: Caller, row: CommentRow): void => {
    if (!mayChange(who, row)) throw new ServiceError('FORBIDDEN', 'Only the author of a comment or an admin may change or delete it.');
  };

  app.get('/assets/:id/comments', async (request) => {
    const who = caller(request);
    const asset = loadAsset(who, request.params);
    const { from = 0, pageSize = 100 } = parseInput(listQuery, request.query, 'INVALID_QUERY');
    const rows = ofAsset.all(asset.id, pageSize, from);
    return { results: rows.map((row) => envelope(toComment(row), actions(who, row))), totalResults: countOf.get(asset.id) ?? 0 };
  });

  app.post('/assets/:id/comments', { config: { body: textBody } }, async (request) => {
    const who = caller(request);
    const asset = loadAsset(who, request.params);
    const { text } = parseBody(request, textBody);
    const now = ctx.nowIso();
    const row: CommentRow = { id: timeOrderedUuid(), account_id: who.accountId, asset_id: asset.id, author_id: who.userId, text, date_created: now, date_last_modified: now };
    insert.run(row);
    return envelope(toComment(row), actions(who, row));
  });

  app.patch('/comments/:id', { config: { body: textBody } }, async (request) => {
    const who = caller(request);
    const row = loadComment(who, request.params);
    requireChange(who, row);
    const { text } = parseBody(request, textBody);
    const changed = { ...row, text, date_last_modified: ctx.nowIso() };
    update.run(changed.text, changed.date_last_modified, row.id);
    return envelope(toComment(changed), actions(who, changed));
  });

  app.delete('/comments/:id', async (request) => {
    const who = caller(request);
    const row = loadComment(who, request.params);
    requireChange(who, row);
    remove.run(row.id);
    return envelope(toComment(row));
  });
}
