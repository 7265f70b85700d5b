// Language runtimes whose image or environment does not fit them (catalogue/runtimes.ts): native
// add-ons built for another platform, .NET without ICU or in invariant mode, Node.js and OpenSSL 3,
// Go's thread cap, and runtime wordings read onto mechanisms of other files.
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { type ContainerPatch, describeFamilies, type Row, scopeOf } from '../helpers/mechanism-table.js';

const APP_VOLUME: ContainerPatch = { volumeMounts: [{ name: 'src', mountPath: '/app' }] };
const HOST_SOURCE = { volumes: [{ name: 'src', hostPath: { path: '/home/dev/shop' } }] };
const INVARIANT_OFF: ContainerPatch = { env: [{ name: 'DOTNET_SYSTEM_GLOBALIZATION_INVARIANT', value: 'false' }] };
const INVARIANT_ON: ContainerPatch = { env: [{ name: 'DOTNET_SYSTEM_GLOBALIZATION_INVARIANT', value: '1' }] };
const ICU_LINE =
  "Process terminated. Couldn't find a valid ICU package installed on the system. Set the configuration flag System.Globalization.Invariant to true " +
  'if you want to run with no globalization support.';

const FAMILIES: Record<string, Row[]> = {
  'native add-ons': [
    {
      line: 'Error: /app/node_modules/bcrypt/lib/binding/bcrypt_lib.node: invalid ELF header',
      mechanism: 'native-module-platform',
      variant: 'copied',
      knob: '.dockerignore',
      data: { path: '/app/node_modules/bcrypt/lib/binding/bcrypt_lib.node' },
    },
    {
      line: 'Error: /app/node_modules/bcrypt/lib/binding/bcrypt_lib.node: invalid ELF header',
      mechanism: 'native-module-platform',
      variant: 'under-mount',
      knob: 'spec.containers[app].volumeMounts[src].mountPath',
      container: APP_VOLUME,
      spec: HOST_SOURCE,
      data: { volume: 'src', mountPath: '/app', volumeKind: 'hostPath' },
    },
    {
      line: 'Error: Error loading shared library /usr/src/app/api/node_modules/sharp/build/Release/sharp.node: Exec format error',
      mechanism: 'native-module-platform',
      variant: 'musl',
      knob: 'the Dockerfile',
    },
    {
      line: 'Error: Could not load the "sharp" module using the linuxmusl-x64 runtime',
      mechanism: 'native-module-platform',
      variant: 'musl',
      knob: '.dockerignore',
      data: { platform: 'linuxmusl-x64' },
    },
    {
      line: 'Error: Cannot find module @rollup/rollup-linux-x64-musl. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828).',
      mechanism: 'native-module-platform',
      variant: 'musl',
      knob: 'the Dockerfile',
      data: { module: '@rollup/rollup-linux-x64-musl' },
    },
    {
      line:
        "Error: The module '/usr/src/app/node_modules/node-expat/build/Release/node_expat.node'\nwas compiled against a different Node.js version using\n" +
        'NODE_MODULE_VERSION 46. This version of Node.js requires\nNODE_MODULE_VERSION 51. Please try re-compiling or re-installing',
      mechanism: 'native-module-platform',
      variant: 'node-abi',
      knob: 'spec.containers[app].image',
      data: { built: 'NODE_MODULE_VERSION 46', need: 'NODE_MODULE_VERSION 51' },
    },
    {
      line: 'Specifically the "@esbuild/darwin-arm64" package is present but this platform needs the "@esbuild/linux-arm64" package instead.',
      mechanism: 'native-module-platform',
      variant: 'copied',
      knob: 'docker buildx --platform',
      data: { have: '@esbuild/darwin-arm64', want: '@esbuild/linux-arm64' },
    },
  ],
  '.NET globalization': [
    { line: ICU_LINE, mechanism: 'dotnet-globalization', variant: 'icu-missing', knob: 'spec.containers[app].env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT' },
    {
      line: ICU_LINE,
      mechanism: 'dotnet-globalization',
      variant: 'alpine',
      knob: 'the Dockerfile',
      container: { image: 'registry.example.com/shop/api:2-alpine' },
    },
    {
      line: ICU_LINE,
      mechanism: 'dotnet-globalization',
      variant: 'invariant-off',
      knob: 'spec.containers[app].env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT',
      container: INVARIANT_OFF,
      data: { setting: 'false' },
    },
    {
      line:
        'Unhandled exception. System.Globalization.CultureNotFoundException: Only the invariant culture is supported in globalization-invariant mode. ' +
        "See https://aka.ms/GlobalizationInvariantMode for more information. (Parameter 'name')",
      mechanism: 'dotnet-globalization',
      variant: 'invariant-mode',
      knob: 'spec.containers[app].env DOTNET_SYSTEM_GLOBALIZATION_INVARIANT',
      container: INVARIANT_ON,
      data: { setting: '1' },
    },
  ],
  'Node.js and OpenSSL 3': [
    { line: 'Error: error:0308010C:digital envelope routines::unsupported', mechanism: 'node-openssl3', variant: 'legacy-hash', knob: 'env NODE_OPTIONS' },
    {
      line: 'node: --openssl-legacy-provider is not allowed in NODE_OPTIONS',
      mechanism: 'node-openssl3',
      variant: 'flag-unknown',
      knob: 'spec.containers[app].env NODE_OPTIONS',
      container: { env: [{ name: 'NODE_OPTIONS', value: '--openssl-legacy-provider' }] },
      data: { flag: '--openssl-legacy-provider' },
    },
  ],
  'Go thread cap': [
    { line: 'runtime: program exceeds 10000-thread limit', mechanism: 'go-thread-limit', variant: 'threads', knob: "the app's concurrency" },
    {
      line: 'fatal error: thread exhaustion',
      mechanism: 'go-thread-limit',
      variant: 'network-volume',
      knob: 'spec.containers[app].volumeMounts[packets]',
      container: { volumeMounts: [{ name: 'packets', mountPath: '/data' }] },
      spec: { volumes: [{ name: 'packets', nfs: { server: 'nas.example.com', path: '/export/packets' } }] },
      data: { volume: 'packets', mountPath: '/data' },
    },
  ],
  'runtime versions': [
    {
      line: 'error next@14.0.3: The engine "node" is incompatible with this module. Expected version ">=18.17.0". Got "18.16.0"',
      mechanism: 'runtime-version',
      variant: 'node-engine',
      knob: 'spec.containers[app].image',
      data: { pkg: 'next@14.0.3', want: '>=18.17.0', have: '18.16.0' },
    },
    {
      line: "ERROR: Package 'gemma' requires a different Python: 3.10.13 not in '>=3.11'",
      mechanism: 'runtime-version',
      variant: 'python-requires',
      knob: 'FROM python:<version>',
      data: { pkg: 'gemma', want: '>=3.11', have: '3.10.13' },
    },
  ],
  'runtime versions, at start': [
    {
      line:
        'PHP Fatal error:  Composer detected issues in your platform: Your Composer dependencies require a PHP version ">= 8.0.2". You are running ' +
        '7.4.26. in /root/.composer/vendor/composer/platform_check.php on line 24',
      mechanism: 'runtime-version',
      variant: 'php-platform',
      knob: 'spec.containers[app].image',
      data: { want: '>= 8.0.2', have: '7.4.26' },
    },
    {
      line: 'Your Ruby version is 2.3.0, but your Gemfile specified ~> 2.4.0',
      mechanism: 'runtime-version',
      variant: 'ruby-gemfile',
      knob: 'FROM ruby:<version>',
      data: { want: '~> 2.4.0', have: '2.3.0' },
    },
    {
      line:
        "You must install or update .NET to run this application.\n\nApp: /app/api.dll\nArchitecture: x64\nFramework: 'Microsoft.AspNetCore.App', " +
        "version '8.0.0' (x64)\n.NET location: /usr/share/dotnet\n\nNo frameworks were found.",
      mechanism: 'runtime-version',
      variant: 'aspnet-missing',
      knob: 'the final FROM',
      data: { aspnetImage: 'mcr.microsoft.com/dotnet/aspnet:8.0', want: '8.0.0' },
    },
    {
      line:
        "It was not possible to find any compatible framework version\nThe framework 'Microsoft.AspNetCore.App', version '3.1.0' (x64) was not found.\n" +
        '  - The following frameworks were found:\n      6.0.4 at [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]',
      mechanism: 'runtime-version',
      variant: 'dotnet-framework',
      knob: 'TargetFramework, RollForward',
      data: { framework: 'Microsoft.AspNetCore.App', want: '3.1.0', found: '6.0.4' },
    },
  ],
  'JVM heap option': [
    {
      line: 'Invalid maximum heap size: -Xmx"2g"\nError: Could not create the Java Virtual Machine.',
      mechanism: 'jvm-heap-flag',
      variant: 'malformed',
      knob: 'spec.containers[app].env ES_JAVA_OPTS',
      container: { env: [{ name: 'ES_JAVA_OPTS', value: '-Xms2g -Xmx"2g"' }] },
      data: { flag: '-Xmx"2g"', envVar: 'ES_JAVA_OPTS' },
    },
    {
      line: 'Invalid maximum heap size: -Xmx4g\nThe specified size exceeds the maximum representable size.\nError: Could not create the Java Virtual Machine.',
      mechanism: 'jvm-heap-flag',
      variant: 'thirty-two-bit',
      knob: 'the base image (JRE)',
      data: { flag: '-Xmx4g' },
    },
  ],
  'JVM heap option, set twice': [
    {
      line: 'Error occurred during initialization of VM\nInitial heap size set to a larger value than the maximum heap size',
      mechanism: 'jvm-heap-flag',
      variant: 'xms-above-xmx',
      knob: 'spec.containers[app].env JVM_EXTRA_OPTS',
      container: { env: [{ name: 'JVM_EXTRA_OPTS', value: '-Xmx2g' }] },
      data: { envVar: 'JVM_EXTRA_OPTS' },
    },
    {
      line: 'Initial heap size set to a larger value than the maximum heap size',
      mechanism: 'jvm-heap-flag',
      variant: 'xms-above-xmx',
      knob: "the image's start script",
    },
  ],
  'runtime wordings of other mechanisms': [
    {
      line: 'ImportError: libGL.so.1: cannot open shared object file: No such file or directory',
      mechanism: 'image-runtime-mismatch',
      variant: 'shared-library',
      knob: 'the Dockerfile',
      data: { library: 'libGL.so.1' },
    },
    {
      line:
        "/usr/local/bundle/gems/bundler-1.10.4/lib/bundler/spec_set.rb:92:in `block in materialize': Could not find execjs-2.6.0 in any of the sources " +
        '(Bundler::GemNotFound)',
      mechanism: 'module-missing',
      variant: 'image',
      knob: 'the Dockerfile',
      data: { module: 'execjs-2.6.0' },
    },
    {
      line: "System.OutOfMemoryException: Exception of type 'System.OutOfMemoryException' was thrown.",
      mechanism: 'memory-limit',
      variant: 'limit',
      knob: 'resources.limits.memory',
      container: { resources: { limits: { memory: '2Gi' } } },
      data: { limit: '2Gi' },
    },
    {
      line: 'java.lang.OutOfMemoryError: Cannot reserve 4194304 bytes of direct buffer memory (allocated: 535498591, limit: 536870912)',
      mechanism: 'memory-limit',
      variant: 'limit',
      knob: 'resources.limits.memory',
    },
    {
      line: 'runtime: out of memory: cannot allocate 4194304-byte block (1755381760 in use)\nfatal error: out of memory',
      mechanism: 'memory-limit',
      variant: 'limit',
      knob: 'spec.containers[app].resources.limits.memory',
    },
  ],
};

