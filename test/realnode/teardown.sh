#!/usr/bin/env bash
# Tears a real node down: everything it ran and changed on this machine. Idempotent; called by
# the harness's stop(), by its watchdog when the test process dies, and by realnode-run.sh on exit.
#   teardown.sh DIR   (the node's directory: pids, containerd state, kubelet root, saved sysctls)
set -uo pipefail
DIR=${1:?node directory}
[[ -d $DIR ]] || exit 0

pid_of() { [[ -f $DIR/$1.pid ]] && cat "$DIR/$1.pid"; }
kill_group() { local p; p=$(pid_of "$1") && [[ -n $p ]] && kill -KILL -- "-$p" 2>/dev/null; }

# 1. The kubelet first, so nothing restarts containers while they go.
kill_group kubelet
# 2. Every process in the pods' cgroups (containers and their children), until none is left.
for _ in 1 2 3 4 5; do
  pids=$(cat $(find /sys/fs/cgroup/pids/kubepods /sys/fs/cgroup/memory/kubepods -name cgroup.procs 2>/dev/null) 2>/dev/null | sort -u)
  [[ -z $pids ]] && break
  kill -KILL $pids 2>/dev/null
  sleep 0.2
done
# 3. containerd's shims of this node (they daemonize out of containerd's group), then containerd.
for p in $(pgrep -f "containerd-shim-runc-v2 .*-address $DIR/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
kill_group containerd
kill_group agent
# Anything a scenario started on the host (mount holders), recorded by pid.
if [[ -f $DIR/extra.pids ]]; then while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$DIR/extra.pids"; fi
sleep 0.2
# 4. Mounts under the node's directory, deepest first; then the pod network namespaces the
#    node's containerd made (recorded as new since start).
awk -v d="$DIR" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
  umount -l "$m" 2>/dev/null
done
if [[ -f $DIR/netns.before ]]; then
  for ns in /var/run/netns/cni-*; do
    [[ -e $ns ]] || continue
    grep -qxF "$ns" "$DIR/netns.before" && continue
    umount -l "$ns" 2>/dev/null; rm -f "$ns"
  done
fi
# 5. The pods' cgroups the kubelet made, leaves first.
for c in /sys/fs/cgroup/*/kubepods; do
  [[ -d $c ]] && find "$c" -depth -type d -exec rmdir {} + 2>/dev/null
done
# 6. The sysctls the kubelet sets at start.
if [[ -f $DIR/sysctl.saved ]]; then
  while IFS='=' read -r k v; do sysctl -q -w "$k=$v" >/dev/null 2>&1; done <"$DIR/sysctl.saved"
fi
[[ ${POD_DOCTOR_REALNODE_KEEP:-0} == 1 ]] || rm -rf "$DIR"
exit 0
