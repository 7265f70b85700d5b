// Certificates for tests that start the node agent with TLS, made with the openssl CLI the way
// scripts/agent-cert.sh makes them: a private CA, the agents' certificate for the one DNS name
// every agent carries (no IP: the client must check the name, not the loopback address it
// dials), and a second CA nobody trusts. ECDSA P-256: fast to generate, once per test file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentTransport } from '../../src/collect/agent-http.js';

export const AGENT_SERVER_NAME = 'pod-doctor-agent.pod-doctor.svc';

export interface AgentCerts {
  dir: string;
  /** The CA the client trusts (PEM) and its file. */
  ca: string;
  caFile: string;
  /** The agent's certificate and key (PEM) and their files, issued by `ca` for `serverName`. */
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
  serverName: string;
  /** Another CA, and a certificate for the same name it issued: what an impostor would present. */
  otherCa: string;
  otherCert: string;
  otherKey: string;
  /** What the worker's client needs to trust these agents. */
  transport: AgentTransport;
  cleanup(): void;
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeCa(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  openssl([
    'req',
    '-x509',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { cert, key };
}

function makeLeaf(dir: string, name: string, ca: { cert: string; key: string }, serverName: string): { cert: string; key: string } {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}.crt`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(
    ext,
    [`subjectAltName=DNS:${serverName}`, 'basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth', ''].join(
      '\n',
    ),
  );
  openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${serverName}`, '-keyout', key, '-out', csr]);
  openssl(['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-set_serial', '0x01', '-days', '2', '-extfile', ext, '-out', cert]);
  return { cert, key };
}

/** A fresh CA and agent certificate in `dir` (default: a new temporary directory); `cleanup()` removes it. */
export function makeAgentCerts(options: { serverName?: string; dir?: string } = {}): AgentCerts {
  const serverName = options.serverName ?? AGENT_SERVER_NAME;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'pd-agent-tls-'));
  mkdirSync(dir, { recursive: true });
  const ca = makeCa(dir, 'ca');
  const leaf = makeLeaf(dir, 'agent', ca, serverName);
  const other = makeCa(dir, 'other-ca');
  const impostor = makeLeaf(dir, 'impostor', other, serverName);
  const text = (f: string) => readFileSync(f, 'utf8');
  return {
    dir,
    ca: text(ca.cert),
    caFile: ca.cert,
    cert: text(leaf.cert),
    key: text(leaf.key),
    certFile: leaf.cert,
    keyFile: leaf.key,
    serverName,
    otherCa: text(other.cert),
    otherCert: text(impostor.cert),
    otherKey: text(impostor.key),
    transport: { ca: text(ca.cert), serverName },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

let shared: AgentCerts | undefined;

/** One set for the whole test process (removed when it exits), for tests about other things than TLS. */
export function sharedAgentCerts(): AgentCerts {
  if (!shared) {
    const certs = makeAgentCerts();
    shared = certs;
    process.once('exit', () => certs.cleanup());
  }
  return shared;
}
