#!/usr/bin/env bash
# Certificates for the node agents' HTTPS, for clusters without cert-manager (with it, use
# deploy/components/agent-tls-cert-manager instead). Makes a private CA and the one certificate
# every agent serves, with openssl, and prints the two Secrets deploy/base mounts:
#
#   pod-doctor-agent-tls  tls.crt, tls.key, ca.crt   the agent DaemonSet
#   pod-doctor-agent-ca   ca.crt                      the job runners (workers, or the bot of
#                                                     single-process) and Prometheus
#
# The CA's key is thrown away: nothing else can ever be signed by it. To renew, run the script
# again, apply, and restart the agents and the job runners (they read the CA at start):
#
#   scripts/agent-cert.sh > agent-tls.yaml && kubectl apply -f agent-tls.yaml
#   kubectl -n pod-doctor rollout restart daemonset/pod-doctor-agent deployment
#
# Options:
#   --namespace NS      namespace of the Secrets (default pod-doctor)
#   --server-name NAME  DNS name in the certificate (default pod-doctor-agent.<namespace>.svc);
#                       the workers check it: POD_DOCTOR_AGENT_TLS_SERVER_NAME must match
#   --days N            validity of the agent certificate (default 365; the CA: N + 30)
#   --out-dir DIR       also keep ca.crt, tls.crt and tls.key there (e.g. for a local agent)
set -euo pipefail

namespace=pod-doctor
server_name=
days=365
out_dir=

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --namespace) namespace=${2:?--namespace needs a value}; shift 2 ;;
    --server-name) server_name=${2:?--server-name needs a value}; shift 2 ;;
    --days) days=${2:?--days needs a value}; shift 2 ;;
    --out-dir) out_dir=${2:?--out-dir needs a value}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "agent-cert.sh: unknown option $1" >&2; usage ;;
  esac
done

[[ $namespace =~ ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ ]] || { echo "agent-cert.sh: --namespace \"$namespace\" is not a namespace name" >&2; exit 2; }
server_name=${server_name:-pod-doctor-agent.$namespace.svc}
[[ $server_name =~ ^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$ ]] || { echo "agent-cert.sh: --server-name \"$server_name\" is not a DNS name" >&2; exit 2; }
[[ $days =~ ^[1-9][0-9]{0,4}$ ]] || { echo "agent-cert.sh: --days \"$days\" is not a number of days" >&2; exit 2; }
command -v openssl >/dev/null || { echo "agent-cert.sh: openssl is not installed" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ECDSA P-256: small and fast; Node, the kubelet and Prometheus all speak it.
newkey=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)

openssl req -x509 -new "${newkey[@]}" -days $((days + 30)) -subj "/CN=pod-doctor-agent-ca" \
  -addext "basicConstraints=critical,CA:TRUE,pathlen:0" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout "$work/ca.key" -out "$work/ca.crt" 2>/dev/null

openssl req -new "${newkey[@]}" -subj "/CN=$server_name" -keyout "$work/tls.key" -out "$work/tls.csr" 2>/dev/null
cat > "$work/tls.ext" <<EOF
subjectAltName=DNS:$server_name
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
EOF
openssl x509 -req -in "$work/tls.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
  -days "$days" -extfile "$work/tls.ext" -out "$work/tls.crt" 2>/dev/null
openssl verify -CAfile "$work/ca.crt" "$work/tls.crt" >/dev/null

if [[ -n $out_dir ]]; then
  mkdir -p "$out_dir"
  cp "$work/ca.crt" "$work/tls.crt" "$out_dir/"
  (umask 077 && cp "$work/tls.key" "$out_dir/")
fi

b64() { base64 < "$1" | tr -d '\n'; }

cat <<EOF
# Made by scripts/agent-cert.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ): the node agents' certificate for
# $server_name, valid $days days, and the CA that signed it (deploy/README.md, "Agent TLS").
apiVersion: v1
kind: Secret
type: kubernetes.io/tls
metadata:
  name: pod-doctor-agent-tls
  namespace: $namespace
  labels:
    app.kubernetes.io/name: pod-doctor
    app.kubernetes.io/component: agent
    app.kubernetes.io/part-of: pod-doctor
data:
  tls.crt: $(b64 "$work/tls.crt")
  tls.key: $(b64 "$work/tls.key")
  ca.crt: $(b64 "$work/ca.crt")
---
apiVersion: v1
kind: Secret
type: Opaque
metadata:
  name: pod-doctor-agent-ca
  namespace: $namespace
  labels:
    app.kubernetes.io/name: pod-doctor
    app.kubernetes.io/component: agent
    app.kubernetes.io/part-of: pod-doctor
data:
  ca.crt: $(b64 "$work/ca.crt")
EOF
