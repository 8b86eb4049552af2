/**
 * How a gateway that cannot start says so: one line on stderr, without a stack trace and without
 * anything shaped like a secret (a store's error may quote its address), and the exit status a
 * service manager acts on: 78 (EX_CONFIG) for a bad setting or plugin folder, 1 for the rest (a
 * store it cannot open, a lost money store, a port in use).
 */
import { redactSecrets } from '../util/redact';

export interface StartRefusal {
  line: string;
  exitCode: number;
}

export function startRefusal(err: unknown): StartRefusal {
  const e = err as Partial<Error> | undefined;
  const configuration = e?.name === 'ConfigError' || e?.name === 'PluginBootError';
  return {
    line: `Refusing to start: ${listenProblem(err) ?? redactSecrets(String(e?.message ?? err))}`,
    exitCode: configuration ? 78 : 1,
  };
}

/** Writes the refusal and ends the process with its status. */
export function refuseToStart(refusal: StartRefusal): never {
  process.stderr.write(`${refusal.line}\n`);
  process.exit(refusal.exitCode);
}

interface ListenError {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
}

/**
 * The port or address the gateway could not listen on, and what to do, in words: Node's own
 * message (`listen EADDRINUSE: address already in use 127.0.0.1:8080`, or `bind EADDRINUSE` from a
 * cluster's worker) names neither the setting nor the remedy.
 */
function listenProblem(err: unknown): string | undefined {
  const e = (err ?? {}) as ListenError;
  if (e.syscall !== 'listen' && e.syscall !== 'bind') return undefined;
  const where = `port ${String(e.port)} on ${String(e.address)}`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `${where} is already in use by another process (EADDRINUSE); stop that process or set PORT to a free port`;
    case 'EACCES':
      return `${where} needs privileges this process does not have (EACCES); set PORT to 1024 or above`;
    case 'EADDRNOTAVAIL':
      return `HOST ${String(e.address)} is not an address of this machine (EADDRNOTAVAIL); set HOST to one of its addresses, or 0.0.0.0`;
    default:
      return undefined;
  }
}
