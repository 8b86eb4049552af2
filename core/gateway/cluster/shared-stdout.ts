/**
 * The log destination of a cluster's processes: the primary and every worker write JSON lines to
 * the one stdout they inherit. A write(2) of at most PIPE_BUF bytes to a pipe is never interleaved
 * with another process's writes, so each write is capped there; pino's asynchronous destination
 * (sonic-boom) fills a write with whole lines only, so no line is cut by another process's. Only a
 * single line longer than PIPE_BUF (a long stack trace) could still be interleaved.
 */
import pino, { type DestinationStream } from 'pino';

/** POSIX's minimum, and Linux's PIPE_BUF. */
const PIPE_BUF = 4096;

export function sharedStdout(): DestinationStream {
  return pino.destination({ sync: false, maxWrite: PIPE_BUF });
}