describeFamilies(FAMILIES);

const read = (line: string, container?: ContainerPatch, spec?: Parameters<typeof scopeOf>[1]) =>
  readTexts([{ text: line, source: 'logs app' }], scopeOf(container, spec));

describe('runtimes: what the readings say', () => {
  it('names the volume over node_modules as evidence, and the image knobs only without it', () => {
    const line = 'Error: /app/node_modules/bcrypt/lib/binding/bcrypt_lib.node: invalid ELF header';
    const mounted = read(line, APP_VOLUME, HOST_SOURCE);
    expect(mounted?.evidence.map((e) => e.source)).toContain('pod.spec.containers[app].volumeMounts[src]');
    expect(mounted?.evidence.find((e) => e.source.endsWith('volumeMounts[src]'))?.text).toContain('hostPath /home/dev/shop');
    const plain = read(line);
    expect(plain?.knobPaths.some((p) => p.includes('volumeMounts'))).toBe(false);
  });

  it('quotes the env that turns invariant mode off, and tells to set 1', () => {
    const r = read(ICU_LINE, INVARIANT_OFF);
    expect(r?.evidence.map((e) => e.text)).toContain('DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=false');
    expect(r?.knobs.join('\n')).toMatch(/DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: set 1/);
  });

  it('reads an ABI mismatch with its two numbers from the lines after the one that matched', () => {
    const r = read('was compiled against a different Node.js version using\nNODE_MODULE_VERSION 72. This version of Node.js requires\nNODE_MODULE_VERSION 83.');
    expect(r?.variant).toBe('node-abi');
    expect(r?.summary).toContain('NODE_MODULE_VERSION 72');
    expect(r?.summary).toContain('NODE_MODULE_VERSION 83');
  });

  it("leaves TensorFlow's missing-CUDA warning to others, and a scanner that skips an assembly alone", () => {
    const tf =
      "2021-04-09 19:52:41.024315: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'; " +
      'dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory';
    expect(read(tf)?.mechanism).not.toBe('image-runtime-mismatch');
    const skip =
      "08:46:12.898     Searcher     Skipping assembly 'OpenTap.Python.dll'. Only the invariant culture is supported in globalization-invariant mode.";
    expect(read(skip)).toBeUndefined();
  });
});
