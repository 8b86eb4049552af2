/**
 * The relay: reads the domain's change feed after the cursor and records one event per (watch,
 * change) in the outbox, then moves the cursor, in one repository call. An event's id is derived
 * from the watch and the change, so a batch relayed twice (a process stopped before the cursor
 * moved, two processes relaying at once) records each event once.
 *
 * A key holds at most `maxWaiting` waiting events (pending or being sent): the relay records a
 * key's events while it has room and drops the rest, counted per key (GET /keys/watches/events)
 * and in the metrics. The feed is one for all keys, so a key that does not take its events
 * (a receiver that never answers, no credit) cannot hold the cursor back for the others: its
 * newest events are the ones it loses, and the count tells it how many.
 */
import { createHash } from 'node:crypto';
import type { DroppedEvent, NewEvent, WatchRepository } from './watch-repository';
import type { WatchChange, WatchSource } from '../plugins/watch-source';

/** Changes read per batch: a full batch is followed by the next at once. */
export const RELAY_BATCH = 500;
/**
 * Events built per repository call at most (whole changes are taken, so one change watched
 * more often may pass it): a popular subject watched by many keys does not build one huge batch.
 */
export const MAX_EVENTS_PER_RECORD = 2_000;

export function eventIdOf(watchId: string, changeId: string): string {
  return `msg_${createHash('sha256').update(`${watchId}\n${changeId}`).digest('base64url').slice(0, 27)}`;
}

export interface RelayResult {
  recorded: number;
  dropped: number;
  /** More of the feed may be waiting: relay again at once. */
  more: boolean;
}

type Watcher = Awaited<ReturnType<WatchRepository['watchersOf']>>[number];

/** Relays one batch (or the first part of one, see MAX_EVENTS_PER_RECORD). */
export async function relayOnce(
  source: WatchSource,
  repo: WatchRepository,
  now: Date,
  maxWaiting: number,
): Promise<RelayResult> {
  const afterSeq = await repo.cursor(source.name);
  const changes = await source.changesSince(afterSeq, RELAY_BATCH);
  if (changes.length === 0) return { recorded: 0, dropped: 0, more: false };
  const watchers = await repo.watchersOf([...new Set(changes.map((c) => c.subject))]);
  const bySubject = new Map<string, Watcher[]>();
  for (const w of watchers) bySubject.set(w.subject, [...(bySubject.get(w.subject) ?? []), w]);
  // A watch hears of changes recorded after it was made, not of the history before it.
  const watchersOf = (change: WatchChange) =>
    (bySubject.get(change.subject) ?? []).filter((w) => change.at >= w.createdAt);

  const waiting = await repo.waitingCounts([...new Set(watchers.map((w) => w.keyId))]);
  const room = new Map([...waiting].map(([key, n]) => [key, Math.max(0, maxWaiting - n)]));
  const events: NewEvent[] = [];
  const dropped: DroppedEvent[] = [];
  let seq = afterSeq;
  let taken = 0;
  for (const change of changes) {
    if (events.length >= MAX_EVENTS_PER_RECORD) break;
    for (const w of watchersOf(change)) {
      const left = room.get(w.keyId) ?? 0;
      if (left === 0) {
        dropped.push({ keyId: w.keyId, seq: change.seq });
        continue;
      }
      room.set(w.keyId, left - 1);
      events.push(eventOf(source, w, change, now));
    }
    seq = change.seq;
    taken++;
  }
  const recorded = await repo.recordEvents({ source: source.name, afterSeq, seq, events, dropped, at: now });
  // Another relay moved the cursor first: read again from where it is now.
  if (!recorded) return { recorded: 0, dropped: 0, more: true };
  return {
    recorded: events.length,
    dropped: dropped.length,
    more: taken < changes.length || changes.length === RELAY_BATCH,
  };
}

function eventOf(source: WatchSource, w: Watcher, change: WatchChange, now: Date): NewEvent {
  const id = eventIdOf(w.watchId, change.id);
  return {
    id,
    watchId: w.watchId,
    keyId: w.keyId,
    subject: change.subject,
    changeId: change.id,
    body: JSON.stringify({
      type: source.eventType,
      id,
      timestamp: change.at.toISOString(),
      data: change.data,
    }),
    createdAt: now,
  };
}
