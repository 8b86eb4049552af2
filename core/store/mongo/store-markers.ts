/**
 * What a MongoDB database tells about the collections the gateway kept in it (issue 34). MongoDB
 * creates a collection at its first write or index, so collections that were dropped would come
 * back empty at the next start: every key answering 401, or every watch and its signing secret
 * gone, with /health ok. So each set of collections (the gateway's own, and each domain's: those
 * it declares through `ensureIndexes`) has a marker document in `store_markers` listing its
 * collections that existed when the set was last opened or closed; a start that finds one of them
 * gone refuses, saying which, what the set held and how to restore it or start afresh on purpose.
 * A collection emptied of its documents, and a database dropped whole (markers included), are not
 * seen here: docs/storage-mongodb.md says what is.
 */
import type { Db } from 'mongodb';
import type { StoreContents } from '../gateway-store';
import { StoreLostError } from '../store-errors';
import { MAX_TIME_MS } from './common';

export const MARKERS_COLLECTION = 'store_markers';

/** A set of collections and what it holds. */
export interface CollectionSet extends StoreContents {
  readonly name: string;
}

interface MarkerDoc extends StoreContents {
  /** The set's name: `gateway store`, or a domain repository's (RepositoryFactory.name). */
  _id: string;
  collections: string[];
  marked_at: Date;
}

async function collectionsOf(db: Db): Promise<Set<string>> {
  const list = await db.listCollections({}, { nameOnly: true }).toArray();
  return new Set(list.map((c) => c.name));
}

/**
 * Refuses (StoreLostError) when a collection a marker lists is gone: the markers of the sets named
 * in `only`, or of every set.
 */
export async function checkMarkedSets(db: Db, only?: readonly string[]): Promise<void> {
  const markers = await db
    .collection<MarkerDoc>(MARKERS_COLLECTION)
    .find(only ? { _id: { $in: [...only] } } : {}, { maxTimeMS: MAX_TIME_MS })
    .sort({ _id: 1 })
    .toArray();
  if (markers.length === 0) return;
  const existing = await collectionsOf(db);
  for (const m of markers) {
    const gone = m.collections.filter((c) => !existing.has(c));
    if (gone.length > 0) throw lostCollections(db.databaseName, m, gone);
  }
}

/** Adds to the set's marker those of `collections` that exist now (a marker never loses one). */
export async function markSet(db: Db, set: CollectionSet, collections: Iterable<string>): Promise<void> {
  const existing = await collectionsOf(db);
  const held = [...new Set(collections)].filter((c) => existing.has(c)).sort();
  if (held.length === 0) return;
  await db.collection<MarkerDoc>(MARKERS_COLLECTION).updateOne(
    { _id: set.name },
    {
      $addToSet: { collections: { $each: held } },
      $set: { holds: set.holds, afresh: set.afresh },
      $setOnInsert: { marked_at: new Date() },
    },
    { upsert: true, maxTimeMS: MAX_TIME_MS },
  );
}

/** The refusal to start without the collections of a set. One line, as the process prints it. */
function lostCollections(dbName: string, m: MarkerDoc, gone: readonly string[]): StoreLostError {
  const names = gone.map((c) => `"${c}"`).join(', ');
  const one = gone.length === 1;
  return new StoreLostError(
    `MongoDB database "${dbName}": the ${one ? 'collection' : 'collections'} ${names} of the set ` +
      `"${m._id}" ${one ? 'is' : 'are'} gone, but the set's marker in "${MARKERS_COLLECTION}" ` +
      `(written ${m.marked_at.toISOString()}) shows ${one ? 'it was' : 'they were'} here. That ` +
      `set holds ${m.holds}, so the gateway does not start with empty collections in its place. ` +
      `To restore it: stop every gateway process using this database, restore the latest backup ` +
      `of "${dbName}" (mongorestore; docs/storage-mongodb.md, "Lost collections") and start ` +
      `again. To start afresh on purpose, ${m.afresh}: delete the set's marker (mongosh: ` +
      `db.getSiblingDB("${dbName}").${MARKERS_COLLECTION}.deleteOne({ _id: "${m._id}" })) and ` +
      `start again.`,
  );
}
