#!/usr/bin/env bash
# Runs test/realnode inside a network namespace made for it: the control plane, containerd, the
# kubelet, the node agent and the pods all live there (loopback plus a veth pair, both ends inside,
# one carrying the node's address 10.213.0.2), so nothing they listen on is reachable from outside and the
# bridge CNI's interfaces never touch the host's network. Only the network is separate: /proc,
# cgroups and mounts are the host's, as on a real node. The namespace goes on exit.
#   bash scripts/realnode-run.sh [vitest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || { echo "test:realnode needs root (network namespace, containerd, kubelet)" >&2; exit 1; }
NS="pod-doctor-realnode-$$"
cleanup() { ip netns del "$NS" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
ip netns add "$NS"
ip -n "$NS" link set lo up
# Both ends of the pair inside the namespace (this kernel has no dummy interfaces).
ip -n "$NS" link add node0 type veth peer name node0-peer
ip -n "$NS" link set node0-peer up
ip -n "$NS" addr add 10.213.0.2/24 dev node0
ip -n "$NS" link set node0 up
# A default route, so the kubelet and the CNI find "the node's interface" as on a real host.
ip -n "$NS" route add default via 10.213.0.1 dev node0 onlink
# nsenter, not `ip netns exec`: that one also remounts /sys, which hides the host's cgroup tree.
POD_DOCTOR_REALNODE_NETNS="$NS" POD_DOCTOR_REALNODE_IP=10.213.0.2 \
  nsenter --net="/var/run/netns/$NS" -- npx vitest run -c vitest.realnode.config.ts "$@"
