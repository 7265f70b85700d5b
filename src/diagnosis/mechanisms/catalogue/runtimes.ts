// Language runtimes whose image, limits or environment do not fit them: native add-ons built for
// another platform than the image's (OS, CPU, C library, Node ABI), .NET without ICU or in invariant
// mode, Node 17+ (OpenSSL 3) under build tools that hash with MD4, Go's own thread cap, a runtime
// version outside what the app declares (yarn engines, Requires-Python, Composer's platform check,
// the Gemfile's ruby, the .NET framework it targets), a JVM heap option the JVM refuses. Plus
// signatures that read runtime wordings onto mechanisms other files define (a Python import of a
// missing shared library, a gem Bundler cannot find, out-of-memory lines of .NET, Go and the JDK's
// direct buffers). PHP's memory_limit and gunicorn's worker timeout live in servers.ts.
import { ALWAYS_READ_ONLY, envValue, mountOf } from '../context.js';
import { mechanisms, mountFact, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** A native add-on's path on the line or in the lines around it (Node's `.node` files, a Python extension's `.so`). */
const NATIVE_PATH = /(\/[^\s'"():]+\.(?:node|so(?:\.[\d.]+)?))\b/;

function nativePath(ctx: ReadingContext): string | undefined {
  if (ctx.groups.path) return ctx.groups.path;
  for (const l of [ctx.line, ...ctx.around]) {
    const p = NATIVE_PATH.exec(l)?.[1];
    if (p) return p;
  }
  return undefined;
}

/** A writable volume the add-on lies on: its files (a node_modules) come from there, not from the image. */
function addonUnderMount(ctx: ReadingContext) {
  const path = nativePath(ctx);
  const m = mountOf(ctx, path);
  if (!path || !m?.kind || ALWAYS_READ_ONLY.has(m.kind)) return undefined;
  return { path, volume: m.mount.name, mountPath: m.mount.mountPath, volumeKind: m.kind };
}

/** The ABI numbers Node prints across lines: `NODE_MODULE_VERSION 72. This version of Node.js requires NODE_MODULE_VERSION 83.` */
function abiOf(ctx: ReadingContext): { built: string; need: string } | undefined {
  const text = [ctx.line, ...ctx.around].join(' ');
  const m = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(text);
  return m ? { built: m[1]!, need: m[2]! } : undefined;
}

const MUSL = /linuxmusl|\bmusl\b|Error loading shared library|Error relocating/i;

/** DOTNET_SYSTEM_GLOBALIZATION_INVARIANT as the container sets it (its older COMPlus_ name too). */
function invariantEnv(ctx: ReadingContext): string | undefined {
  return envValue(ctx, 'DOTNET_SYSTEM_GLOBALIZATION_INVARIANT') ?? envValue(ctx, 'COMPlus_SYSTEM_GLOBALIZATION_INVARIANT');
}

const isOff = (v: string | undefined) => v !== undefined && /^(?:0|false)$/i.test(v.trim());

/** The env var of the container whose value carries a JVM flag (`JAVA_OPTS: -Xmx"2g"`), to name the knob that set it. */
function envCarrying(ctx: ReadingContext, flag: string | undefined): string | undefined {
  if (!flag) return undefined;
  return ctx.container?.env?.find((e) => e.value?.includes(flag))?.name ?? undefined;
}

/** The heap flag the JVM refused: on the line, or on the `Invalid maximum heap size` line just before it. */
function refusedHeapFlag(ctx: ReadingContext): string | undefined {
  if (ctx.groups.flag) return ctx.groups.flag;
  for (const l of ctx.around) {
    const m = /Invalid (?:maximum|initial) heap size: (-Xm[xs]\S*)/.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

/** What the .NET host says is missing: the framework and version the app targets, and the versions the image has. */
function dotnetFramework(ctx: ReadingContext) {
  const text = [ctx.line, ...ctx.around].join('\n');
  const m = /[Ff]ramework:? '([\w.]+)', version '([\w.-]+)'/.exec(text);
  const framework = ctx.groups.framework ?? m?.[1] ?? 'the .NET framework';
  const want = ctx.groups.want ?? m?.[2] ?? 'the version it targets';
  const found = [...text.matchAll(/^\s*([\d.]+[\w.-]*) at \[/gm)].map((f) => f[1]).join(', ');
  const major = /^(\d+)\./.exec(want)?.[1];
  return {
    framework,
    want,
    found: found || 'not listed',
    aspnetMissing: /AspNetCore/i.test(framework) && /No frameworks were found/i.test(text),
    aspnetImage: `mcr.microsoft.com/dotnet/aspnet:${major ? `${major}.0` : '<version>'}`,
  };
}

export const MECHANISMS = mechanisms([
  {
    id: 'native-module-platform',
    kind: 'setting',
    resource: "native add-ons built for the image's platform (OS, CPU, C library, Node.js ABI)",
    doc:
      'A package with native code (a .node add-on, a prebuilt binary) was installed for another platform than the one the container runs: ' +
      'node_modules installed on a Mac or Windows host and copied into a Linux image, built for glibc and run on Alpine (musl), built for ' +
      "another CPU, or compiled against another Node.js version than the image's. The loader refuses the file before the app starts.",
    variants: [
      {
        id: 'under-mount',
        when: (ctx) => addonUnderMount(ctx) ?? false,
        summary: 'the native add-on {{path}} comes from volume {{volume}}, built for another platform',
        explain:
          '{{path}} lies under {{mountPath}}, where the {{volumeKind}} volume "{{volume}}" is mounted: the add-ons there were installed by another ' +
          'machine (a developer host, another image) for its platform, and the mount hides the ones the image built for its own.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts[{{volume}}].mountPath',
            change: "do not mount over the app's node_modules (mount source code elsewhere, or keep node_modules out of the volume)",
          },
          { place: 'pod', path: 'spec.initContainers', change: 'or install the dependencies into the volume from the same image (npm ci)' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'node-abi',
        when: (ctx) => {
          const abi = abiOf(ctx);
          if (abi) return { built: `NODE_MODULE_VERSION ${abi.built}`, need: `NODE_MODULE_VERSION ${abi.need}` };
          return /NODE_MODULE_VERSION|compiled against a different Node\.js/i.test(ctx.line) && { built: 'another Node.js version', need: 'another' };
        },
        summary: 'a native add-on was compiled for {{built}}, and the image runs {{need}}',
        explain:
          "A native add-on in node_modules was compiled against another Node.js version ({{built}}) than the image's ({{need}}): the " +
          'dependencies were installed with one Node.js (a build stage, a host) and run with another.',
        knobs: [
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'install (npm ci) or npm rebuild in a stage that uses the same Node.js as the runtime stage; do not COPY node_modules from the host',
          },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or run the image whose Node.js the add-ons were built for' },
        ],
      },
      {
        id: 'musl',
        when: (ctx) => MUSL.test([ctx.line, ...ctx.around].join('\n')),
        summary: 'a native add-on built for glibc runs on a musl (Alpine) image',
        explain:
          'The image uses musl (Alpine), and the native add-on was built for glibc (a Debian or Ubuntu build stage, a host install) or is missing ' +
          "for musl: musl's loader cannot run it, or npm left out the optional package for linuxmusl.",
        knobs: [
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'install the dependencies in an Alpine stage (npm ci there, with optional dependencies), or use a Debian-based node image for both stages',
          },
          { place: 'image', path: '.dockerignore', change: 'list node_modules, so the host copy does not replace the one installed in the image' },
        ],
      },
      {
        id: 'copied',
        summary: 'a native add-on was installed for another platform than the container',
        explain:
          'A package with native code was installed for another OS or CPU than the container runs (linux on {{node}}): node_modules installed ' +
          'on a macOS or Windows host and copied into the image, or an image built for another architecture.',
        knobs: [
          {
            place: 'image',
            path: '.dockerignore + the Dockerfile',
            change: 'keep node_modules out of the build context and run npm ci inside the image, for the platform it runs on',
          },
          { place: 'image', path: 'the image build (docker buildx --platform)', change: "build for the nodes' architecture (linux/amd64 or linux/arm64)" },
        ],
      },
    ],
  },
  {
    id: 'dotnet-globalization',
    kind: 'setting',
    resource: 'ICU, the globalization library .NET loads (or its invariant mode)',
    doc:
      '.NET on Linux loads ICU (libicu) for cultures, sorting and time zones. Slim and Alpine images do not carry it, and the runtime stops at ' +
      'start unless globalization-invariant mode is on; in invariant mode, code that asks for a named culture (en-US) fails instead.',
    variants: [
      {
        id: 'invariant-mode',
        when: (ctx) => /globalization-invariant mode/i.test(ctx.line) && { setting: invariantEnv(ctx) ?? 'InvariantGlobalization in the app' },
        summary: 'the app asks for a named culture while .NET runs in globalization-invariant mode',
        explain:
          '.NET runs in globalization-invariant mode ({{setting}}), where only the invariant culture exists, and the app or a library it uses ' +
          '(SqlClient, a localiser) creates a named culture such as en-US, which that mode refuses.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT',
            change: 'set false (or remove it) where the image has ICU',
          },
          { place: 'image', path: 'the Dockerfile', change: 'install ICU (apk add icu-libs on Alpine) and set InvariantGlobalization false in the project' },
        ],
        facts: (ctx) => {
          const v = invariantEnv(ctx);
          return v === undefined ? [] : [specFact(ctx, 'env', `DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=${v}`)];
        },
      },
      {
        id: 'invariant-off',
        when: (ctx) => isOff(invariantEnv(ctx)) && { setting: String(invariantEnv(ctx)) },
        summary: '.NET finds no ICU, and the pod turns invariant mode off',
        explain:
          'The image has no ICU library, and the container sets DOTNET_SYSTEM_GLOBALIZATION_INVARIANT={{setting}}, which turns off the invariant ' +
          'mode the image may set for that reason, so the runtime stops at start.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT',
            change: 'set 1 (or remove it), if the app needs no culture-specific behaviour',
          },
          { place: 'image', path: 'the Dockerfile', change: 'or install ICU (icu-libs on Alpine, libicu on Debian/Ubuntu)' },
        ],
        facts: (ctx) => [specFact(ctx, 'env', `DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=${String(invariantEnv(ctx))}`)],
      },
      {
        id: 'alpine',
        when: (ctx) => /alpine/i.test(ctx.container?.image ?? '') && { image: String(ctx.container?.image) },
        summary: '.NET finds no ICU in the Alpine image {{image}}',
        explain:
          'The .NET runtime needs ICU for globalization, and the Alpine image {{image}} does not carry it: the runtime stops at start, before ' +
          "the app's code.",
        knobs: [
          { place: 'image', path: 'the Dockerfile', change: 'apk add icu-libs (and icu-data-full for all cultures)' },
          {
            place: 'pod',
            path: '{{containerPath}}.env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT',
            change: 'or set 1, if the app needs no culture-specific behaviour',
          },
        ],
      },
      {
        id: 'icu-missing',
        summary: '.NET finds no ICU library in the image',
        explain:
          'The .NET runtime needs ICU (libicu) for globalization, and the image does not carry it (a slim or distroless base, a self-contained ' +
          'app copied onto a bare image): the runtime stops at start, before the app runs.',
        knobs: [
          { place: 'image', path: 'the Dockerfile', change: 'install libicu (Debian/Ubuntu) or icu-libs (Alpine), or start from a .NET runtime image' },
          {
            place: 'pod',
            path: '{{containerPath}}.env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT',
            change: 'or set 1, if the app needs no culture-specific behaviour',
          },
        ],
      },
    ],
  },
  {
    id: 'node-openssl3',
    kind: 'setting',
    resource: "the OpenSSL of the image's Node.js and the legacy algorithms older tools use",
    doc:
      'Node.js 17 and later ship OpenSSL 3, which disables legacy algorithms (MD4, which webpack 4 hashes with) unless the legacy provider is ' +
      'loaded; Node.js 16 and older do not know --openssl-legacy-provider and refuse it in NODE_OPTIONS. The image tag decides which applies.',
    variants: [
      {
        id: 'flag-unknown',
        when: (ctx) => /not allowed in NODE_OPTIONS|bad option/i.test(ctx.line) && { flag: ctx.groups.flag ?? '--openssl-legacy-provider' },
        summary: "the image's Node.js does not accept {{flag}} in NODE_OPTIONS",
        explain:
          'NODE_OPTIONS carries {{flag}}, which only Node.js 17 and later (with OpenSSL 3) know; the Node.js in the image is older and refuses to ' +
          'start with it.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env NODE_OPTIONS', change: 'remove {{flag}} for this image (it is only needed on Node.js 17+)' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or use the Node.js version the option was written for' },
        ],
        facts: (ctx) => {
          const v = envValue(ctx, 'NODE_OPTIONS');
          return v === undefined ? [] : [specFact(ctx, 'env', `NODE_OPTIONS=${v}`)];
        },
      },
      {
        id: 'legacy-hash',
        summary: "the app's build tools use a hash OpenSSL 3 disables (Node.js 17+)",
        explain:
          'The Node.js in the image (17 or later) ships OpenSSL 3, which refuses MD4 and other legacy algorithms; an older webpack (4, or react-scripts 4) ' +
          'hashes with MD4 (old crypto code may use another legacy cipher), so a build or dev server the container runs at start fails.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env NODE_OPTIONS', change: 'add --openssl-legacy-provider as a stop-gap' },
          {
            place: 'pod',
            path: '{{containerPath}}.image',
            change: 'or pin the Node.js the app was built with (node:16); better, upgrade webpack / react-scripts',
          },
          { place: 'image', path: 'the Dockerfile', change: 'and build the assets when the image is built, not when the container starts' },
        ],
      },
    ],
  },
  {
    id: 'go-thread-limit',
    kind: 'resource',
    resource: "the Go runtime's cap on OS threads (10000 by default)",
    doc:
      'A Go program may use at most 10000 OS threads (runtime/debug.SetMaxThreads). Goroutines need a new thread only while the others are ' +
      'blocked in system calls or cgo: thousands of blocking calls at once, typically file I/O on slow storage (NFS, a FUSE or network volume), ' +
      'reach the cap and the runtime aborts.',
    variants: [
      {
        id: 'network-volume',
        when: (ctx) => {
          const slow = (ctx.container?.volumeMounts ?? []).map((m) => mountOf(ctx, m.mountPath)).find((m) => m?.backend === 'nfs' || m?.kind === 'nfs');
          return slow ? { volume: slow.mount.name, mountPath: slow.mount.mountPath } : false;
        },
        summary: 'the Go program reached its 10000-thread cap (volume {{volume}} at {{mountPath}} may block its I/O)',
        explain:
          'The Go runtime started 10000 OS threads and aborted. It adds threads while goroutines are blocked in system calls, and the container ' +
          'reads a network volume ("{{volume}}" at {{mountPath}}) where slow or hung file I/O holds a thread per call.',
        knobs: [
          { place: 'app', path: "the app's concurrency of file and cgo calls", change: 'bound it (a worker pool), so blocked calls cannot pile up' },
          { place: 'pod', path: '{{containerPath}}.volumeMounts[{{volume}}]', change: "and check the volume's latency (a hung NFS server blocks every call)" },
        ],
      },
      {
        id: 'threads',
        summary: 'the Go program reached its 10000-thread cap',
        explain:
          'The Go runtime started 10000 OS threads and aborted: goroutines were blocked in system calls or cgo calls all at once (slow file I/O, ' +
          'a blocking C library), so the runtime kept adding threads for the others.',
        knobs: [
          {
            place: 'app',
            path: "the app's concurrency of blocking calls",
            change: 'bound it (a worker pool); raise debug.SetMaxThreads only if the count is legitimate',
          },
          {
            place: 'node',
            path: 'kubelet podPidsLimit (--pod-max-pids) on {{node}}',
            change: 'and keep the pod PID limit above the thread count the app needs',
          },
        ],
      },
    ],
  },
  {
    id: 'runtime-version',
    kind: 'setting',
    resource: 'the version of the language runtime in the image',
    doc:
      "The app or a package it installs declares the runtime versions it supports (package.json engines, Python's Requires-Python, Composer's " +
      "platform check, the Gemfile's ruby, the .NET framework it targets), and the runtime in the image is outside them: the image tag is " +
      'older (or newer) than the app was built or locked for.',
    variants: [
      {
        id: 'node-engine',
        when: (ctx) => /The engine "node"/i.test(ctx.line) && { runtime: 'Node.js' },
        summary: '{{pkg}} needs Node.js {{want}}, and the image has {{have}}',
        explain:
          '{{pkg}} declares that it runs on Node.js {{want}}, and the Node.js in the image is {{have}}, so yarn refuses to install it: the ' +
          "image's Node.js tag and the app's lock file moved apart.",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.image', change: 'use an image whose Node.js satisfies {{want}}' },
          {
            place: 'image',
            path: 'the Dockerfile (FROM node:<version>)',
            change: 'or pin the base to such a version, and install the dependencies at build time',
          },
        ],
      },
      {
        id: 'python-requires',
        when: (ctx) => /requires a different Python/i.test(ctx.line) && { runtime: 'Python' },
        summary: '{{pkg}} needs Python {{want}}, and the image has {{have}}',
        explain:
          "{{pkg}} declares Requires-Python {{want}}, and the image's Python is {{have}}, so pip refuses to install it: the base image is " +
          'older than the package supports.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.image', change: 'use an image whose Python satisfies {{want}}' },
          {
            place: 'image',
            path: 'the Dockerfile (FROM python:<version>)',
            change: 'or pin the base to such a version, or pin the package to a release that supports {{have}}',
          },
        ],
      },
      {
        id: 'php-platform',
        when: (ctx) => /Composer detected issues in your platform/i.test(ctx.line) && { runtime: 'PHP' },
        summary: 'the vendor packages need PHP {{want}}, and the image runs {{have}}',
        explain:
          "Composer's platform check, which runs before the app, stops it: the packages in vendor/ were installed for PHP {{want}} (composer " +
          'install ran with another PHP, in a build stage or on a host), and the PHP in the image is {{have}}.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.image', change: 'use an image whose PHP satisfies {{want}}' },
          { place: 'image', path: 'the Dockerfile', change: 'or run composer install with the same PHP as the runtime stage (config.platform.php pins it)' },
        ],
      },
      {
        id: 'ruby-gemfile',
        when: (ctx) => /Your Ruby version is/i.test(ctx.line) && { runtime: 'Ruby' },
        summary: 'the Gemfile asks for Ruby {{want}}, and the image has {{have}}',
        explain:
          "The Gemfile pins Ruby {{want}}, and the Ruby in the image is {{have}}, so Bundler stops before the app: the image's ruby tag and " +
          'the Gemfile (or .ruby-version) moved apart.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.image', change: 'use the image built on the Ruby the Gemfile names' },
          { place: 'image', path: 'the Dockerfile (FROM ruby:<version>)', change: 'or pin the base to {{want}}' },
        ],
      },
      {
        id: 'aspnet-missing',
        when: (ctx) => {
          const d = dotnetFramework(ctx);
          return d.aspnetMissing && { framework: d.framework, want: d.want, aspnetImage: d.aspnetImage };
        },
        summary: 'the app needs ASP.NET Core {{want}}, and the image has no ASP.NET Core at all',
        explain:
          'The app targets {{framework}} {{want}}, and the image carries no ASP.NET Core runtime: it is built on the plain .NET runtime image ' +
          '(mcr.microsoft.com/dotnet/runtime), which has only Microsoft.NETCore.App.',
        knobs: [
          { place: 'image', path: 'the Dockerfile (the final FROM)', change: 'use {{aspnetImage}} for a web app' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or run an image built that way' },
        ],
      },
      {
        id: 'dotnet-framework',
        when: (ctx) => {
          if (!/framework|\.NET/i.test(ctx.line)) return false;
          const d = dotnetFramework(ctx);
          return { framework: d.framework, want: d.want, found: d.found };
        },
        summary: 'the app targets {{framework}} {{want}}, which the image does not have',
        explain:
          'The .NET host cannot start the app: it targets {{framework}} {{want}}, which the image does not carry (its versions of it: {{found}}). ' +
          'The build and the runtime image use different .NET versions, or the runtime image lacks that framework.',
        knobs: [
          { place: 'image', path: 'the Dockerfile (the final FROM)', change: 'use the runtime image of the version the app targets ({{want}})' },
          { place: 'image', path: 'the project (TargetFramework, RollForward)', change: 'or target the version in the image, or allow rolling forward to it' },
        ],
      },
      {
        id: 'version',
        summary: 'a package needs another runtime version than the image has',
        explain: 'A package the app installs declares runtime versions that do not include the one in the image.',
        knobs: [{ place: 'pod', path: '{{containerPath}}.image', change: 'use an image with a runtime version the dependencies support' }],
      },
    ],
  },
  {
    id: 'jvm-heap-flag',
    kind: 'setting',
    resource: 'a maximum heap (-Xmx) the JVM in the image can take',
    doc:
      'The JVM refuses its heap option before it starts: a 32-bit JVM cannot represent a heap of a few GiB, and a value the shell or the ' +
      "container's env passed unparsed (quotes kept, an unexpanded variable, a doubled unit) is not a size.",
    variants: [
      {
        id: 'thirty-two-bit',
        when: (ctx) => /exceeds the maximum representable size/i.test([ctx.line, ...ctx.around].join('\n')) && { flag: refusedHeapFlag(ctx) ?? 'its -Xmx' },
        summary: 'the 32-bit JVM in the image cannot take a heap of {{flag}}',
        explain:
          'The JVM in the image is a 32-bit build, which cannot address a heap as large as {{flag}} (a 32-bit image, or one built for arm/v7 or ' +
          '386), so it stops before the app starts.',
        knobs: [
          { place: 'image', path: 'the base image (JRE)', change: 'use a 64-bit JRE built for the node (linux/amd64 or linux/arm64)' },
          { place: 'pod', path: '{{containerPath}}.env JAVA_TOOL_OPTIONS', change: 'or keep -Xmx below what a 32-bit JVM can reserve (about 1-2 GiB)' },
        ],
      },
      {
        id: 'xms-above-xmx',
        when: (ctx) =>
          /Initial heap size set to a larger value than the maximum heap size/i.test(ctx.line) && {
            envVar: envCarrying(ctx, '-Xmx') ?? envCarrying(ctx, '-Xms') ?? 'JAVA_OPTS / JAVA_TOOL_OPTIONS',
          },
        summary: 'the JVM got an initial heap (-Xms) larger than its maximum (-Xmx)',
        explain:
          "The JVM's options set -Xms above -Xmx, so it stops before the app starts: typically the image's start script sets one and the " +
          "container's env ({{envVar}}, or _JAVA_OPTIONS, which the JVM reads last) sets the other.",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env {{envVar}}', change: 'set -Xms no larger than -Xmx (or only -XX:MaxRAMPercentage)' },
          {
            place: 'image',
            path: "the image's start script",
            change: 'or find where the other heap option comes from (the JVM prints "Picked up ..." for env options)',
          },
        ],
      },
      {
        id: 'malformed',
        when: (ctx) => {
          const flag = refusedHeapFlag(ctx);
          return { flag: flag ?? 'its -Xmx', envVar: envCarrying(ctx, flag) ?? 'JAVA_OPTS / JAVA_TOOL_OPTIONS' };
        },
        summary: 'the JVM cannot parse its heap option {{flag}}',
        explain:
          'The JVM got {{flag}}, which is not a size it parses (a number with one unit: -Xmx2g, -Xmx512m): the value arrived with its quotes, ' +
          'an unexpanded variable, a doubled unit or nothing, from the env or args the container passes.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env {{envVar}}', change: 'write the size without quotes or placeholders (-Xmx2g)' },
          { place: 'pod', path: '{{containerPath}}.args / command', change: 'or fix the start script that builds the option' },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'runtime.native-module-elf',
    family: 'runtime',
    mechanism: 'native-module-platform',
    needles: ['invalid elf header'],
    patterns: [re('(?<path>/\\S+\\.(?:node|so[.\\d]*)): invalid ELF header')],
    source:
      'Node\'s process.dlopen reports dlopen(3)\'s message, glibc elf/dl-load.c ("invalid ELF header"). Lines (GitHub): kelektiv/node.bcrypt.js#755, ' +
      'kelektiv/node.bcrypt.js#578 (node_modules copied from the host), snoopysecurity/dvws-node#10, docker/hub-feedback#1577, kelektiv/node.bcrypt.js#576',
    examples: [
      'Error: /app/node_modules/bcrypt/lib/binding/bcrypt_lib.node: invalid ELF header',
      'Error: /home/dvws-node/node_modules/bcrypt/lib/binding/bcrypt_lib.node: invalid ELF header',
      'Error: /usr/src/node_modules/bcrypt/lib/binding/bcrypt_lib.node: invalid ELF header',
      'Error: /app/node_modules/scrypt/build/Release/scrypt.node: invalid ELF header',
    ],
  },
  {
    id: 'runtime.native-module-musl',
    family: 'runtime',
    mechanism: 'native-module-platform',
    needles: ['error loading shared library', 'error relocating'],
    patterns: [
      re('Error loading shared library (?<path>/\\S+\\.node): Exec format error'),
      re('Error relocating (?<path>/\\S+\\.node): \\S+: symbol not found'),
    ],
    source:
      'musl ldso/dynlink.c ("Error loading shared library %s: %m", "Error relocating %s: %s: symbol not found"), as Node rethrows them. ' +
      'Lines (GitHub): lovell/sharp#1240, lovell/sharp#1377, nodejs/node-gyp#1855, erikdubbelboer/node-sleep#70, nodejs/node#10081 ' +
      '("linked against glibc, alpine uses musl"); near miss (a library missing, not a platform): nodejs/docker-node#692',
    examples: [
      'Error: Error loading shared library /usr/src/app/api/node_modules/sharp/build/Release/sharp.node: Exec format error',
      'Error: Error loading shared library /app/node_modules/bcrypt/lib/binding/bcrypt_lib.node: Exec format error',
      'Error: Error loading shared library /x/node_modules/sleep/build/Release/node_sleep.node: Exec format error',
      'Error: Error relocating /root/.npm/@corbinu/couchbase/2.2.4/package/build/Release/couchbase_impl.node: __strncpy_chk: symbol not found',
    ],
    nearMisses: [
      'Error: Error loading shared library xmljs.node: No such file or directory ' +
        '(needed by /opt/app/node_modules/libxml-xsd/build/Release/node-libxml-xsd.node)',
    ],
  },
  {
    id: 'runtime.node-module-version',
    family: 'runtime',
    mechanism: 'native-module-platform',
    needles: ['node_module_version', 'compiled against a different node.js version'],
    patterns: [
      re('NODE_MODULE_VERSION (?<built>\\d+)\\. This version of Node\\.js requires(?:\\s+NODE_MODULE_VERSION (?<need>\\d+))?'),
      re('was compiled against a different Node\\.js version'),
    ],
    source:
      'Node src/node_binding.cc (the module "was compiled against a different Node.js version using NODE_MODULE_VERSION %d. This version of ' +
      'Node.js requires NODE_MODULE_VERSION %d."). Lines (GitHub): nodejs/help#3414, vrza/node-blake2#8, wbbaddons/Tims-PackageServer#15, ' +
      'interledger-deprecated/ilp-kit#492',
    examples: [
      'NODE_MODULE_VERSION 72. This version of Node.js requires',
      'NODE_MODULE_VERSION 46. This version of Node.js requires',
      'was compiled against a different Node.js version using',
      "Error: The module '/usr/src/app/node_modules/node-expat/build/Release/node_expat.node'\n" +
        'was compiled against a different Node.js version using\n' +
        'NODE_MODULE_VERSION 46. This version of Node.js requires\n' +
        'NODE_MODULE_VERSION 51. Please try re-compiling or re-installing',
    ],
  },
  {
    id: 'runtime.esbuild-platform',
    family: 'runtime',
    mechanism: 'native-module-platform',
    needles: ['installed esbuild', 'package is present but this platform'],
    patterns: [
      re("You installed esbuild (?:for|on) another platform than the one you're currently using"),
      re('Specifically the "(?<have>[^"]+)" package is present but this platform\\s+needs the "(?<want>[^"]+)" package instead'),
    ],
    source:
      'esbuild lib/npm/node-platform.ts (the "installed esbuild for another platform" error, "on" before 0.15). Lines (GitHub): evanw/esbuild#2617, ' +
      'evanw/esbuild#1819, anomalyco/sst#3760, evanw/esbuild#4346',
    examples: [
      "You installed esbuild on another platform than the one you're currently using.",
      "You installed esbuild for another platform than the one you're currently using.",
      'Specifically the "@esbuild/darwin-arm64" package is present but this platform needs the "@esbuild/linux-arm64" package instead.',
    ],
  },
  {
    id: 'runtime.optional-native-package',
    family: 'runtime',
    mechanism: 'native-module-platform',
    needles: ['module using the', 'installing the "sharp" module', 'related to optional dependencies', "cannot find module '@"],
    patterns: [
      re('Could not load the "sharp" module using the (?<platform>[\\w-]+) runtime'),
      re('Something went wrong installing the "sharp" module'),
      re('Cannot find module (?<module>@rollup/rollup-[\\w-]+)\\. npm has a bug related to optional dependencies'),
      // The cause line under it, and any other per-platform native package (swc, @parcel/watcher, lightningcss).
      re("Cannot find module '(?<module>@[\\w.-]+/[\\w.-]+-(?:linux|darwin|win32|freebsd)-(?:x64|arm64|arm|ia32)(?:-(?:gnu|musl|msvc|gnueabihf))?)'"),
    ],
    source:
      'sharp lib/sharp.js (the "Could not load the \\"sharp\\" module using the %s runtime" help, "Something went wrong installing" before 0.33), ' +
      'rollup dist/native.js (requireWithFriendlyError). Lines (GitHub): lovell/sharp#4142, wppconnect-team/wppconnect-server#1672, ' +
      'bluewave-labs/Checkmate#2894, resonatecoop/api#167, exaco/laravel-docktane#62, nodejs/help#4393, INSO-World/Binocular#212',
    examples: [
      'Error: Could not load the "sharp" module using the linuxmusl-x64 runtime',
      'Error: Could not load the "sharp" module using the linux-x64 runtime',
      'Something went wrong installing the "sharp" module',
      'Error: Cannot find module @rollup/rollup-linux-x64-musl. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). ' +
        'Please try `npm i` again after removing both package-lock.json and node_modules directory.',
      "  [cause]: Error: Cannot find module '@rollup/rollup-linux-x64-musl'",
    ],
  },
  {
    id: 'runtime.dotnet-icu-missing',
    family: 'runtime',
    mechanism: 'dotnet-globalization',
    needles: ['valid icu package'],
    patterns: [re("Couldn't find a valid ICU package installed on the system")],
    source:
      'dotnet/runtime System.Globalization GlobalizationMode (Environment.FailFast; the text names libicu/icu-libs and aka.ms/dotnet-missing-libicu ' +
      'since .NET 5). Lines (GitHub): dotnet/core#3150, dotnet/core#2186, Geotab/mygeotab-api-adapter#12, Webreaper/SolisAgileManager#115, ' +
      'fedarovich/qbittorrent-cli#62',
    examples: [
      "Process terminated. Couldn't find a valid ICU package installed on the system. Set the configuration flag System.Globalization.Invariant to true " +
        'if you want to run with no globalization support.',
      "Process terminated. Couldn't find a valid ICU package installed on the system. Please install libicu using your package manager and try again. " +
        'Alternatively you can set the configuration flag System.Globalization.Invariant to true if you want to run with no globalization support. ' +
        'Please see https://aka.ms/dotnet-missing-libicu for more information.',
      "Couldn't find a valid ICU package installed on the system. Set the configuration flag System.Globalization.Invariant to true if you want to run " +
        'with no globalization support.',
    ],
  },
  {
    id: 'runtime.dotnet-invariant-culture',
    family: 'runtime',
    mechanism: 'dotnet-globalization',
    needles: ['globalization-invariant mode'],
    patterns: [re('Only the invariant culture is supported in globalization-invariant mode')],
    // A plugin scanner that skips an assembly and goes on is not a failure.
    unless: /\bSkipping\b/,
    source:
      'dotnet/runtime CultureInfo (CultureNotFoundException in invariant mode since .NET 6, dotnet/runtime#54247). Lines (GitHub): dotnet/SqlClient#1913, ' +
      'dotnet/efcore#32397, unoplatform/uno#18283, FluentValidation/FluentValidation#2191; ' +
      'near miss (a scanner skips the assembly): opentap/OpenTap.Python#176',
    examples: [
      'Unhandled exception. System.Globalization.CultureNotFoundException: Only the invariant culture is supported in globalization-invariant mode. ' +
        "See https://aka.ms/GlobalizationInvariantMode for more information. (Parameter 'name')",
      'System.Globalization.CultureNotFoundException: Only the invariant culture is supported in globalization-invariant mode. ' +
        "See https://aka.ms/GlobalizationInvariantMode for more information. (Parameter 'name')",
    ],
    nearMisses: [
      "08:46:12.898     Searcher     Skipping assembly 'OpenTap.Python.dll'. Only the invariant culture is supported in globalization-invariant mode. " +
        "See https://aka.ms/GlobalizationInvariantMode for more information. (Parameter 'name')en is an invalid culture identifier.",
    ],
  },
  {
    id: 'runtime.node-openssl-unsupported',
    family: 'runtime',
    mechanism: 'node-openssl3',
    needles: ['digital envelope routines::unsupported'],
    patterns: [re('error:0308010C:digital envelope routines::unsupported')],
    source:
      'OpenSSL 3 crypto/evp (ERR_OSSL_EVP_UNSUPPORTED) as Node.js 17+ crypto.createHash throws it. Lines (GitHub): mitre-attack/attack-navigator#391, ' +
      'hicetnunc2000/hicetnunc#1364, nodejs/docker-node#1600, hasura/gatsby-gitbook-starter#158 (ENV NODE_OPTIONS=--openssl-legacy-provider)',
    examples: ['Error: error:0308010C:digital envelope routines::unsupported', '#12 7.451   Error: error:0308010C:digital envelope routines::unsupported'],
  },
  {
    id: 'runtime.node-options-flag',
    family: 'runtime',
    mechanism: 'node-openssl3',
    needles: ['is not allowed in node_options'],
    patterns: [re('node: (?<flag>--openssl-legacy-provider) is not allowed in NODE_OPTIONS')],
    source:
      'Node src/node_options.cc ("%s is not allowed in NODE_OPTIONS"; the flag exists from Node.js 17, nodejs/node#40478). Lines (GitHub): ' +
      'hasura/gatsby-gitbook-starter#197, eco-stake/restake#508 (Node 16), censortracker/censortracker#435',
    examples: ['node: --openssl-legacy-provider is not allowed in NODE_OPTIONS'],
  },
  {
    id: 'runtime.go-thread-limit',
    family: 'runtime',
    mechanism: 'go-thread-limit',
    needles: ['thread limit', 'thread exhaustion'],
    patterns: [re('runtime: program exceeds \\d+-thread limit'), re('fatal error: thread exhaustion')],
    source:
      'Go runtime/proc.go checkmcount ("runtime: program exceeds %d-thread limit", throw "thread exhaustion"). Lines (GitHub): google/stenographer#56 ' +
      '(threads blocked in file syscalls), adjust/go-wrk#28, open-falcon/falcon-plus#306, gitpod-io/gitpod#10680',
    examples: ['runtime: program exceeds 10000-thread limit', 'fatal error: thread exhaustion'],
  },
  // Runtime wordings for mechanisms defined elsewhere.
  {
    id: 'runtime.python-shared-library',
    family: 'runtime',
    mechanism: 'image-runtime-mismatch',
    needles: ['cannot open shared object file'],
    patterns: [re('(?:ImportError|OSError): (?<library>[\\w.+-]+\\.so[.\\d]*): cannot open shared object file')],
    source:
      "CPython's extension import (dlopen(3) error as ImportError), ctypes (OSError); glibc elf/dl-load.c. Lines (GitHub): opencv/opencv-python#370, " +
      'pytorch/ignite#1615, fisher60/friendo-bot#68 (opencv in a slim image: libgl1 or opencv-python-headless), mesunhlf/UPC-tf#7; near miss ' +
      "(TensorFlow's warning on a machine without a GPU): tensorflow/tensorflow#45930",
    examples: [
      'ImportError: libGL.so.1: cannot open shared object file: No such file or directory',
      'bot_1  | ImportError: libgthread-2.0.so.0: cannot open shared object file: No such file or directory',
      'ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory',
    ],
    nearMisses: [
      "2021-04-09 19:52:41.024315: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'; " +
        'dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory',
    ],
  },
  {
    id: 'runtime.bundler-gem-missing',
    family: 'runtime',
    mechanism: 'module-missing',
    needles: ['bundler::gemnotfound', 'gem::gemnotfoundexception'],
    patterns: [
      re('Could not find (?<module>\\S+) in any of the sources \\(Bundler::GemNotFound\\)'),
      re("Could not find '(?<module>bundler)' \\([\\d.]+\\) required by your \\S*Gemfile\\.lock\\. \\(Gem::GemNotFoundException\\)"),
    ],
    source:
      'Bundler lib/bundler/spec_set.rb materialize ("Could not find %s in any of the sources"), RubyGems find_spec_for_exe. Lines (GitHub): ' +
      'SUSE/Portus#323, docker/for-win#6923, rubygems/bundler#6518, openstreetmap/stateofthemap-2020#39, docker/docs#11897',
    examples: [
      "/usr/local/bundle/gems/bundler-1.10.4/lib/bundler/spec_set.rb:92:in `block in materialize': Could not find execjs-2.6.0 in any of the sources " +
        '(Bundler::GemNotFound)',
      "web_1  | /usr/local/lib/ruby/gems/2.5.0/gems/bundler-1.16.1/lib/bundler/spec_set.rb:88:in `block in materialize': Could not find dotenv-2.2.2 in " +
        'any of the sources (Bundler::GemNotFound)',
      "app_1  | /usr/local/lib/ruby/2.6.0/rubygems.rb:283:in `find_spec_for_exe': Could not find 'bundler' (2.1.4) required by your /app/Gemfile.lock. " +
        '(Gem::GemNotFoundException)',
    ],
  },
  {
    id: 'runtime.dotnet-out-of-memory',
    family: 'runtime',
    mechanism: 'memory-limit',
    needles: ['system.outofmemoryexception'],
    patterns: [re("System\\.OutOfMemoryException: Exception of type 'System\\.OutOfMemoryException' was thrown")],
    source:
      'dotnet/runtime (the default message of OutOfMemoryException). Lines (GitHub): dotnet/coreclr#25767 (2G container limit, Server GC), ' +
      'dotnet/corefx#30652, dotnet/runtime#50414',
    examples: [
      "System.OutOfMemoryException: Exception of type 'System.OutOfMemoryException' was thrown.",
      "Type=System.OutOfMemoryException Exception=System.OutOfMemoryException: Exception of type 'System.OutOfMemoryException' was thrown.",
    ],
  },
  {
    id: 'runtime.yarn-engine',
    family: 'runtime',
    mechanism: 'runtime-version',
    needles: ['the engine "node" is incompatible'],
    patterns: [re('error (?<pkg>\\S+): The engine "node" is incompatible with this module\\. Expected version "(?<want>[^"]+)"\\. Got "(?<have>[^"]+)"')],
    source:
      'yarn v1 src/package-compatibility.js ("The engine %s is incompatible with this module. Expected version %s. Got %s"; info for an optional ' +
      'dependency it skips). Lines (GitHub): makeplane/plane#3369, docker/getting-started#318, innoq/innoq-styleguide#148, chatwoot/chatwoot#8441; ' +
      'near miss (an optional dependency skipped): WikiEducationFoundation/WikiEduDashboard#2176',
    examples: [
      'error next@14.0.3: The engine "node" is incompatible with this module. Expected version ">=18.17.0". Got "18.16.0"',
      '#15 43.22 error jest@29.3.1: The engine "node" is incompatible with this module. Expected version "^14.15.0 || ^16.10.0 || >=18.0.0". Got "12.22.12"',
      'error faucet-pipeline-core@1.6.1: The engine "node" is incompatible with this module. Expected version ">= 12". Got "10.24.1"',
    ],
    nearMisses: ['info phantom@4.0.12: The engine "node" is incompatible with this module. Expected version ">=8". Got "6.14.4"'],
  },
  {
    id: 'runtime.pip-requires-python',
    family: 'runtime',
    mechanism: 'runtime-version',
    needles: ['requires a different python'],
    patterns: [re("ERROR: Package '(?<pkg>[^']+)' requires a different Python: (?<have>[\\d.]+) not in '(?<want>[^']+)'")],
    source:
      'pip _internal/resolution (check_requires_python: "Package %r requires a different Python: %s not in %r"). Lines (GitHub): google/gemma_pytorch#79, ' +
      'meolu/walle-web#1149, scylladb/python-driver#482, dbcli/pgcli#1561; near miss (pip skipping one candidate): NVIDIA-ISAAC-ROS/gxf#4',
    examples: [
      "ERROR: Package 'gemma' requires a different Python: 3.10.13 not in '>=3.11'",
      "ERROR: Package 'gunicorn' requires a different Python: 2.7.18 not in '>=3.4'",
      "ERROR: Package 'ccm' requires a different Python: 3.8.18 not in '>=3.9'",
    ],
    nearMisses: [
      "837.1   Link requires a different Python (3.8.10 not in: '>=3.9'): https://files.pythonhosted.org/packages/d0/b2/" +
        'fe774844d1857804cc884bba67bec38f649c99d0dc1ee7cbbf1da601357c/numpy-1.25.0.tar.gz (from https://pypi.org/simple/numpy/) (requires-python:>=3.9)',
    ],
  },
  {
    id: 'runtime.composer-platform-php',
    family: 'runtime',
    mechanism: 'runtime-version',
    needles: ['composer detected issues in your platform'],
    patterns: [
      re(
        'Composer detected issues in your platform: Your Composer dependencies require a PHP version "(?<want>[^"]+)"\\. ',
        'You are running (?<have>\\d+(?:\\.\\d+)*)',
      ),
    ],
    source:
      'Composer src/Composer/Autoload/AutoloadGenerator.php (the generated vendor/composer/platform_check.php). Lines (GitHub): composer/composer#11628, ' +
      'ChurchCRM/CRM#6511, overtrue/phplint#113, laravel/framework#39516, michz/shinage-server#91',
    examples: [
      'PHP Fatal error:  Composer detected issues in your platform: Your Composer dependencies require a PHP version ">= 8.1.0". You are running ' +
        '8.0.30. in C:\\laragon\\www\\belajar1\\vendor\\composer\\platform_check.php on line 24',
      '[10-Jul-2023 01:06:43 UTC] PHP Fatal error:  Composer detected issues in your platform: Your Composer dependencies require a PHP version ' +
        '">= 8.1.0". You are running 8.0.29. in /home/papelarte/public_html/churchcrm/vendor/composer/platform_check.php on line 24',
      'PHP Fatal error:  Composer detected issues in your platform: Your Composer dependencies require a PHP version ">= 8.0.2". You are running ' +
        '7.4.26. in /root/.composer/vendor/composer/platform_check.php on line 24',
    ],
  },
  {
    id: 'runtime.bundler-ruby-version',
    family: 'runtime',
    mechanism: 'runtime-version',
    needles: ['your ruby version is'],
    patterns: [re('Your Ruby version is (?<have>\\S+), but your Gemfile specified (?<want>\\S+(?: [\\d.]+)?)')],
    source:
      'Bundler lib/bundler/ruby_version.rb / definition.rb ("Your Ruby version is %s, but your Gemfile specified %s"). Lines (GitHub): rughh/on_ruby#259, ' +
      'openSUSE/osem#3145, WikiEducationFoundation/WikiEduDashboard#4335, zinc-collective/convene#2300',
    examples: [
      'Your Ruby version is 2.3.0, but your Gemfile specified ~> 2.4.0',
      'Your Ruby version is 3.1.4, but your Gemfile specified 3.1.3',
      '#8 1.598 Your Ruby version is 3.2.3, but your Gemfile specified 3.3.0',
    ],
  },
  {
    id: 'runtime.dotnet-framework-missing',
    family: 'runtime',
    mechanism: 'runtime-version',
    needles: ['was not found', 'install or update .net', 'compatible framework version'],
    patterns: [
      re("The (?:specified )?framework '(?<framework>[\\w.]+)', version '(?<want>[\\w.-]+)'(?: \\(\\w+\\))? was not found"),
      re('You must install or update \\.NET to run this application'),
      re('It was not possible to find any compatible framework version'),
    ],
    source:
      'dotnet/runtime src/native/corehost/fxr (the host\'s "framework ... was not found" and, since .NET 8, "You must install or update .NET to run this ' +
      'application"). Lines (GitHub): dotnet/core#7373, dotnet/core#5760, dotnet/sdk#16904, dotnet/aspnetcore#29611 (the runtime image instead of ' +
      'aspnet), dotnet/runtime#81701, dotnet/aspnetcore#53260',
    examples: [
      "The framework 'Microsoft.AspNetCore.App', version '3.1.0' (x64) was not found.",
      "The framework 'Microsoft.AspNetCore.App', version '5.0.0' was not found.",
      "The specified framework 'Microsoft.AspNetCore.App', version '2.1.1' was not found.",
      'You must install or update .NET to run this application.',
      'It was not possible to find any compatible framework version',
    ],
  },
  {
    id: 'runtime.jvm-heap-flag',
    family: 'runtime',
    mechanism: 'jvm-heap-flag',
    needles: ['heap size:', 'maximum representable size', 'larger value than the maximum heap size'],
    patterns: [
      re('Invalid (?:maximum|initial) heap size: (?<flag>-Xm[xs]\\S*)'),
      re('The specified size exceeds the maximum representable size'),
      re('Initial heap size set to a larger value than the maximum heap size'),
    ],
    source:
      'OpenJDK hotspot share/runtime/arguments.cpp ("Invalid maximum heap size: %s", "The specified size exceeds the maximum representable size."). ' +
      'Lines (GitHub): replit-archive/jsrepl#71, bernardladenthin/BitcoinAddressFinder#15 (32-bit JVM), swimlane/elk-tls-docker#11 (quotes from an env ' +
      'file), payara/docker-payaraserver-full#42, linuxserver-archive/docker-unifi-controller#177, nimmis/docker-spigot#14; "Initial heap size set to a ' +
      'larger value than the maximum heap size" (HotSpot gcArguments): datastax-archive/docker-images#21, Earthcomputer/EnchantmentCracker#267',
    examples: [
      'Invalid maximum heap size: -Xmx4g\nThe specified size exceeds the maximum representable size.',
      'Invalid maximum heap size: -Xmx"2g"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Payara's unexpanded placeholder as the JVM printed it, not a template
      'Invalid maximum heap size: -Xmx${ENV=MAX_HEAP}${ENV=MIN_HEAP}',
      'Invalid maximum heap size: -Xmx1024MM',
      'Invalid initial heap size: -Xms',
      'Initial heap size set to a larger value than the maximum heap size',
    ],
  },
  {
    id: 'runtime.go-out-of-memory',
    family: 'runtime',
    mechanism: 'memory-limit',
    needles: ['runtime: out of memory', 'fatal error: out of memory'],
    patterns: [re('runtime: out of memory: cannot allocate \\d+-byte block'), re('^fatal error: out of memory\\s*$')],
    source:
      'Go runtime/mem_linux.go sysMap and malloc.go ("runtime: out of memory: cannot allocate %d-byte block (%d in use)", throw "out of memory"; ' +
      'the heap is capped by the container limit, or earlier by GOMEMLIMIT with GOGC=off). Lines (GitHub): projectdiscovery/nuclei#6593, ' +
      'aquasecurity/fanal#257',
    examples: ['runtime: out of memory: cannot allocate 4194304-byte block (1755381760 in use)', 'fatal error: out of memory'],
  },
  {
    id: 'runtime.jvm-direct-buffer',
    family: 'runtime',
    mechanism: 'memory-limit',
    needles: ['direct buffer memory'],
    patterns: [re('OutOfMemoryError: Cannot reserve \\d+ bytes of direct buffer memory')],
    source:
      'OpenJDK java.nio.Bits.reserveMemory (JDK 16+: "Cannot reserve %d bytes of direct buffer memory (allocated: %d, limit: %d)", capped by ' +
      '-XX:MaxDirectMemorySize, by default the heap size). Lines (GitHub): apache/hertzbeat#3157, GemstoneGG/Velocity-CTD#521, AutoMQ/automq#139; ' +
      "near miss (the JVM's exception log of one it throws and handles): dacapobench/dacapobench#238",
    examples: [
      'java.lang.OutOfMemoryError: Cannot reserve 4194304 bytes of direct buffer memory (allocated: 535498591, limit: 536870912)',
      'java.lang.OutOfMemoryError: Cannot reserve 4194304 bytes of direct buffer memory (allocated: 1069831345, limit: 1073741824)',
    ],
    nearMisses: [
      "[1.236s][info][exceptions  ] Exception <a 'java/lang/OutOfMemoryError'{0x00000000ff8585e8}: Cannot reserve 262144 bytes of direct buffer " +
        'memory (allocated: 29310240, limit: 29360128)>',
    ],
  },
]);
