// The one silent logger of the tests (pino, level silent): pass it wherever a Logger is required.
import type { Logger } from 'pino';
import { createLogger } from '../../src/log.js';

export const silent: Logger = createLogger({ level: 'silent' });
