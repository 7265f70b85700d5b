// Libraries' wording of failures the catalogue already explains (src/diagnosis/mechanisms/catalogue/libraries.ts).
import { describeFamilies } from '../helpers/mechanism-table.js';

describeFamilies({
  'Netty native transport': [
    {
      line: 'io.netty.channel.unix.Errors$NativeIoException: bind(..) failed: Permission denied',
      mechanism: 'privileged-port',
      variant: 'non-root',
      knob: 'net.ipv4.ip_unprivileged_port_start',
      container: { securityContext: { runAsUser: 1000 } },
    },
  ],
  'Prisma connection errors': [
    {
      line: "Error: P1001: Can't reach database server at `orders-db`:`5432`",
      mechanism: 'dependency-unreachable',
      variant: 'path',
      knob: 'NetworkPolicies of shop',
      data: { host: 'orders-db', port: '5432' },
    },
    {
      line: 'Error: P1000: Authentication failed against database server at `orders-db`, the provided database credentials for `shop` are not valid.',
      mechanism: 'credentials-rejected',
      variant: 'password',
      knob: 'valueFrom.secretKeyRef',
      data: { host: 'orders-db', user: 'shop' },
    },
  ],
  'Spring placeholders': [
    {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Spring's own placeholder syntax, quoted as printed.
      line: 'Caused by: java.lang.IllegalArgumentException: Could not resolve placeholder \'JWT_SECRET\' in value "${JWT_SECRET}"',
      mechanism: 'required-setting',
      variant: 'env',
      knob: 'env[].valueFrom.secretKeyRef',
      data: { names: 'JWT_SECRET' },
    },
  ],
});
