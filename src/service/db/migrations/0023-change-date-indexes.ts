/**
 * Indexes on the two dates a sync poll asks about ("modified, or given a new file, since T": the
 * remote feed's asset-changes.ts), each on its own so SQLite answers the OR of the two from both
 * (a multi-index OR) and reads only the assets changed since T, not every asset of the polled folders.
 * Not led by account_id: a search with a selective leaf, such as a poll's folders, checks the account
 * on the rows it finds rather than using it as an index key (search/asset-query.ts).
 */
export default /* sql */ `
CREATE INDEX assets_modified ON assets(date_last_modified);
CREATE INDEX assets_file_added ON assets(date_last_file_added);
`;
