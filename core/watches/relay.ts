/**
 * The relay: reads the domain's change feed after the cursor and records one event per (watch,
 * change) in the outbox, then moves the cursor, in one repository call. An event's id is derived
 * from the watch and the change, so a batch relayed twice (a process stopped before the cursor
 * moved, two processes relaying at once) records each event once.
 */
import { createHash } from 'node:crypto';
import type { NewEvent, WatchRepository } from './watch-repository';
import type { WatchSource } from './watch-source';

/** Changes read per batch: a full batch is followed by the next at once. */
export const RELAY_BATCH = 500;

export function eventIdOf(watchId: string, changeId: string): string {
  return `msg_${createHash('sha256').update(`${watchId}\n${changeId}`).digest('base64url').slice(0, 27)}`;
}

/** Relays one batch; how many changes it read. */
export async function relayOnce(source: WatchSource, repo: WatchRepository, now: Date): Promise<number> {
  const cursor = await repo.cursor(source.name);
  const changes = await source.changesSince(cursor, RELAY_BATCH);
  if (changes.length === 0) return 0;
  const watchers = await repo.watchersOf([...new Set(changes.map((c) => c.subject))]);
  const bySubject = new Map<string, typeof watchers>();
  for (const w of watchers) bySubject.set(w.subject, [...(bySubject.get(w.subject) ?? []), w]);
  const events: NewEvent[] = [];
  for (const change of changes) {
    for (const w of bySubject.get(change.subject) ?? []) {
      // A watch hears of changes recorded after it was made, not of the history before it.
      if (change.at < w.createdAt) continue;
      const id = eventIdOf(w.watchId, change.id);
      const body = JSON.stringify({
        type: source.eventType,
        id,
        timestamp: change.at.toISOString(),
        data: change.data,
      });
      events.push({
        id,
        watchId: w.watchId,
        keyId: w.keyId,
        subject: change.subject,
        changeId: change.id,
        body,
        createdAt: now,
      });
    }
  }
  await repo.recordEvents(source.name, events, changes[changes.length - 1].seq);
  return changes.length;
}
