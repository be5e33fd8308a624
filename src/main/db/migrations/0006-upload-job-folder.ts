/**
 * The Folders option a new file's asset-and-upload job filed its asset under. The option keeps its id
 * when a colleague renames the folder (`A/C` → `A/c`), so a job whose answer was lost is looked for
 * there, not in whatever folder its file's path names now (a search in a new `A/C` finds nothing, and
 * the job's empty asset would stay live in `A/c`). NULL: the top level, or
 * an intent written before this column (looked for where its path leads, as before).
 */
export default /* sql */ `
ALTER TABLE uploads ADD COLUMN folder_option TEXT;
`;
