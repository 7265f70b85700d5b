import { describe, expect, it } from 'vitest';
import { crashedPod, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule } from './crash-inotify-limit.js';
import { RULES } from './index.js';

const crashed = crashedPod({ exitCode: 2, restarts: 5 });
const dotnet = crashedPod({ exitCode: 134, restarts: 18 });
// .NET FileSystemWatcher's SR string for EMFILE from inotify_init (dotnet/runtime), as an ASP.NET Core app prints it.
const DOTNET =
  'Unhandled exception. System.IO.IOException: The configured user limit (128) on the number of inotify instances has been reached, ' +
  'or the per-process limit on the number of open file descriptors has been reached.';
const DOTNET_TRACE = [
  DOTNET,
  '   at System.IO.FileSystemWatcher.StartRaisingEvents()',
  '   at Microsoft.Extensions.FileProviders.PhysicalFileProvider.CreateFileChangeToken(String filter)',
  '   at Microsoft.Extensions.Configuration.ConfigurationBuilder.Build()',
  '   at Program.<Main>$(String[] args) in /src/Program.cs:line 21',
];

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: "near miss (descriptor limit vs inotify): accept4: too many open files is the process's ulimit",
      snapshot: snapshot(crashed, {
        logs: [logTail('web', ['http: Accept error: accept tcp [::]:8080: accept4: too many open files; retrying in 1s', 'fatal: too many open files'])],
      }),
    },
    {
      name: "near miss (watches, not instances): Node's ENOSPC for file watchers is fs.inotify.max_user_watches",
      snapshot: snapshot(crashed, {
        logs: [logTail('web', ["Error: ENOSPC: System limit for number of file watchers reached, watch '/app/public'"])],
      }),
    },
    {
      name: "near miss (watches, not instances): .NET's own wording of the watches limit",
      snapshot: snapshot(dotnet, {
        logs: [
          logTail('web', ['Unhandled exception. System.IO.IOException: The configured user limit (8192) on the number of inotify watches has been reached.']),
        ],
      }),
    },
    {
      name: 'a Ready pod that lived through one watcher failure a day ago',
      snapshot: snapshot(crashedPod({ exitCode: 2, restarts: 1, now: 'running', finishedAgo: 86400 }), {
        logs: [logTail('web', ['failed to create fsnotify watcher: too many open files'])],
      }),
    },
  ],
  invalid: [
    {
      name: 'controller-runtime certwatcher panics',
      snapshot: snapshot(crashed, {
        logs: [
          logTail('web', ['I1121 starting manager', 'panic: failed to new ca-cert watcher: too many open files', '', 'goroutine 1 [running]:', 'main.main()']),
        ],
      }),
      expect: { playbook: null, said: [{ id: 'crashedRun', data: { line: 'panic: failed to new ca-cert watcher: too many open files' } }, 'notFdLimit'] },
    },
    {
      name: 'fsnotify',
      snapshot: snapshot(crashed, { logs: [logTail('web', ['level=fatal msg="failed to create fsnotify watcher: too many open files"'])] }),
      expect: { params: { container: 'web' }, mechanism: 'inotify-instances' },
    },
    {
      name: ".NET's FileSystemWatcher: the configured user limit (128) on inotify instances, with the polling watcher as the app's way out",
      snapshot: snapshot(dotnet, { logs: [logTail('web', DOTNET_TRACE)] }),
      expect: {
        mechanism: 'inotify-instances',
        mechanismVariant: 'dotnet',
        said: [{ id: 'crashedRun', data: { line: /user limit \(128\) on the number of inotify instances has been reached/ } }, 'raiseLimits', 'knob'],
      },
    },
    {
      name: "the JDK's WatchService (Nacos): User limit of inotify instances reached or too many open files",
      snapshot: snapshot(crashed, {
        logs: [
          logTail('web', [
            'Caused by: com.alibaba.nacos.api.exception.NacosException: java.io.IOException: User limit of inotify instances reached or too many open files',
            '\tat com.alibaba.nacos.sys.file.WatchFileCenter.registerWatcher(WatchFileCenter.java:101)',
          ]),
        ],
      }),
      expect: { said: [{ id: 'crashedRun', data: { line: /User limit of inotify instances reached/ } }] },
    },
    {
      name: 'the watcher line is not the last one the catalogue reads (a later line reads as something else)',
      snapshot: snapshot(crashed, {
        logs: [logTail('web', ['Error: failed to create FS watcher: too many open files', "Error: EACCES: permission denied, open '/app/cache/x'"])],
      }),
      expect: { said: [{ id: 'crashedRun', data: { line: 'Error: failed to create FS watcher: too many open files' } }] },
    },
  ],
});

describe('crash.inotify-limit in the full registry', () => {
  it("ranks first for a .NET app whose configuration watcher finds the node's inotify instances used up, folding crash.app-exit in", () => {
    const d = diagnose(snapshot(dotnet, { logs: [logTail('web', DOTNET_TRACE)] }), { rules: RULES });
    expect(d.findings[0]).toMatchObject({ rule: 'crash.inotify-limit', mechanism: { id: 'inotify-instances', variant: 'dotnet' } });
    expect(d.findings[0]?.merged).toContain('crash.app-exit');
    expect(d.findings[0]?.advice.join(' ')).toMatch(/DOTNET_USE_POLLING_FILE_WATCHER/);
  });
});
