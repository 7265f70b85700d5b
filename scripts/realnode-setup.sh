#!/usr/bin/env bash
# Prepares a real Kubernetes node for test/realnode: Debian's containerd (1.6), runc (1.1),
# CNI plugins and busybox-static; the kubelet and a static pause binary built from Debian's
# `kubernetes` source by scripts/envtest-setup.sh (one build for both suites); and two images
# made here with no registry, as docker-archive tarballs that the harness imports into each
# run's own containerd:
#   pod-doctor.local/busybox:1.35  busybox-static with its applets, plus /usr/local/bin/app-arm64
#                                  (an aarch64 ELF header: runs into "exec format error" on amd64)
#   pod-doctor.local/pause:3.2     the sandbox image (containerd's sandbox_image)
# Cache: ${POD_DOCTOR_REALNODE_CACHE:-$HOME/.cache/pod-doctor/realnode}/images (outside the repo).
set -euo pipefail
{
CACHE="${POD_DOCTOR_REALNODE_CACHE:-$HOME/.cache/pod-doctor/realnode}"
HERE="$(cd "$(dirname "$0")" && pwd)"
# Bump when the images' recipe changes.
RECIPE=1
APT_PACKAGES=(containerd runc containernetworking-plugins busybox-static iproute2 util-linux)

log() { printf '[realnode-setup] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
T0=$(date +%s)

[[ $(id -u) -eq 0 ]] || die "a real node needs root (containerd, cgroups, mounts, network namespaces)"
[[ -d /sys/fs/cgroup/memory && -d /sys/fs/cgroup/cpu ]] || die "cgroup v1 with the memory and cpu controllers is required (found: $(ls /sys/fs/cgroup | tr '\n' ' '))"

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  log "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The package installs a service; this node's containerd is started by the harness only.
pgrep -x containerd >/dev/null && log "note: a containerd is already running on this machine; the harness starts its own on its own socket"

log "kubelet + pause (scripts/envtest-setup.sh)"
bash "$HERE/envtest-setup.sh"
ENVTEST_CACHE="${POD_DOCTOR_ENVTEST_CACHE:-$HOME/.cache/pod-doctor/envtest}"
BIN="$ENVTEST_CACHE/$(cat "$ENVTEST_CACHE/current")/bin"
[[ -x $BIN/kubelet && -x $BIN/pause ]] || die "kubelet or pause missing in $BIN"

IMAGES="$CACHE/images"
BUSYBOX_VERSION=$(dpkg-query -W -f='${Version}' busybox-static)
STAMP="recipe=$RECIPE busybox=$BUSYBOX_VERSION pause=$(sha256sum "$BIN/pause" | cut -c1-16)"
if [[ ${FORCE:-0} != 1 && -f $IMAGES/STAMP && "$(cat "$IMAGES/STAMP")" == "$STAMP" ]]; then
  log "images present: $IMAGES"
  exit 0
fi

# docker-archive NAME TAG ROOTFS_DIR CONFIG_JSON_FRAGMENT OUT: a one-layer image tarball.
docker_archive() {
  local ref=$1 rootfs=$2 cfg=$3 out=$4 work
  work=$(mktemp -d)
  mkdir -p "$work/layer"
  # Fixed owner and mtime: the same inputs give the same digests.
  tar --numeric-owner --owner=0 --group=0 --mtime='2024-01-01 00:00:00' --sort=name -C "$rootfs" -cf "$work/layer/layer.tar" .
  local diff; diff=$(sha256sum "$work/layer/layer.tar" | cut -d' ' -f1)
  printf '{"architecture":"amd64","os":"linux","created":"2024-01-01T00:00:00Z","config":%s,"rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"history":[{"created":"2024-01-01T00:00:00Z","created_by":"scripts/realnode-setup.sh"}]}' "$cfg" "$diff" >"$work/config.json"
  local cid; cid=$(sha256sum "$work/config.json" | cut -d' ' -f1)
  mv "$work/config.json" "$work/$cid.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["layer/layer.tar"]}]' "$cid" "$ref" >"$work/manifest.json"
  tar --numeric-owner --owner=0 --group=0 -C "$work" -cf "$out.tmp" manifest.json "$cid.json" layer
  mv "$out.tmp" "$out"
  rm -rf "$work"
}

mkdir -p "$IMAGES"
ROOT=$(mktemp -d)
trap 'rm -rf "$ROOT"' EXIT

# busybox: the static binary and a link per applet, a minimal /etc.
B="$ROOT/busybox"
mkdir -p "$B/bin" "$B/etc" "$B/tmp" "$B/root" "$B/usr/local/bin" "$B/proc" "$B/sys" "$B/dev" "$B/var/run"
chmod 1777 "$B/tmp"
cp /bin/busybox "$B/bin/busybox"
for applet in $("$B/bin/busybox" --list); do
  [[ -e $B/bin/$applet ]] || ln -s busybox "$B/bin/$applet"
done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$B/etc/passwd"
printf 'root:x:0:\nnobody:x:65534:\n' >"$B/etc/group"
# An ELF header for aarch64 (e_machine 0xb7) and nothing else: execve answers ENOEXEC here.
printf '\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00\x01\x00\x00\x00' >"$B/usr/local/bin/app-arm64"
chmod 0755 "$B/usr/local/bin/app-arm64"
docker_archive pod-doctor.local/busybox:1.35 "$B" \
  '{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Cmd":["sh"]}' "$IMAGES/busybox.tar"

P="$ROOT/pause"
mkdir -p "$P"
cp "$BIN/pause" "$P/pause"
docker_archive pod-doctor.local/pause:3.2 "$P" '{"Entrypoint":["/pause"],"User":"65535:65535"}' "$IMAGES/pause.tar"

printf '%s\n' "$STAMP" >"$IMAGES/STAMP"
log "images: $(ls "$IMAGES" | tr '\n' ' ')in $IMAGES ($(( $(date +%s) - T0 )) s in all)"
}
