#!/usr/bin/env bash
# Builds a real Kubernetes control plane (kube-apiserver, kube-scheduler,
# kube-controller-manager) for test/envtest, and the kubelet plus a static pause
# binary for test/realnode, from Debian's `kubernetes` source package with
# Debian's Go, fully offline (vendored deps, no module proxy). One build for both
# suites: the source is fetched and unpacked once.
#
# Output: <cache>/<debian-version>/bin/{kube-apiserver,kube-scheduler,kube-controller-manager,kubelet,pause}
#         <cache>/current  (the version the harnesses should use)
# Cache:  ${POD_DOCTOR_ENVTEST_CACHE:-$HOME/.cache/pod-doctor/envtest} (outside the repo).
# Idempotent: reuses the binaries when the stamp matches, rebuilds when the
# Debian source version or this recipe changes. FORCE=1 rebuilds anyway.
set -euo pipefail
# Braces: bash reads a script as it runs; this makes it parse the whole file first.
{

CACHE="${POD_DOCTOR_ENVTEST_CACHE:-$HOME/.cache/pod-doctor/envtest}"
GO_PKG=golang-1.19-go
GOROOT_DIR=/usr/lib/go-1.19
# Bump when the build recipe (patches, flags) changes so cached binaries are rebuilt.
RECIPE=4
COMPONENTS=(kube-apiserver kube-scheduler kube-controller-manager kubelet)
APT_PACKAGES=(etcd-server "$GO_PKG" rsync dpkg-dev make
  golang-github-modern-go-reflect2-dev golang-github-json-iterator-go-dev gcc libc6-dev)

T_TOTAL=$(date +%s.%N)
declare -a TIMINGS=()

log() { printf '[envtest-setup] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# step NAME CMD...: runs CMD and records how long it took.
step() {
  local name=$1; shift
  local t0; t0=$(date +%s.%N)
  log "── $name"
  "$@"
  local dt; dt=$(elapsed "$t0")
  TIMINGS+=("$(printf '%-34s %8ss' "$name" "$dt")")
  log "   $name: ${dt}s"
}
summary() {
  log "timings:"
  local line
  for line in "${TIMINGS[@]}"; do log "   $line"; done
  log "   $(printf '%-34s %8ss' total "$(elapsed "$T_TOTAL")")"
}

if [[ $(id -u) -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi

missing_packages() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

APT_UPDATED=0
apt_update_once() {
  [[ $APT_UPDATED -eq 1 ]] && return 0
  "${SUDO[@]}" apt-get update -qq
  APT_UPDATED=1
}

install_packages() {
  local missing
  mapfile -t missing < <(missing_packages)
  if [[ ${#missing[@]} -eq 0 ]]; then log "   packages present"; return 0; fi
  log "   installing: ${missing[*]}"
  apt_update_once
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# apt-get source needs deb-src entries; mirror the machine's Debian deb entries.
has_source() { apt-cache showsrc kubernetes 2>/dev/null | grep -q '^Version:'; }
ensure_deb_src() {
  has_source && return 0
  apt_update_once # stale lists on a fresh machine
  has_source && return 0
  local dst
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    dst=/etc/apt/sources.list.d/pod-doctor-deb-src.sources
    log "   adding deb-src entries to $dst"
    sed -E 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
      "${SUDO[@]}" tee "$dst" >/dev/null
  elif [[ -f /etc/apt/sources.list ]] && grep -qE '^deb ' /etc/apt/sources.list; then
    dst=/etc/apt/sources.list.d/pod-doctor-deb-src.list
    log "   adding deb-src entries to $dst"
    grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | "${SUDO[@]}" tee "$dst" >/dev/null
  else
    die "no Debian apt source found to mirror as deb-src"
  fi
  APT_UPDATED=0
  apt_update_once
  has_source || die "apt-cache showsrc kubernetes finds nothing even with deb-src entries"
}

source_version() {
  # Highest version apt would fetch.
  apt-cache showsrc kubernetes | awk '/^Version:/ { print $2 }' | sort -V | tail -1
}

installed_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo none; }

step "apt packages" install_packages
step "deb-src + source version" ensure_deb_src
VERSION=$(source_version)
[[ -n $VERSION ]] || die "could not determine the kubernetes source version"
# Debian versions look like 1.20.5+really1.20.2-1.1+deb12u1: the real upstream one follows "really".
UPSTREAM=$(sed -E 's/^([0-9]+:)?//; s/^.*really//; s/-[^-]*$//' <<<"$VERSION")
STAMP_WANT="source=$VERSION go=$(installed_version "$GO_PKG") reflect2=$(installed_version golang-github-modern-go-reflect2-dev) jsoniter=$(installed_version golang-github-json-iterator-go-dev) recipe=$RECIPE"
OUT="$CACHE/$VERSION"
BIN="$OUT/bin"
mkdir -p "$CACHE"

exec 9>"$CACHE/.lock"
flock 9

have_binaries() {
  local c
  for c in "${COMPONENTS[@]}" pause; do [[ -x $BIN/$c ]] || return 1; done
  [[ -f $BIN/STAMP && "$(cat "$BIN/STAMP")" == "$STAMP_WANT" ]]
}

if [[ ${FORCE:-0} != 1 ]] && have_binaries; then
  log "binaries for $VERSION present and stamp matches: reusing $BIN"
  printf '%s\n' "$VERSION" >"$CACHE/current"
  summary
  exit 0
fi

log "building kubernetes $VERSION (upstream v$UPSTREAM) into $BIN"
export PATH="$GOROOT_DIR/bin:$PATH"
export GOROOT="$GOROOT_DIR"
export GOCACHE="$CACHE/go-build"
export GOPATH="$CACHE/gopath"
export GOPROXY=off GOSUMDB=off GOFLAGS= CGO_ENABLED=0 GOTOOLCHAIN=local KUBE_VERBOSE=0
command -v go >/dev/null || die "go not found in $GOROOT_DIR/bin"

SRC_PARENT="$CACHE/src/$VERSION"
fetch_source() {
  rm -rf "$SRC_PARENT"
  mkdir -p "$SRC_PARENT"
  # apt-get source as root warns that the download is unsandboxed; harmless.
  (cd "$SRC_PARENT" && apt-get source -qq "kubernetes=$VERSION" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
  compgen -G "$SRC_PARENT/kubernetes-*/go.mod" >/dev/null || die "apt-get source kubernetes=$VERSION produced no source tree"
}
step "apt-get source kubernetes" fetch_source
SRC=$(dirname "$(compgen -G "$SRC_PARENT/kubernetes-*/go.mod" | head -1)")

# The vendored reflect2 v1.0.1 reads Go runtime internals that changed in Go 1.18
# (server-side apply SIGSEGVs); Debian's newer reflect2 + json-iterator fix it.
replace_vendored() { # MODULE NEW_VERSION DEBIAN_SRC_DIR
  local mod=$1 ver=$2 from=$3 dst="$SRC/vendor/$1"
  [[ -d $from ]] || die "$from missing (Debian -dev package not installed?)"
  rm -rf "$dst"
  mkdir -p "$dst"
  # Like `go mod vendor`: the package's own files, no tests or nested packages.
  find "$from" -maxdepth 1 -type f \( -name '*.go' -o -name '*.s' -o -name 'LICENSE*' -o -name 'go.mod' \) ! -name '*_test.go' \
    -exec cp -t "$dst" {} +
  # Rewrite every pinned version of the module in go.mod and vendor/modules.txt.
  local re="${mod//./\\.}"
  sed -i -E "s#(${re}( =>  *${re})?) v[0-9][^ ]*#\\1 ${ver}#g; s#(=> ${re}) v[0-9][^ ]*#\\1 ${ver}#g" "$SRC/go.mod" "$SRC/vendor/modules.txt"
}
debian_version_of() { # -dev package -> vX.Y.Z
  installed_version "$1" | sed -E 's/^([0-9]+:)?/v/; s/-[^-]*$//; s/\+.*$//'
}
patch_vendor() {
  replace_vendored github.com/modern-go/reflect2 "$(debian_version_of golang-github-modern-go-reflect2-dev)" \
    /usr/share/gocode/src/github.com/modern-go/reflect2
  replace_vendored github.com/json-iterator/go "$(debian_version_of golang-github-json-iterator-go-dev)" \
    /usr/share/gocode/src/github.com/json-iterator/go
  grep -nE 'modern-go/reflect2|json-iterator/go' "$SRC/go.mod" "$SRC/vendor/modules.txt" | sed 's/^/   /' >&2
}
step "patch vendored reflect2/json-iterator" patch_vendor

# pkg/generated/openapi/zz_generated.openapi.go is not in the source tarball;
# upstream's make rule generates it (GOPATH mode, vendored generator).
gen_openapi() {
  (cd "$SRC" && nice -n 10 make gen_openapi >"$SRC_PARENT/gen_openapi.log" 2>&1) ||
    { tail -40 "$SRC_PARENT/gen_openapi.log" >&2; die "make gen_openapi failed (log: $SRC_PARENT/gen_openapi.log)"; }
  [[ -f $SRC/pkg/generated/openapi/zz_generated.openapi.go ]] || die "openapi generation produced no file"
}
step "generate openapi (make gen_openapi)" gen_openapi

STAGE="$OUT/bin.tmp"
rm -rf "$STAGE"
mkdir -p "$STAGE"
# Kubernetes 1.20 builds in GOPATH mode with its vendor/ tree (hack/lib/init.sh sets
# GO111MODULE=off); in module mode Go 1.19 refuses the unmodified go.mod ("updates to
# go.mod needed, disabled by -mod=vendor"). hack/make-rules/build.sh is what
# `make WHAT=cmd/<c>` runs after code generation: same flags, version ldflags from the
# git-archive stamp in hack/lib/version.sh. Nothing can be downloaded: GOPROXY=off.
build_one() {
  (cd "$SRC" && nice -n 10 hack/make-rules/build.sh "cmd/$1" >&2)
  cp "$SRC/_output/local/bin/linux/$(go env GOARCH)/$1" "$STAGE/$1"
}
for c in "${COMPONENTS[@]}"; do
  step "go build $c" build_one "$c"
done
# The sandbox ("pause") image's only binary, from Kubernetes' own source; static so that
# a one-file image runs it (test/realnode builds that image with no registry).
build_pause() {
  gcc -Os -static -Wall -Werror -DVERSION="v$UPSTREAM-pod-doctor" -o "$STAGE/pause" "$SRC/build/pause/linux/pause.c"
}
step "gcc pause (static)" build_pause
"$STAGE/kube-apiserver" --version >&2
printf '%s\n' "$STAMP_WANT" >"$STAGE/STAMP"
rm -rf "$BIN"
mv "$STAGE" "$BIN"
printf '%s\n' "$VERSION" >"$CACHE/current"
# Binaries of other source versions are dead weight once this one is built.
for old in "$CACHE"/*/bin/STAMP; do
  old_dir=$(dirname "$(dirname "$old")")
  [[ $old_dir == "$OUT" ]] || { log "removing old build $old_dir"; rm -rf "$old_dir" "$CACHE/src/$(basename "$old_dir")"; }
done
# The unpacked tree (1+ GB, with hack/'s own Go build cache under _output/) is only needed to build.
[[ ${POD_DOCTOR_ENVTEST_KEEP_SRC:-0} == 1 ]] || rm -rf "$SRC_PARENT"
log "done: $BIN"
summary
exit 0
}
