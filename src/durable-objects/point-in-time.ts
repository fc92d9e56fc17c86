// Point-in-time recovery of a SQLite-backed object's storage (CONTRACT section 27: conversations
// and tracking restorable like D1). Cloudflare keeps 30 days of each object's history; local
// workerd does not implement it (its storage answers "does not implement point-in-time recovery").

/** Where the storage is now (to undo a restore) and the bookmark of `at` or the one given. */
export async function restoreBookmarks(storage: DurableObjectStorage, target: { at: number } | { bookmark: string }) {
  const undoBookmark = await storage.getCurrentBookmark();
  const bookmark = 'bookmark' in target ? target.bookmark : await storage.getBookmarkForTime(target.at);
  return { bookmark, undoBookmark };
}

/**
 * Restores `bookmark` on the object's next session and ends this one: the object restarts on the
 * restored storage at its next request (open sockets are closed and clients reconnect). The call
 * that asked it ends with the abort's error, which the caller expects.
 */
export async function restoreOnNextSession(ctx: DurableObjectState, bookmark: string): Promise<never> {
  await ctx.storage.onNextSessionRestoreBookmark(bookmark);
  ctx.abort(RESTORE_ABORT);
  throw new Error(RESTORE_ABORT);
}

/** The reason the object gives when it ends its session for a restore. */
export const RESTORE_ABORT = 'storage restored to a bookmark';
