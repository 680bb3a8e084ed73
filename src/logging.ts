import { pino, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** pino level; default `info`, or `CODEMIDAS_LOG_LEVEL`. */
  level?: string;
  /** Write to this file descriptor; default 2 (stderr), so stdout stays free for CLI output. */
  fd?: number;
}

/** Builds the root logger; the composition root passes it down and parts take child loggers. */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env['CODEMIDAS_LOG_LEVEL'] ?? 'info',
      base: { app: 'codemidas' },
      redact: { paths: ['authToken', '*.authToken', 'token', '*.token', 'authorization', '*.authorization'], censor: '[redacted]' },
    },
    pino.destination({ fd: options.fd ?? 2, sync: false }),
  );
}

/** A logger that discards everything, for tests. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
