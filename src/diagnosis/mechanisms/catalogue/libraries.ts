// How widely used libraries word a failure whose mechanism the catalogue already explains: Netty's
// native transport wraps errno without the port, Prisma numbers its connection errors, Spring names
// the property it cannot resolve. Each leads to the existing mechanism; nothing new is explained here.

import { re, signatures } from '../define.js';
import { errnoSource } from '../errno.js';
import type { Mechanism } from '../types.js';

const EACCES = errnoSource('EACCES');

export const MECHANISMS: readonly Mechanism[] = [];

export const SIGNATURES = signatures([
  {
    id: 'library.netty-bind-denied',
    family: 'runtime',
    mechanism: 'privileged-port',
    needles: ['bind(..) failed'],
    patterns: [re('Errors\\$NativeIoException: bind\\(\\.\\.\\) failed: ', EACCES)],
    source:
      'netty transport-native-unix-common Errors.newIOException ("%s(..) failed: %s", the syscall and strerror), as reactor-netty and ' +
      'spring-cloud-gateway print it for a non-root image binding port 80/443',
    examples: ['io.netty.channel.unix.Errors$NativeIoException: bind(..) failed: Permission denied'],
    nearMisses: ['io.netty.channel.unix.Errors$NativeIoException: bind(..) failed: Address already in use'],
  },
  {
    id: 'library.prisma-unreachable',
    family: 'runtime',
    mechanism: 'dependency-unreachable',
    needles: ['p1001'],
    patterns: [re("P1001: Can't reach database server at `?(?<host>[\\w.-]+)`?:`?(?<port>\\d{1,5})`?")],
    source:
      'prisma engines query-engine/connectors (P1001 "Can\'t reach database server at `{database_host}`:`{database_port}`"). Lines (GitHub): ' +
      'prisma/prisma discussions (Supabase, RDS), render.com deploy guides',
    examples: [
      "Error: P1001: Can't reach database server at `designer-konva-dev.cjyk6pbmwqld.us-west-1.rds.amazonaws.com:5432`",
      "Error: P1001: Can't reach database server at db.njendauzjikgbguowaah.supabase.co:5432",
      "Error: P1001: Can't reach database server at `db`:`5432`",
    ],
  },
  {
    id: 'library.prisma-auth',
    family: 'server',
    mechanism: 'credentials-rejected',
    needles: ['p1000'],
    patterns: [
      re('P1000: Authentication failed against database server at `?(?<host>[\\w.-]+)`?, the provided database credentials for `?(?<user>[\\w.-]+)`?'),
    ],
    source:
      'prisma engines (P1000 "Authentication failed against database server at `{database_host}`, the provided database credentials for `{database_user}` ' +
      'are not valid."). Lines (GitHub): prisma/prisma issues about a changed password in a kept volume',
    examples: ['Error: P1000: Authentication failed against database server at `localhost`, the provided database credentials for `postgres` are not valid.'],
  },
  {
    id: 'library.spring-placeholder',
    family: 'server',
    mechanism: 'required-setting',
    needles: ['could not resolve placeholder'],
    patterns: [re("Could not resolve placeholder '(?<name>[^'\\s]+)'(?: in (?:string )?value|$)")],
    source:
      'spring-framework PropertyPlaceholderHelper / PlaceholderResolutionException ("Could not resolve placeholder \'%s\' in value \\"%s\\""; ' +
      'older releases "in string value"). Lines (GitHub): READMEs of Spring services that fail fast without their environment (GEMINI_API_KEY, ' +
      'mailSender.protocol)',
    examples: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Spring's own placeholder syntax, quoted as printed.
      'Could not resolve placeholder \'GEMINI_API_KEY\' in value "${GEMINI_API_KEY}"',
      "Could not resolve placeholder 'mailSender.protocol'",
    ],
  },
]);
