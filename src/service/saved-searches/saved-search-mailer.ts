/**
 * E-mail updates of saved searches (SERVICE-SPEC §6): now and then (`savedSearchEmailInterval`), each
 * saved search with updates on is run for assets that are new since its last check — created, made live
 * or given a file — with the owner's current folder limit, and each owner gets ONE e-mail listing every
 * saved search of theirs that has news (batched: many uploads make one e-mail, not one each). An asset is
 * e-mailed about at most once per saved search (saved_search_notified), so checks may overlap: each looks
 * back a minute before the previous one started (never before updates were turned on), which catches
 * assets written while it ran. A failed send
 * is logged and retried at the next check; nothing is marked sent until the server took the e-mail.
 * Owners who left the account are skipped.
 */
import type { AssetRow } from '../assets/assets-repo.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/request-auth.js';
import { compileAssetQuery } from '../search/asset-query.js';
import { searchAccount } from '../search/search-account.js';
import type { Mailer } from './smtp-mailer.js';
import type { SavedSearchesRepo, SavedSearchRow } from './saved-searches-repo.js';

/** Assets listed per saved search in one e-mail; the rest are counted. */
const LISTED = 20;
/** How far each check looks back before the previous one started (see the header). */
const OVERLAP_MS = 60_000;

interface News {
  search: SavedSearchRow;
  assets: AssetRow[];
  more: boolean;
}

export class SavedSearchMailer {
  private running: Promise<void> | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly savedSearches: SavedSearchesRepo,
    private readonly mailer: Mailer,
    private readonly filenameOf: (asset: AssetRow) => string,
  ) {}

  /** One check of every saved search with updates on; a check already under way is joined, not repeated. */
  check(): Promise<void> {
    this.running ??= this.checkAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves when no check is under way (the service waits for one before it closes). */
  async idle(): Promise<void> {
    await this.running;
  }

  private async checkAll(): Promise<void> {
    const { ctx } = this;
    const lookBack = new Date(ctx.clock.now() - OVERLAP_MS).toISOString();
    // Never before the search's own start: what matched before updates were on is not news.
    const nextFrom = (search: SavedSearchRow): string => (search.checked_from > lookBack ? search.checked_from : lookBack);
    const byOwner = new Map<string, { email: string; news: News[] }>();
    for (const search of this.savedSearches.withEmailUpdates()) {
      const member = ctx.accounts.membership(search.account_id, search.owner_id);
      if (member === undefined) continue;
      const news = this.newMatches(search, member.email, callerOf(member, ctx.folderPolicy));
      if (news === undefined) {
        this.savedSearches.markNotified(search.id, [], nextFrom(search));
        continue;
      }
      const key = `${search.account_id}/${search.owner_id}`;
      const entry = byOwner.get(key) ?? { email: member.email, news: [] };
      entry.news.push(news);
      byOwner.set(key, entry);
    }
    for (const { email, news } of byOwner.values()) {
      try {
        await this.mailer.send({ to: email, subject: subjectOf(news), text: this.textOf(news) });
      } catch (error) {
        ctx.log.warn({ err: error, to: email }, 'a saved-search e-mail could not be sent; it is retried at the next check');
        continue;
      }
      ctx.db.transaction(() => {
        for (const item of news) this.savedSearches.markNotified(item.search.id, item.assets.map((asset) => asset.id), nextFrom(item.search));
      })();
    }
  }

  private newMatches(search: SavedSearchRow, email: string, owner: ReturnType<typeof callerOf>): News | undefined {
    let query;
    try {
      query = compileAssetQuery(searchAccount(this.ctx.fields, owner), JSON.parse(search.criterion) as unknown, JSON.parse(search.sorts) as unknown);
    } catch (error) {
      // A field the criterion names was deleted since: nothing can match until the owner fixes it.
      this.ctx.log.warn({ err: error, savedSearchId: search.id, owner: email }, 'a saved search no longer compiles');
      return undefined;
    }
    const sql = `SELECT a.* FROM assets a WHERE ${query.where} AND a.current_file_id IS NOT NULL
        AND (a.date_created >= @since OR a.date_live >= @since OR a.date_last_file_added >= @since)
        AND NOT EXISTS (SELECT 1 FROM saved_search_notified n WHERE n.saved_search_id = @search AND n.asset_id = a.id)
      ORDER BY ${query.orderBy} LIMIT @limit`;
    const rows = this.ctx.db.prepare<[Record<string, unknown>], AssetRow>(sql).all({ ...query.params, since: search.checked_from, search: search.id, limit: 10_001 });
    if (rows.length === 0) return undefined;
    return { search, assets: rows.slice(0, 10_000), more: rows.length > 10_000 };
  }

  private textOf(news: News[]): string {
    const base = this.ctx.baseUrl();
    const sections = news.map(({ search, assets, more }) => {
      const lines = assets.slice(0, LISTED).map((asset) => `  - ${this.filenameOf(asset)} (${base}/assets/${asset.id})`);
      const rest = assets.length - LISTED + (more ? 1 : 0);
      if (rest > 0) lines.push(`  … and ${rest}${more ? '+' : ''} more`);
      return `${search.name}: ${assets.length}${more ? '+' : ''} new ${assets.length === 1 ? 'asset' : 'assets'}\n${lines.join('\n')}`;
    });
    return `New assets match your saved searches.\n\n${sections.join('\n\n')}\n\nTurn these e-mails off in the saved search (emailUpdates: false).\n`;
  }
}

function subjectOf(news: News[]): string {
  const total = news.reduce((sum, item) => sum + item.assets.length, 0);
  const [first] = news;
  const where = news.length === 1 && first !== undefined ? `saved search ${first.search.name}` : `${news.length} of your saved searches`;
  return `${total} new ${total === 1 ? 'asset' : 'assets'} in ${where}`;
}
